const base = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}`;

export const changesHref = (accountId: string) => `${base(accountId)}/changes`;
export const confirmDeploymentHref = (accountId: string) => `${base(accountId)}/confirm-deployment`;
export const deploymentsHref = (accountId: string) => `${base(accountId)}/deployments`;
export const deploymentHref = (accountId: string, deploymentId: string, query = "") =>
  `${base(accountId)}/deployments/${encodeURIComponent(deploymentId)}${query}`;

/** The confirm page for a firmware deployment, its target's firmware condition set (the report's "update these radios"). */
export const firmwareDeploymentHref = (accountId: string, conditions: { firmware?: string } = {}) =>
  `${confirmDeploymentHref(accountId)}?${new URLSearchParams({ kind: "firmware", ...conditions })}`;

/** A firmware package's page in the account's registry (helper P's screens). */
export const firmwarePackageHref = (accountId: string, packageId: string) =>
  `${base(accountId)}/registry/firmware/view/${encodeURIComponent(packageId)}`;
