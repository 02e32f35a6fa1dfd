// Every route of the route table (src/routes/table.ts), each with a concrete URL in the local
// demo, for the JavaScript-per-page benchmark. `routeTableCoverage` reads the table's source and
// names any pattern missing here, so a new route cannot slip past the budget.
// Routes whose object the demo seed lacks (a site, a profile…) still load: their page is the
// 404 route error screen, reported with its status so the figure is not mistaken for the form's.
import { readFileSync } from "node:fs";

const OWNER = "owner@example.com";
const A = "/accounts/acc_metro_bus";
const S = `${A}/sites/site_none`;

/** [route pattern as in the table, URL, signed in as, whether the page has a form] */
export const ROUTES = [
  ["/", "/", null],
  ["/sign-in", "/sign-in", null],
  ["/forgot-password", "/forgot-password", null],
  ["/confirm-reset-code-sent", "/confirm-reset-code-sent", null],
  ["/confirm-password-reset", "/confirm-password-reset", null],
  ["/reset-password/:resetCode", "/reset-password/bench-code", null],
  ["/accept/:invitationCode", "/accept/bench-code", null],
  ["/simulator", "/simulator", null],
  ["/mailbox", "/mailbox", null],
  ["/welcome", "/welcome", OWNER],
  ["/getting-started", "/getting-started", OWNER],
  ["/security", "/security", OWNER],
  ["/security/passkeys/:passkeyId/rename", "/security/passkeys/pk_none/rename", OWNER],
  ["/security/passkeys/:passkeyId/remove", "/security/passkeys/pk_none/remove", OWNER],
  ["/security/identities/:identityId/unlink", "/security/identities/idn_none/unlink", OWNER],
  ["/accounts", "/accounts", OWNER],
  ["/accounts/add", "/accounts/add", OWNER],
  ["/accounts/:accountId", A, OWNER],
  ["/accounts/edit/:accountId", "/accounts/edit/acc_metro_bus", OWNER],
  ["/accounts/edit/:accountId/general", "/accounts/edit/acc_metro_bus/general", OWNER],
  ["/accounts/edit/:accountId/network", "/accounts/edit/acc_metro_bus/network", OWNER],
  ["/sites", `${A}/sites`, OWNER],
  ["/sites/add", `${A}/sites/add`, OWNER],
  ["/sites/:siteId", S, OWNER],
  ["/sites/:siteId/general", `${S}/general`, OWNER],
  ["/sites/:siteId/locations", `${S}/locations`, OWNER],
  ["/sites/:siteId/network", `${S}/network`, OWNER],
  ["/sites/:siteId/delete", `${S}/delete`, OWNER],
  ["/sites/:siteId/locations/:locationId", `${S}/locations/loc_none`, OWNER],
  ["/sites/:siteId/locations/:locationId/general", `${S}/locations/loc_none/general`, OWNER],
  ["/sites/:siteId/locations/:locationId/network", `${S}/locations/loc_none/network`, OWNER],
  ["/locations", `${A}/locations`, OWNER],
  ["/locations/add", `${A}/locations/add`, OWNER],
  ["/locations/edit/:locationId", `${A}/locations/edit/loc_none`, OWNER],
  ["/profiles", `${A}/profiles`, OWNER],
  ["/profiles/add", `${A}/profiles/add`, OWNER],
  ["/profiles/edit/:profileId", `${A}/profiles/edit/prf_none`, OWNER],
  ["/profiles/delete/:profileId", `${A}/profiles/delete/prf_none`, OWNER],
  ["/rules", `${A}/rules`, OWNER],
  ["/rules/add", `${A}/rules/add`, OWNER],
  ["/rules/edit/:ruleId", `${A}/rules/edit/rul_none`, OWNER],
  ["/rules/delete/:ruleId", `${A}/rules/delete/rul_none`, OWNER],
  ["/accounts/:accountId/activity-logs", `${A}/activity-logs`, OWNER],
  ["/accounts/:accountId/changes", `${A}/changes`, OWNER],
  ["/devices/profiles", "/devices/profiles", OWNER],
  ["/devices/profiles/:profileType", "/devices/profiles/device", OWNER],
  ["/devices/profiles/:profileType/add", "/devices/profiles/device/add", OWNER],
  ["/devices/profiles/:profileType/edit/:profileId", "/devices/profiles/device/edit/prf_none", OWNER],
  ["/devices/profiles/:profileType/delete/:profileId", "/devices/profiles/device/delete/prf_none", OWNER],
  ["/settings/organizations", "/settings/organizations", OWNER],
  ["/settings/organizations/add", "/settings/organizations/add", OWNER],
  ["/settings/organizations/edit/:orgId", "/settings/organizations/edit/org_metro", OWNER],
  ["/settings/users", "/settings/users", OWNER],
  ["/settings/users/invite", "/settings/users/invite", OWNER],
  ["/settings/users/edit/:userId", "/settings/users/edit/usr_viewer", OWNER],
  ["/settings/identity-providers", "/settings/identity-providers", OWNER],
  ["/settings/identity-providers/add", "/settings/identity-providers/add", OWNER],
  ["/settings/identity-providers/edit/:identityProviderId", "/settings/identity-providers/edit/idp_none", OWNER],
  ["/settings/identity-providers/delete/:identityProviderId", "/settings/identity-providers/delete/idp_none", OWNER],
  ["/settings/subscriptions", "/settings/subscriptions", OWNER],
  ["/settings/subscriptions/add", "/settings/subscriptions/add", OWNER],
  ["/settings/subscriptions/remove", "/settings/subscriptions/remove?id=sub_metro_fleet", OWNER],
  ["/settings/subscriptions/edit/:subscriptionId", "/settings/subscriptions/edit/sub_metro_fleet", OWNER],
  ["/settings/subscriptions/allocate", "/settings/subscriptions/allocate", OWNER],
  ["/settings/subscriptions/deallocate", "/settings/subscriptions/deallocate?id=alc_metro_bus", OWNER],
  ["/settings/subscriptions/editAllocation/:allocationId", "/settings/subscriptions/editAllocation/alc_metro_bus", OWNER],
  ["/settings/allocations", "/settings/allocations", OWNER],
  ["/settings/allocations/allocate", "/settings/allocations/allocate", OWNER],
  ["/settings/allocations/deallocate", "/settings/allocations/deallocate?id=alc_metro_bus", OWNER],
].map(([pattern, path, signedIn]) => ({ name: pattern, pattern, path, signedIn }));

/** Route patterns of the table (and its account screens) that ROUTES does not cover. */
export function routeTableCoverage(tablePath = "src/routes/table.ts") {
  const source = readFileSync(tablePath, "utf8");
  const patterns = new Set();
  for (const m of source.matchAll(/path: "([^"]+)"/g)) patterns.add(m[1]);
  for (const m of source.matchAll(/\["(\/[^"]*)"/g)) patterns.add(m[1]);
  // Strip the regular-expression constraints Hono allows in a parameter ({…}).
  const clean = (p) => p.replace(/\{[^}]*\}+/g, "");
  const covered = new Set(ROUTES.map((r) => clean(r.pattern)));
  return [...patterns].map(clean).filter((p) => !covered.has(p) && !p.endsWith(".csv"));
}
