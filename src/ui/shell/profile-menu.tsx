import { usePage } from "@/server/render/page-context";
import type { ProfileMenuLink } from "./profile-menu-items";

const faceClass =
  "flex cursor-pointer items-center gap-2 rounded-md px-2 py-1 text-sm text-slate-700 hover:bg-slate-100 aria-expanded:bg-slate-100";
const panelClass = "absolute right-0 z-30 mt-1 w-64 rounded-md border border-slate-200 bg-white p-1 shadow-lg";
// The focus ring sits inside the item, brand-600 on white (more than 3:1, WCAG 1.4.11).
const itemClass =
  "block w-full rounded px-3 py-2 text-left text-sm text-slate-800 hover:bg-slate-100 focus:bg-slate-100 " +
  "focus-visible:outline-2 focus-visible:-outline-offset-2 focus-visible:outline-brand-600";

/**
 * The header's profile menu (spec §2, §6): a disclosure of the allowed links and a plain
 * sign-out form, which works without JavaScript. The shell script (src/shell/menu-button.ts)
 * turns it into a keyboard-operable menu button.
 */
export function ProfileMenu({ links }: { links: ProfileMenuLink[] }) {
  const { t, user } = usePage();
  if (!user) return null;
  return (
    <details className="relative" data-menu="">
      <summary className={faceClass}>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5 text-slate-500" fill="currentColor">
          <path d="M10 10a4 4 0 1 0 0-8 4 4 0 0 0 0 8Zm-7 8a7 7 0 0 1 14 0H3Z" />
        </svg>
        <span className="sr-only">{t("header.signedInAs")} </span>
        <span className="max-w-40 truncate">{user.name || user.email}</span>
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-4 w-4 text-slate-500" fill="currentColor">
          <path d="M5.2 7.2a.75.75 0 0 1 1.06 0L10 10.94l3.74-3.74a.75.75 0 1 1 1.06 1.06l-4.27 4.27a.75.75 0 0 1-1.06 0L5.2 8.26a.75.75 0 0 1 0-1.06Z" />
        </svg>
      </summary>
      <div className={panelClass} data-menu-panel="">
        <div className="mb-1 border-b border-slate-100 px-3 py-2 text-sm">
          <p className="truncate font-medium text-slate-900">{user.name || user.email}</p>
          {user.name && <p className="truncate text-xs text-slate-600">{user.email}</p>}
        </div>
        <ul>
          {links.map((link) => (
            <li key={link.id}>
              <a href={link.href} className={itemClass}>
                {t(`profileMenu.${link.id}`)}
              </a>
            </li>
          ))}
          <li>
            <form method="post" action="/sign-out" data-sign-out="">
              <button type="submit" className={itemClass}>
                {t("header.signOut")}
              </button>
            </form>
          </li>
        </ul>
      </div>
    </details>
  );
}
