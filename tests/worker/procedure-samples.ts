/**
 * A valid-looking input for every procedure, built from one tenant's ids. The permission and
 * tenant-isolation matrices call every procedure of the router with these; a procedure
 * without a sample fails the matrices, so a new procedure cannot slip past them.
 */
export type Tenant = {
  orgId: string;
  childOrgId: string;
  accountId: string;
  userId: string;
  /** A subscription of childOrgId (10 seats) with 2 allocated to accountId. */
  subscriptionId: string;
  allocationId: string;
  /** A site of accountId, and a location in it. */
  siteId: string;
  locationId: string;
  /** A device profile of accountId, a rule of accountId assigning it, and a channels template of orgId. */
  profileId: string;
  ruleId: string;
  templateId: string;
  /** A running deployment of accountId (revision 1, which is also its "previous" one). */
  deploymentId: string;
  /** A radio of childOrgId assigned to accountId (one of its 2 seats). */
  deviceUid: string;
};

const matrixButtons = { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" };

export const procedureSamples: Record<string, (t: Tenant) => unknown> = {
  "accounts.list": (t) => ({ orgId: t.orgId }),
  "accounts.details": (t) => ({ id: t.accountId }),
  "accounts.publicList": () => ({ search: "" }),
  "accounts.add": (t) => ({ orgId: t.childOrgId, name: "Matrix account" }),
  "accounts.update": (t) => ({
    id: t.accountId,
    version: 1,
    name: "Renamed by matrix",
    subscriptionLevel: "essential",
    timezone: "UTC",
  }),
  "accounts.delete": (t) => ({ id: t.accountId, version: 1, confirmName: "Matrix fleet" }),
  "accounts.networkConfig": (t) => ({ id: t.accountId }),
  "accounts.updateNetworkConfig": (t) => ({ id: t.accountId, version: 1, config: { dnsServers: ["9.9.9.9"] } }),
  "accounts.getConfiguredEntitiesSummary": (t) => ({ accountId: t.accountId }),
  "accounts.getLastConfigurationActivity": (t) => ({ accountId: t.accountId }),
  "devices.getConfiguredDeviceCounts": (t) => ({ accountId: t.accountId }),
  // Commands to the tenant's radio (a ping, or a command id that is not there).
  "commands.list": (t) => ({ uid: t.deviceUid, accountId: t.accountId }),
  "commands.get": (t) => ({ uid: t.deviceUid, id: "00000000-0000-4000-8000-000000000000", accountId: t.accountId }),
  "commands.send": (t) => ({ uid: t.deviceUid, accountId: t.accountId, type: "ping" }),
  "commands.cancel": (t) => ({ uid: t.deviceUid, id: "00000000-0000-4000-8000-000000000000", accountId: t.accountId }),
  "commands.sendBulk": (t) => ({ accountId: t.accountId, selection: { filter: {} }, type: "ping" }),
  "devices.seats": (t) => ({ accountId: t.accountId }),
  "devices.list": (t) => ({ accountId: t.accountId }),
  "devices.filterOptions": (t) => ({ accountId: t.accountId }),
  "devices.places": (t) => ({ accountId: t.accountId }),
  "devices.details": (t) => ({ uid: t.deviceUid }),
  "devices.effectiveConfiguration": (t) => ({ uid: t.deviceUid }),
  "devices.revision": (t) => ({ uid: t.deviceUid }),
  "devices.add": (t) => ({ orgId: t.childOrgId, uid: `${t.deviceUid}-NEW`, brand: "Northwind", model: "XR-7" }),
  "devices.update": (t) => ({ uid: t.deviceUid, version: 1, name: "Matrix radio", model: "XR-7", tags: ["matrix"], notes: "" }),
  "devices.rotateSecret": (t) => ({ uid: t.deviceUid, version: 1 }),
  // Retiring the sample radio would take it out of its account for the roles after: a uid that is not there.
  "devices.retire": (t) => ({ uid: `${t.deviceUid}-GONE`, version: 1 }),
  "devices.assign": (t) => ({ uid: t.deviceUid, version: 1, accountId: t.accountId, siteId: t.siteId, locationId: t.locationId }),
  "devices.bulkAssign": (t) => ({
    accountId: t.accountId,
    selection: { uids: [t.deviceUid] },
    target: { accountId: t.accountId },
  }),
  "devices.bulkTag": (t) => ({ accountId: t.accountId, selection: { uids: [t.deviceUid] }, tag: "matrix", add: true }),
  "devices.importCsv": (t) => ({ accountId: t.accountId, csv: `uid,model\n${t.deviceUid}-CSV,XR-7`, dryRun: true }),
  // Without `enabled: false`: that answers empty without asking, which would prove no isolation.
  "activityLogs.list": (t) => ({ accountId: t.accountId }),
  "activityLogs.listChangesToDeploy": (t) => ({ accountId: t.accountId }),
  "deployments.list": (t) => ({ accountId: t.accountId }),
  "reports.list": (t) => ({ accountId: t.accountId }),
  "reports.get": (t) => ({ accountId: t.accountId, report: "inventory" }),
  "deployments.get": (t) => ({ id: t.deploymentId }),
  "deployments.radios": (t) => ({ id: t.deploymentId, state: "pending" }),
  "deployments.preview": (t) => ({ accountId: t.accountId }),
  "deployments.create": (t) => ({ accountId: t.accountId, note: "matrix" }),
  "deployments.act": (t) => ({ id: t.deploymentId, action: "pause" }),
  "deployments.rollback": (t) => ({ id: t.deploymentId }),
  "deployments.drift": (t) => ({ accountId: t.accountId }),
  "organizations.list": () => ({ search: "" }),
  "organizations.details": (t) => ({ id: t.childOrgId }),
  "organizations.add": (t) => ({ parentId: t.orgId, name: "Matrix organization", kind: "customer" }),
  "organizations.update": (t) => ({ id: t.childOrgId, version: 1, name: "Renamed by matrix" }),
  "users.list": (t) => ({ orgId: t.orgId }),
  "users.details": (t) => ({ id: t.userId }),
  // userId is the tenant's owner: the owner leaves themselves as they are, an admin may not touch them.
  "users.update": (t) => ({ id: t.userId, version: 1, role: "owner", status: "active" }),
  "users.disable": (t) => ({ id: t.userId, version: 1 }),
  "users.invite": (t) => ({ email: "matrix-invitee@example.com", role: "viewer", orgId: t.orgId }),
  "users.listInvitations": (t) => ({ orgId: t.orgId }),
  "users.resendInvitation": () => ({ id: "inv_matrix_unknown" }),
  "users.revokeInvitation": () => ({ id: "inv_matrix_unknown" }),
  "users.listIdentityProvidersForUser": () => ({}),
  "users.unlinkExternalIdentity": () => ({ id: "xid_matrix_unknown" }),
  "identityProviders.list": (t) => ({ orgId: t.orgId }),
  "identityProviders.details": () => ({ id: "idp_matrix_unknown" }),
  "identityProviders.add": (t) => ({
    orgId: t.childOrgId,
    name: "Matrix SSO",
    issuer: "https://login.matrix.example",
    clientId: "matrix-client",
    clientSecret: "matrix-secret",
    emailDomains: ["matrix-sso.example"],
  }),
  "identityProviders.update": () => ({
    id: "idp_matrix_unknown",
    version: 1,
    name: "Matrix SSO",
    issuer: "https://login.matrix.example",
    clientId: "matrix-client",
    emailDomains: ["matrix-sso.example"],
  }),
  "identityProviders.delete": () => ({ id: "idp_matrix_unknown", version: 1 }),
  "identityProviders.verifyDomain": () => ({ id: "idp_matrix_unknown", domain: "matrix.example" }),
  "identityProviders.approveDomain": () => ({ id: "idp_matrix_unknown", domain: "matrix.example" }),
  "subscriptions.organizations": () => ({}),
  "subscriptions.list": (t) => ({ orgId: t.childOrgId }),
  "subscriptions.details": (t) => ({ id: t.subscriptionId }),
  "subscriptions.add": (t) => ({ orgId: t.childOrgId, plan: "Matrix extra", quantity: 5, startsAt: "2026-02-01" }),
  "subscriptions.update": (t) => ({
    id: t.subscriptionId,
    version: 1,
    plan: "Matrix plan",
    quantity: 12,
    startsAt: "2026-01-01",
  }),
  "subscriptions.remove": (t) => ({ id: t.subscriptionId, version: 1 }),
  "subscriptions.allocations": (t) => ({ orgId: t.childOrgId }),
  "subscriptions.allocationChoices": (t) => ({ orgId: t.childOrgId }),
  "subscriptions.accountChoices": (t) => ({ subscriptionId: t.subscriptionId }),
  "subscriptions.allocation": (t) => ({ id: t.allocationId }),
  "subscriptions.allocate": (t) => ({ subscriptionId: t.subscriptionId, accountId: t.accountId, quantity: 1 }),
  "subscriptions.updateAllocation": (t) => ({ id: t.allocationId, version: 1, quantity: 3 }),
  "subscriptions.deallocate": (t) => ({ id: t.allocationId }),
  "subscriptions.forAccount": (t) => ({ accountId: t.accountId }),
  "users.listPasskeysForUser": () => undefined,
  "users.renamePasskey": () => ({ id: "pk_matrix_missing", name: "Renamed" }),
  "users.removePasskey": () => ({ id: "pk_matrix_missing" }),
  "sites.list": (t) => ({ accountId: t.accountId }),
  "sites.details": (t) => ({ accountId: t.accountId, id: t.siteId }),
  "sites.add": (t) => ({ accountId: t.accountId, name: "Matrix site" }),
  "sites.update": (t) => ({
    accountId: t.accountId,
    id: t.siteId,
    version: 1,
    name: "Renamed site",
    address: "",
    timezone: null,
  }),
  "sites.delete": (t) => ({ accountId: t.accountId, id: t.siteId, version: 1 }),
  "sites.networkConfig": (t) => ({ accountId: t.accountId, id: t.siteId }),
  "sites.updateNetworkConfig": (t) => ({ accountId: t.accountId, id: t.siteId, version: 1, config: { dnsServers: ["9.9.9.9"] } }),
  "locations.list": (t) => ({ accountId: t.accountId, siteId: t.siteId }),
  "locations.details": (t) => ({ accountId: t.accountId, id: t.locationId }),
  "locations.siteOptions": (t) => ({ accountId: t.accountId }),
  "locations.add": (t) => ({ accountId: t.accountId, siteId: t.siteId, name: "Matrix location" }),
  "locations.update": (t) => ({
    accountId: t.accountId,
    id: t.locationId,
    version: 1,
    siteId: t.siteId,
    name: "Renamed location",
    description: "",
  }),
  "locations.delete": (t) => ({ accountId: t.accountId, id: t.locationId, version: 1 }),
  "locations.networkConfig": (t) => ({ accountId: t.accountId, id: t.locationId }),
  "locations.updateNetworkConfig": (t) => ({
    accountId: t.accountId,
    id: t.locationId,
    version: 1,
    config: { ntpServers: ["pool.ntp.org"] },
  }),
  "locations.effectiveNetworkConfig": (t) => ({ accountId: t.accountId, locationId: t.locationId }),
  "profiles.list": (t) => ({ accountId: t.accountId }),
  "profiles.details": (t) => ({ id: t.profileId }),
  "profiles.usage": (t) => ({ id: t.profileId }),
  "profiles.add": (t) => ({ accountId: t.accountId, name: "Matrix buttons", type: "buttons", settings: matrixButtons }),
  "profiles.update": (t) => ({ id: t.profileId, version: 1, name: "Matrix radios", type: "buttons", settings: matrixButtons }),
  "profiles.delete": (t) => ({ id: t.profileId, version: 1, detachFromRules: [t.ruleId] }),
  "profiles.addTemplate": (t) => ({ orgId: t.orgId, name: "Matrix template", type: "buttons", settings: matrixButtons }),
  "profiles.updateTemplate": (t) => ({
    id: t.templateId,
    version: 1,
    name: "Matrix template",
    type: "buttons",
    settings: matrixButtons,
  }),
  "profiles.deleteTemplate": (t) => ({ id: t.templateId, version: 1 }),
  "rules.list": (t) => ({ accountId: t.accountId }),
  "rules.details": (t) => ({ id: t.ruleId }),
  "rules.options": (t) => ({ accountId: t.accountId, placeIds: [t.siteId] }),
  "rules.add": (t) => ({ accountId: t.accountId, name: "Matrix rule", profileIds: [t.profileId] }),
  "rules.update": (t) => ({ id: t.ruleId, version: 1, name: "Matrix rule renamed", profileIds: [] }),
  "rules.delete": (t) => ({ id: t.ruleId, version: 1 }),
  "rules.reorder": (t) => ({ accountId: t.accountId, version: 1, move: { id: t.ruleId, direction: "down" } }),
};
