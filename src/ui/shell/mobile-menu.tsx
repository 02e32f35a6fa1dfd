import { usePage } from "@/server/render/page-context";
import { buttonClass } from "../button";
import { LanguageMenu } from "./language-menu";
import type { ProfileMenuLink } from "./profile-menu-items";

const linkClass = "block rounded px-3 py-2 text-sm font-medium text-slate-800 hover:bg-slate-100";

/**
 * Below the sm breakpoint the signed-in header collapses into this menu (spec §2: it adds an
 * Accounts link): Accounts, the profile menu's links, help, sign-out and the languages.
 * A <details> disclosure, so it works without JavaScript; the shell script closes it on Escape
 * and when the focus leaves.
 */
export function MobileMenu({ links }: { links: ProfileMenuLink[] }) {
  const { t, settings, user } = usePage();
  if (!user) return null;
  return (
    <details className="sm:hidden" data-disclosure="">
      <summary className="flex cursor-pointer items-center gap-1 rounded-md px-2 py-1 text-sm font-medium text-slate-700 ring-1 ring-slate-200 hover:bg-slate-100">
        <svg aria-hidden="true" viewBox="0 0 20 20" className="h-5 w-5" fill="none" stroke="currentColor" strokeWidth="1.5">
          <path d="M3 5.5h14M3 10h14M3 14.5h14" />
        </svg>
        {t("mobileMenu.open")}
      </summary>
      <div className="absolute inset-x-0 top-full z-30 max-h-[80vh] overflow-y-auto border-b border-slate-200 bg-white px-4 py-2 shadow-lg">
        <p className="border-b border-slate-100 px-3 py-2 text-sm">
          <span className="sr-only">{t("header.signedInAs")} </span>
          <span className="block truncate font-medium text-slate-900">{user.name || user.email}</span>
          {user.name && <span className="block truncate text-xs text-slate-600">{user.email}</span>}
        </p>
        <nav aria-label={t("mobileMenu.label")} className="py-1">
          <ul>
            <li>
              <a href="/accounts" className={linkClass}>
                {t("mobileMenu.accounts")}
              </a>
            </li>
            {links.map((link) => (
              <li key={link.id}>
                <a href={link.href} className={linkClass}>
                  {t(`profileMenu.${link.id}`)}
                </a>
              </li>
            ))}
            {settings.helpUrl && (
              <li>
                <a href={settings.helpUrl} className={linkClass} rel="noopener noreferrer" target="_blank">
                  {t("header.help")}
                </a>
              </li>
            )}
          </ul>
        </nav>
        <div className="border-t border-slate-100 px-3 py-2">
          <form method="post" action="/sign-out" data-sign-out="">
            <button type="submit" className={buttonClass("white", "sm")}>
              {t("header.signOut")}
            </button>
          </form>
        </div>
        <div className="border-t border-slate-100">
          <LanguageMenu inline />
        </div>
      </div>
    </details>
  );
}
