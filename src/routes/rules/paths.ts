/** Where an account's rule screens live (spec §2: rules, rules/add, rules/edit/{ruleId}). */
export const rulesHref = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/rules`;
export const ruleEditHref = (accountId: string, ruleId: string) => `${rulesHref(accountId)}/edit/${encodeURIComponent(ruleId)}`;
export const ruleDeleteHref = (accountId: string, ruleId: string) =>
  `${rulesHref(accountId)}/delete/${encodeURIComponent(ruleId)}`;

export const RULES_PAGE_SIZE = 25;

export function listPageHref(accountId: string, page: number): string {
  return page > 1 ? `${rulesHref(accountId)}?page=${page}` : rulesHref(accountId);
}
