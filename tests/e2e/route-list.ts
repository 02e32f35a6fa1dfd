import type { APIRequestContext } from "@playwright/test";

// Every route of the route table (src/routes/table.ts) as a URL a person would open, with real
// ids: the demo seed's, and a site, location, profile, rule and template the setup makes.
// The phone and axe specs both visit this list; tests/worker/route-list.test.ts fails when a
// route of the table has no visit here. Everything is opened as the demo owner, who holds
// every permission (the public pages too: the header then has its signed-in parts).

export const DEMO_PASSWORD = "radios-demo-2025";
export const OWNER = "owner@example.com";
const ACCOUNT = "acc_harbor_demo";
const ORG = "org_harbor";
/** A simulator demo radio of acc_harbor_demo (scripts/demo-data.mjs), active and the owner's to manage. */
const RADIO = "HD-0001";
/** The uid pattern of the command screens (src/routes/commands/paths.ts RESERVED). */
const UID =
  ":uid{(?!(?:add|edit|view|test|redirect|uid|profiles|send-command|batches|groups|edit-fc-device-settings|list)$)[^/]+}";

export type Ids = { site: string; location: string; profile: string; rule: string; template: string };

export type RouteVisit = {
  /** The route's path pattern, exactly as the table has it. */
  route: string;
  /** The URL opened. */
  url: (ids: Ids) => string;
  /** Signed out: a public page that redirects a signed-in visitor elsewhere. */
  signedOut?: boolean;
  /** What the visit shows when it is not the route's own screen (and why). */
  note?: string;
  /** The status the visit answers when not 200 (a refusal or not-found screen); the benchmarks check it. */
  status?: 403 | 404;
};

const acc = (path: string) => `/accounts/${ACCOUNT}${path}`;

