const base = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}`;

export const changesHref = (accountId: string) => `${base(accountId)}/changes`;
export const confirmDeploymentHref = (accountId: string) => `${base(accountId)}/confirm-deployment`;
export const deploymentsHref = (accountId: string) => `${base(accountId)}/deployments`;
export const deploymentHref = (accountId: string, deploymentId: string, query = "") =>
  `${base(accountId)}/deployments/${encodeURIComponent(deploymentId)}${query}`;

/**
 * The confirm page for a firmware deployment: `firmware` sets the target's firmware condition (the
 * report's "update these radios"), `package` chooses the package (a package's page).
 */
export const firmwareDeploymentHref = (accountId: string, chosen: { firmware?: string; package?: string } = {}) =>
  `${confirmDeploymentHref(accountId)}?${new URLSearchParams({ kind: "firmware", ...chosen })}`;
