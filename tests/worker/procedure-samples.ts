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
};

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
};