export const routeVisits: RouteVisit[] = [
  { route: "/", url: () => "/", signedOut: true },
  { route: "/sign-in", url: () => "/sign-in", signedOut: true },
  {
    route: "/accept/:invitationCode",
    url: () => "/accept/not-a-real-code",
    signedOut: true,
    note: "an unknown code: the page that says the invitation is not valid",
  },
  { route: "/forgot-password", url: () => "/forgot-password", signedOut: true },
  { route: "/confirm-reset-code-sent", url: () => "/confirm-reset-code-sent", signedOut: true },
  {
    route: "/reset-password/:resetCode",
    url: () => "/reset-password/not-a-real-code",
    signedOut: true,
    note: "an unknown code: the page that says the link is not valid",
  },
  { route: "/confirm-password-reset", url: () => "/confirm-password-reset", signedOut: true },
  { route: "/simulator", url: () => "/simulator" },
  { route: "/docs/api", url: () => "/docs/api" },
  { route: "/docs/api/:group", url: () => "/docs/api/deployments" },
  { route: "/welcome", url: () => "/welcome" },
  { route: "/getting-started", url: () => "/getting-started" },
  { route: "/security", url: () => "/security" },
  { route: "/accounts", url: () => "/accounts" },
  { route: "/accounts/add", url: () => "/accounts/add" },
  { route: "/accounts/edit/:accountId", url: () => `/accounts/edit/${ACCOUNT}` },
  { route: "/accounts/edit/:accountId/general", url: () => `/accounts/edit/${ACCOUNT}/general` },
  { route: "/accounts/edit/:accountId/network", url: () => `/accounts/edit/${ACCOUNT}/network` },
  { route: "/accounts/:accountId{(?!(?:add|edit)$)[^/]+}", url: () => acc("") },
  { route: "/accounts/:accountId/activity-logs", url: () => acc("/activity-logs") },
  {
    route: "/accounts/:accountId/activity-logs/export.csv",
    url: () => acc("/activity-logs"),
    note: "a CSV download, not a screen: its page is the activity log",
  },
  {
    route: "/accounts/:accountId/archives/:archiveId",
    url: () => acc("/reports"),
    note: "an archive download (gzip NDJSON), not a screen: its links are on the reports page and the activity log",
  },
  { route: "/accounts/:accountId/changes", url: () => acc("/changes") },
  { route: "/accounts/:accountId/confirm-deployment", url: () => acc("/confirm-deployment") },
  { route: "/accounts/:accountId/notifications", url: () => acc("/notifications") },
  { route: "/accounts/:accountId/deployments", url: () => acc("/deployments") },
  {
    route: "/accounts/:accountId/deployments/:deploymentId",
    url: () => acc("/deployments/dep_missing"),
    note: "the demo has no deployment yet: the not-found screen (the benchmarks open real ones)",
    status: 404,
  },
  { route: "/accounts/:accountId/reports", url: () => acc("/reports") },
  { route: "/accounts/:accountId/reports/:reportId", url: () => acc("/reports/inventory") },
  { route: "/accounts/:accountId/sites", url: () => acc("/sites") },
  { route: "/accounts/:accountId/sites/add", url: () => acc("/sites/add") },
  { route: "/accounts/:accountId/sites/:siteId{(?!add$)[^/]+}", url: (ids) => acc(`/sites/${ids.site}`) },
  { route: "/accounts/:accountId/sites/:siteId/general", url: (ids) => acc(`/sites/${ids.site}/general`) },
  { route: "/accounts/:accountId/sites/:siteId/locations", url: (ids) => acc(`/sites/${ids.site}/locations`) },
  { route: "/accounts/:accountId/sites/:siteId/network", url: (ids) => acc(`/sites/${ids.site}/network`) },
  { route: "/accounts/:accountId/sites/:siteId/delete", url: (ids) => acc(`/sites/${ids.site}/delete`) },
  {
    route: "/accounts/:accountId/sites/:siteId/locations/:locationId",
    url: (ids) => acc(`/sites/${ids.site}/locations/${ids.location}`),
  },
  {
    route: "/accounts/:accountId/sites/:siteId/locations/:locationId/general",
    url: (ids) => acc(`/sites/${ids.site}/locations/${ids.location}/general`),
  },
  {
    route: "/accounts/:accountId/sites/:siteId/locations/:locationId/network",
    url: (ids) => acc(`/sites/${ids.site}/locations/${ids.location}/network`),
  },
  { route: "/accounts/:accountId/locations", url: () => acc("/locations") },
  { route: "/accounts/:accountId/locations/add", url: () => acc("/locations/add") },
  { route: "/accounts/:accountId/locations/edit/:locationId", url: (ids) => acc(`/locations/edit/${ids.location}`) },
  { route: "/accounts/:accountId/profiles", url: () => acc("/profiles") },
  { route: "/accounts/:accountId/profiles/add", url: () => acc("/profiles/add?type=channels") },
  { route: "/accounts/:accountId/profiles/edit/:profileId", url: (ids) => acc(`/profiles/edit/${ids.profile}`) },
  { route: "/accounts/:accountId/profiles/delete/:profileId", url: (ids) => acc(`/profiles/delete/${ids.profile}`) },
  { route: "/accounts/:accountId/rules", url: () => acc("/rules") },
  { route: "/accounts/:accountId/rules/add", url: () => acc("/rules/add") },
  { route: "/accounts/:accountId/rules/edit/:ruleId", url: (ids) => acc(`/rules/edit/${ids.rule}`) },
  { route: "/accounts/:accountId/rules/delete/:ruleId", url: (ids) => acc(`/rules/delete/${ids.rule}`) },
  { route: "/devices", url: () => "/devices" },
  { route: "/devices/add", url: () => "/devices/add" },
  { route: "/devices/import", url: () => "/devices/import" },
  {
    route: "/devices/export.csv",
    url: () => "/devices",
    note: "a CSV download, not a screen: its page is the inventory",
  },
  { route: "/devices/edit/:uid", url: () => `/devices/edit/${RADIO}` },
  { route: "/devices/view/:uid", url: () => `/devices/view/${RADIO}` },
  { route: "/devices/uid/:uid", url: () => `/devices/uid/${RADIO}` },
  { route: "/devices/uid/:uid/edit", url: () => `/devices/uid/${RADIO}/edit` },
  { route: "/devices/redirect/:uid", url: () => `/devices/redirect/${RADIO}` },
  { route: "/devices/send-command", url: () => "/devices/send-command" },
  { route: "/devices/batches", url: () => "/devices/batches" },
  {
    route: "/devices/batches/:batchId",
    url: () => "/devices/batches/batch_missing",
    note: "no batch sent yet: the not-found screen",
    status: 404,
  },
  { route: "/devices/test/:uid", url: () => `/devices/test/${RADIO}` },
  { route: `/devices/${UID}/commands`, url: () => `/devices/${RADIO}/commands` },
  {
    route: `/devices/${UID}/commands/:commandId`,
    url: () => `/devices/${RADIO}/commands/cmd_missing`,
    note: "the demo radio has no command yet: the not-found screen",
    status: 404,
  },
  { route: `/devices/${UID}/send-command`, url: () => `/devices/${RADIO}/send-command` },
  { route: "/accounts/:accountId/registry", url: () => acc("/registry"), note: "redirects to the registry's devices tab" },
  { route: "/accounts/:accountId/registry/devices", url: () => acc("/registry/devices") },
  { route: "/accounts/:accountId/registry/devices/add", url: () => acc("/registry/devices/add") },
  {
    route: "/accounts/:accountId/registry/devices/add/:uid",
    url: () => acc("/registry/devices/add/HC-DEPOT-0001"),
    note: "a radio of another account of the organization, offered to move here",
  },
  { route: "/accounts/:accountId/registry/devices/import", url: () => acc("/registry/devices/import") },
  {
    route: "/accounts/:accountId/registry/devices/export.csv",
    url: () => acc("/registry/devices"),
    note: "a CSV download, not a screen: its page is the registry",
  },
  { route: "/accounts/:accountId/registry/devices/edit/:uid", url: () => acc(`/registry/devices/edit/${RADIO}`) },
  { route: "/accounts/:accountId/registry/devices/view/:uid", url: () => acc(`/registry/devices/view/${RADIO}`) },
  { route: "/accounts/:accountId/registry/devices/redirect/:uid", url: () => acc(`/registry/devices/redirect/${RADIO}`) },
  { route: "/accounts/:accountId/registry/devices/send-command", url: () => acc("/registry/devices/send-command") },
  { route: "/accounts/:accountId/registry/devices/batches", url: () => acc("/registry/devices/batches") },
  {
    route: "/accounts/:accountId/registry/devices/batches/:batchId",
    url: () => acc("/registry/devices/batches/batch_missing"),
    note: "no batch sent yet: the not-found screen",
    status: 404,
  },
  { route: "/accounts/:accountId/registry/devices/groups", url: () => acc("/registry/devices/groups") },
  { route: "/accounts/:accountId/registry/devices/groups/new", url: () => acc("/registry/devices/groups/new") },
  {
    route: "/accounts/:accountId/registry/devices/groups/:groupId",
    url: () => acc("/registry/devices/groups/grp_missing"),
    note: "no group saved yet: the not-found screen",
    status: 404,
  },
  {
    route: "/accounts/:accountId/registry/devices/groups/:groupId/delete",
    url: () => acc("/registry/devices/groups/grp_missing/delete"),
    note: "no group saved yet: the not-found screen",
    status: 404,
  },
  // Firmware packages (issue 26) in both frames; the demo has no package: its page is the not-found screen.
  { route: "/devices/firmware", url: () => "/devices/firmware" },
  { route: "/devices/firmware/new", url: () => "/devices/firmware/new" },
  {
    route: "/devices/firmware/view/:packageId",
    url: () => "/devices/firmware/view/fw_missing",
    note: "no package uploaded yet: the not-found screen",
    status: 404,
  },
  {
    route: "/devices/firmware/view/:packageId/delete",
    url: () => "/devices/firmware/view/fw_missing/delete",
    note: "no package uploaded yet: the not-found screen",
    status: 404,
  },
  { route: "/accounts/:accountId/registry/firmware", url: () => acc("/registry/firmware") },
  { route: "/accounts/:accountId/registry/firmware/new", url: () => acc("/registry/firmware/new") },
  {
    route: "/accounts/:accountId/registry/firmware/view/:packageId",
    url: () => acc("/registry/firmware/view/fw_missing"),
    note: "no package uploaded yet: the not-found screen",
    status: 404,
  },
  {
    route: "/accounts/:accountId/registry/firmware/view/:packageId/delete",
    url: () => acc("/registry/firmware/view/fw_missing/delete"),
    note: "no package uploaded yet: the not-found screen",
    status: 404,
  },
  { route: "/accounts/:accountId/registry/devices/test/:uid", url: () => acc(`/registry/devices/test/${RADIO}`) },
  { route: `/accounts/:accountId/registry/devices/${UID}/commands`, url: () => acc(`/registry/devices/${RADIO}/commands`) },
  {
    route: `/accounts/:accountId/registry/devices/${UID}/commands/:commandId`,
    url: () => acc(`/registry/devices/${RADIO}/commands/cmd_missing`),
    note: "the demo radio has no command yet: the not-found screen",
    status: 404,
  },
  {
    route: `/accounts/:accountId/registry/devices/${UID}/send-command`,
    url: () => acc(`/registry/devices/${RADIO}/send-command`),
  },
  { route: "/accounts/:accountId/registry/subscriptions", url: () => acc("/registry/subscriptions") },
  { route: "/accounts/:accountId/registry/subscriptions/allocate", url: () => acc("/registry/subscriptions/allocate") },
  {
    route: "/accounts/:accountId/registry/subscriptions/deallocate",
    url: () => acc("/registry/subscriptions/deallocate?allocationId=alc_harbor_demo"),
  },
  {
    route: "/accounts/:accountId/registry/subscriptions/editAllocation/:allocationId",
    url: () => acc("/registry/subscriptions/editAllocation/alc_harbor_demo"),
  },
  { route: "/devices/profiles", url: () => "/devices/profiles/channels", note: "redirects to a type's list" },
  { route: "/devices/profiles/:profileType", url: () => "/devices/profiles/device" },
  { route: "/devices/profiles/:profileType/add", url: () => "/devices/profiles/contacts/add" },
  {
    route: "/devices/profiles/:profileType/edit/:profileId",
    url: (ids) => `/devices/profiles/buttons/edit/${ids.template}`,
  },
  {
    route: "/devices/profiles/:profileType/delete/:profileId",
    url: (ids) => `/devices/profiles/buttons/delete/${ids.template}`,
  },
  {
    route: "/security/passkeys/:passkeyId/rename",
    url: () => "/security/passkeys/pk_missing/rename",
    note: "the owner has no passkey: the not-found screen",
    status: 404,
  },
  {
    route: "/security/passkeys/:passkeyId/remove",
    url: () => "/security/passkeys/pk_missing/remove",
    note: "the owner has no passkey: the not-found screen",
    status: 404,
  },
  {
    route: "/security/identities/:identityId/unlink",
    url: () => "/security/identities/xid_missing/unlink",
    note: "the owner has no linked identity: the not-found screen",
    status: 404,
  },
  { route: "/settings/identity-providers", url: () => "/settings/identity-providers" },
  { route: "/settings/identity-providers/add", url: () => "/settings/identity-providers/add" },
  {
    route: "/settings/identity-providers/edit/:identityProviderId",
    url: () => "/settings/identity-providers/edit/idp_harbor_sso",
  },
  {
    route: "/settings/identity-providers/edit/:identityProviderId/domains",
    url: () => "/settings/identity-providers/edit/idp_harbor_sso/domains",
  },
  {
    route: "/settings/identity-providers/delete/:identityProviderId",
    url: () => "/settings/identity-providers/delete/idp_harbor_sso",
  },
  { route: "/settings/api-tokens", url: () => "/settings/api-tokens" },
  { route: "/settings/api-tokens/add", url: () => "/settings/api-tokens/add" },
  {
    route: "/settings/api-tokens/revoke/:tokenId",
    url: () => "/settings/api-tokens/revoke/tok_missing",
    note: "no API token in the demo seed: the not-found screen",
    status: 404,
  },
  { route: "/settings/organizations", url: () => "/settings/organizations" },
  { route: "/settings/organizations/add", url: () => "/settings/organizations/add" },
  { route: "/settings/organizations/edit/:orgId", url: () => "/settings/organizations/edit/org_metro" },
  { route: "/settings/organizations/webhooks/:orgId", url: () => `/settings/organizations/webhooks/${ORG}` },
  {
    route: "/settings/organizations/webhooks/:orgId/deliveries/:webhookId",
    url: () => `/settings/organizations/webhooks/${ORG}/deliveries/wh_missing`,
    note: "no webhook in the demo seed: the not-found screen",
    status: 404,
  },
  {
    route: "/settings/organizations/webhooks/:orgId/delete/:webhookId",
    url: () => `/settings/organizations/webhooks/${ORG}/delete/wh_missing`,
    note: "no webhook in the demo seed: the not-found screen",
    status: 404,
  },
  { route: "/settings/users", url: () => "/settings/users" },
  { route: "/settings/users/invite", url: () => "/settings/users/invite" },
  { route: "/settings/users/edit/:userId", url: () => "/settings/users/edit/usr_viewer" },
  { route: "/settings/subscriptions", url: () => `/settings/subscriptions?orgId=${ORG}` },
  { route: "/settings/subscriptions/add", url: () => `/settings/subscriptions/add?orgId=${ORG}` },
  {
    route: "/settings/subscriptions/remove",
    url: () => "/settings/subscriptions/remove?id=sub_harbor_demo",
    note: "the demo owner does not issue subscriptions (the vendor does): the refusal screen",
    status: 403,
  },
  { route: "/settings/subscriptions/edit/:subscriptionId", url: () => "/settings/subscriptions/edit/sub_harbor_demo" },
  {
    route: "/settings/subscriptions/allocate",
    url: () => "/settings/subscriptions/allocate?subscriptionId=sub_harbor_demo",
  },
  {
    route: "/settings/subscriptions/deallocate",
    url: () => `/settings/subscriptions/deallocate?subscriptionId=sub_harbor_demo&accountId=${ACCOUNT}`,
  },
  {
    route: "/settings/subscriptions/editAllocation/:allocationId",
    url: () => "/settings/subscriptions/editAllocation/alc_harbor_demo",
  },
  { route: "/settings/allocations", url: () => `/settings/allocations?orgId=${ORG}` },
  { route: "/settings/allocations/allocate", url: () => `/settings/allocations/allocate?orgId=${ORG}` },
  {
    route: "/settings/allocations/deallocate",
    url: () => "/settings/allocations/deallocate?allocationId=alc_harbor_demo",
  },
  { route: "/mailbox", url: () => "/mailbox" },
  // The customer-care desk (issue 15): the demo desk of scripts/demo-desk.mjs.
  { route: "/accounts/:accountId/fc-cases", url: () => acc("/fc-cases"), note: "redirects to the first tab: the dashboard" },
  { route: "/accounts/:accountId/fc-cases/fc-dashboard", url: () => acc("/fc-cases/fc-dashboard") },
  { route: "/accounts/:accountId/fc-cases/list-fc-sessions", url: () => acc("/fc-cases/list-fc-sessions") },
  { route: "/accounts/:accountId/fc-cases/list-fc-sessions/add", url: () => acc("/fc-cases/list-fc-sessions/add") },
  {
    route: "/accounts/:accountId/fc-cases/list-fc-sessions/export.csv",
    url: () => acc("/fc-cases/list-fc-sessions"),
    note: "a file download: the list that links to it",
  },
  {
    route: "/accounts/:accountId/fc-cases/list-fc-sessions/:sessionId",
    url: () => acc("/fc-cases/list-fc-sessions/fcs_demo_noaudio"),
  },
  { route: "/accounts/:accountId/fc-cases/list-fc-customers", url: () => acc("/fc-cases/list-fc-customers") },
  { route: "/accounts/:accountId/fc-cases/list-fc-customers/add", url: () => acc("/fc-cases/list-fc-customers/add") },
  {
    route: "/accounts/:accountId/fc-cases/list-fc-customers/:customerId",
    url: () => acc("/fc-cases/list-fc-customers/fcc_demo_rosa"),
  },
  { route: "/accounts/:accountId/fc-cases/list-fc-employees", url: () => acc("/fc-cases/list-fc-employees") },
  { route: "/accounts/:accountId/fc-cases/list-fc-employees/add", url: () => acc("/fc-cases/list-fc-employees/add") },
  {
    route: "/accounts/:accountId/fc-cases/list-fc-employees/edit/:fcUserId",
    url: () => acc("/fc-cases/list-fc-employees/edit/usr_agent"),
  },
  { route: "/accounts/:accountId/fc-cases/fc-settings", url: () => acc("/fc-cases/fc-settings") },
  { route: "/devices/edit-fc-device-settings/:uid", url: () => `/devices/edit-fc-device-settings/${RADIO}` },
  {
    route: "/accounts/:accountId/registry/devices/edit-fc-device-settings/:uid",
    url: () => acc(`/registry/devices/edit-fc-device-settings/${RADIO}`),
  },
];

