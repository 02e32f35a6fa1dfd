const base = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/reports`;

export const reportsHref = (accountId: string) => base(accountId);
export const reportHref = (accountId: string, reportId: string, query = "") =>
  `${base(accountId)}/${encodeURIComponent(reportId)}${query}`;
