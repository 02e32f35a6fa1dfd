const base = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}`;

export const changesHref = (accountId: string) => `${base(accountId)}/changes`;
export const confirmDeploymentHref = (accountId: string) => `${base(accountId)}/confirm-deployment`;
export const deploymentsHref = (accountId: string) => `${base(accountId)}/deployments`;
export const deploymentHref = (accountId: string, deploymentId: string, query = "") =>
  `${base(accountId)}/deployments/${encodeURIComponent(deploymentId)}${query}`;
