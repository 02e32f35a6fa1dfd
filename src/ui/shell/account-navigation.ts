import { builtAreas, isBuilt, type ProductArea } from "@/schema/features";
import type { PermissionMap } from "@/schema/permissions";

export type AccountSection =
  | "home"
  | "sites"
  | "locations"
  | "profiles"
  | "rules"
  | "registry"
  | "deployments"
  | "fcCases"
  | "activityLogs"
  | "reports";

/** An entry of the account sidebar; its label is `accountShell.nav.<section>`. */
export type AccountNavItem = { section: AccountSection; href: string; current: boolean };

/** The URL segment right after /accounts/{accountId}/ of each section ("" is home). */
const segments: Record<AccountSection, string> = {
  home: "",
  sites: "sites",
  locations: "locations",
  profiles: "profiles",
  rules: "rules",
  registry: "registry",
  deployments: "deployments",
  fcCases: "fc-cases",
  activityLogs: "activity-logs",
  reports: "reports",
};

/** The section a path inside the account belongs to, or null when the path is elsewhere. */
export function accountSectionOf(pathname: string, accountId: string): AccountSection | null {
  const base = `/accounts/${encodeURIComponent(accountId)}`;
  if (pathname !== base && !pathname.startsWith(`${base}/`)) return null;
  const segment = pathname.slice(base.length).split("/")[1] ?? "";
  const found = (Object.keys(segments) as AccountSection[]).find((section) => segments[section] === segment);
  return found ?? null;
}

/**
 * The account sidebar (spec §2, §6): home and activity logs for everyone; sites, locations,
 * profiles and rules with edit-configurations; Inventory opens on devices when the user may
 * see them, otherwise on subscriptions, and is hidden with neither; Reports follows the
 * flag for the account's subscription level. Deployments are open to every user of the account,
 * as their list is (src/routes/deployments/routes.ts). Inventory, Deployments and Reports wait
 * until their screens exist (src/schema/features.ts). The entry of `pathname` is marked current.
 */
export function accountNavItems(
  permissions: PermissionMap,
  account: { id: string; subscriptionLevel: "essential" | "advanced" },
  pathname: string,
  areas: Record<ProductArea, boolean> = builtAreas,
): AccountNavItem[] {
  const can = (flag: keyof PermissionMap) => permissions[flag] === true;
  const base = `/accounts/${encodeURIComponent(account.id)}`;
  const configure = can("edit-configurations");
  const registry = !isBuilt("devices", areas)
    ? null
    : can("view-devices-in-accounts")
      ? "registry/devices"
      : can("view-subscriptions-in-accounts")
        ? "registry/subscriptions"
        : null;
  const reports =
    isBuilt("reports", areas) &&
    (account.subscriptionLevel === "advanced"
      ? can("view-reports-in-advanced-accounts")
      : can("view-reports-in-non-advanced-accounts"));

  // Customer care (issue 15) opens on the first of its tabs this user may see.
  const fcCases = can("view-fc-sessions")
    ? "fc-cases/fc-dashboard"
    : can("view-fc-users")
      ? "fc-cases/list-fc-customers"
      : can("view-all-users")
        ? "fc-cases/fc-settings"
        : null;

  const entries: [AccountSection, string | null][] = [
    ["home", ""],
    ["sites", configure ? "sites" : null],
    ["locations", configure ? "locations" : null],
    ["profiles", configure ? "profiles" : null],
    ["rules", configure ? "rules" : null],
    ["registry", registry],
    ["deployments", isBuilt("deployments", areas) ? "deployments" : null],
    ["fcCases", fcCases],
    ["activityLogs", "activity-logs"],
    ["reports", reports ? "reports" : null],
  ];
  const current = accountSectionOf(pathname, account.id);
  return entries
    .filter((entry): entry is [AccountSection, string] => entry[1] !== null)
    .map(([section, path]) => ({ section, href: path ? `${base}/${path}` : base, current: section === current }));
}