async function call<T>(request: APIRequestContext, baseURL: string, path: string, input: unknown): Promise<T> {
  const response = await request.post(`/api/${path}`, { data: input, headers: { Origin: baseURL } });
  const body = (await response.json()) as { result?: { data: T }; error?: unknown };
  if (!body.result) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}

export async function signInAsOwner(request: APIRequestContext, baseURL: string): Promise<void> {
  const response = await request.post("/api/sign-in", {
    data: { username: OWNER, password: DEMO_PASSWORD },
    headers: { Origin: baseURL },
  });
  const body = (await response.json()) as { ok?: boolean };
  if (!body.ok) throw new Error("the demo owner could not sign in");
}

/** A site with a location, a profile, a rule and a template, named for this run (other specs share the demo). */
export async function makeIds(request: APIRequestContext, baseURL: string): Promise<Ids> {
  const tag = `${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
  const buttons = { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" };
  const site = await call<{ _id: string }>(request, baseURL, "sites.add", {
    accountId: ACCOUNT,
    name: `Phone check depot ${tag}`,
    address: "1 Long Harbour Road, Port Example",
  });
  const location = await call<{ _id: string }>(request, baseURL, "locations.add", {
    accountId: ACCOUNT,
    siteId: site._id,
    name: `Loading bay ${tag}`,
  });
  const profile = await call<{ id: string }>(request, baseURL, "profiles.add", {
    accountId: ACCOUNT,
    name: `Phone check buttons ${tag}`,
    type: "buttons",
    settings: buttons,
  });
  const rule = await call<{ id: string }>(request, baseURL, "rules.add", {
    accountId: ACCOUNT,
    name: `Phone check rule ${tag}`,
    profileIds: [profile.id],
  });
  const template = await call<{ id: string }>(request, baseURL, "profiles.addTemplate", {
    orgId: ORG,
    name: `Phone check template ${tag}`,
    type: "buttons",
    settings: buttons,
  });
  return { site: site._id, location: location._id, profile: profile.id, rule: rule.id, template: template.id };
}
