import { builtAreas, isBuilt, type ProductArea } from "../schema/features";
import type { PermissionMap } from "../schema/permissions";
import { usePage } from "../server/render/page-context";
import type { Settings } from "../server/settings";
import { PageHeader } from "../ui/page-header";
import { definePage } from "./types";

/** One area of the product the welcome page points to, and who may open it. */
type Area = {
  id: string;
  href: string;
  open: (permissions: PermissionMap, settings: Settings, areas: Record<ProductArea, boolean>) => boolean;
};

const areas: Area[] = [
  { id: "accounts", href: "/accounts", open: () => true },
  // Spec §6: the Organizations tab is open to all signed-in users.
  { id: "organizations", href: "/settings/organizations", open: () => true },
  { id: "users", href: "/settings/users", open: (p) => p["edit-users"] === true },
  { id: "subscriptions", href: "/settings/subscriptions", open: (p) => p["view-subscriptions-in-organizations"] === true },
  { id: "devices", href: "/devices", open: (p, _, built) => isBuilt("devices", built) && p["manage-devices"] === true },
  { id: "gettingStarted", href: "/getting-started", open: (_, settings) => settings.showDocumentation },
  { id: "security", href: "/security", open: () => true },
];

/** The areas this user may open: a link to a page they are refused would only disappoint. */
export function welcomeAreas(
  permissions: PermissionMap,
  settings: Settings,
  built: Record<ProductArea, boolean> = builtAreas,
): { id: string; href: string }[] {
  return areas.filter((area) => area.open(permissions, settings, built)).map(({ id, href }) => ({ id, href }));
}

function Welcome() {
  const { t, settings, user } = usePage();
  if (!user) return null; // the route is signed-in only
  const visible = welcomeAreas(user.permissions, settings);
  const boxes = settings.welcomeMode === "boxes";
  return (
    <>
      <PageHeader title={String(t("routes.welcome"))} description={t("welcome.greeting", { name: user.name || user.email })} />
      <nav aria-label={t("welcome.areas")}>
        <ul
          className={
            boxes
              ? "grid gap-4 sm:grid-cols-2 lg:grid-cols-3"
              : "flex flex-col divide-y divide-slate-200 rounded-lg bg-white shadow-sm"
          }
        >
          {visible.map(({ id, href }) => (
            <li
              key={id}
              data-area={id}
              className={
                boxes
                  ? "relative rounded-lg border border-slate-200 bg-white p-5 shadow-sm focus-within:ring-2 focus-within:ring-brand-600 hover:border-brand-600"
                  : "relative px-4 py-3 hover:bg-slate-50"
              }
            >
              <h2 className={boxes ? "text-lg font-semibold text-slate-900" : "font-semibold text-slate-900"}>
                {/* The whole card is clickable; the link's name stays the title. */}
                <a href={href} className="after:absolute after:inset-0 focus:outline-none">
                  {t(`welcome.cards.${id}.title`)}
                </a>
              </h2>
              <p className="mt-1 text-sm text-slate-600">{t(`welcome.cards.${id}.description`)}</p>
            </li>
          ))}
        </ul>
      </nav>
    </>
  );
}

/** /welcome: where signed-in users start (spec §2), with the areas their role opens. */
export const welcomePage = definePage({ Component: Welcome });
