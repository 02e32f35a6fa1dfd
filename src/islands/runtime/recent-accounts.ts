/**
 * The account switcher's "Recent accounts" (spec §3, §4, §5, §9): entries {id, name} kept
 * per user in localStorage; the chosen account moves to the front, a duplicate is removed
 * and the list is cut to 5. Stored data of any other shape counts as no recent accounts.
 */
export type RecentAccount = { id: string; name: string };

export const MAX_RECENT_ACCOUNTS = 5;

/** One key per user, so people sharing a browser do not see each other's accounts. */
export function recentAccountsKey(userId: string): string {
  return `recent-accounts:${userId}`;
}

function isEntry(value: unknown): value is RecentAccount {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return false;
  const entry = value as Record<string, unknown>;
  return typeof entry.id === "string" && typeof entry.name === "string";
}

/** The stored text as a list, or [] unless it is a list of objects with string id and name. */
export function parseRecentAccounts(stored: string | null): RecentAccount[] {
  if (stored === null) return [];
  let value: unknown;
  try {
    value = JSON.parse(stored);
  } catch {
    return [];
  }
  if (!Array.isArray(value) || !value.every(isEntry)) return [];
  return value.slice(0, MAX_RECENT_ACCOUNTS).map(({ id, name }) => ({ id, name }));
}

/** The list after choosing `chosen`: it first, any older entry of the same id gone, at most 5. */
export function withRecentAccount(list: readonly RecentAccount[], chosen: RecentAccount): RecentAccount[] {
  const others = list.filter((entry) => entry.id !== chosen.id);
  return [{ id: chosen.id, name: chosen.name }, ...others].slice(0, MAX_RECENT_ACCOUNTS);
}

type Storage = Pick<globalThis.Storage, "getItem" | "setItem">;

export function readRecentAccounts(storage: Storage, userId: string): RecentAccount[] {
  try {
    return parseRecentAccounts(storage.getItem(recentAccountsKey(userId)));
  } catch {
    return []; // storage blocked (privacy settings): nothing remembered
  }
}

export function recordRecentAccount(storage: Storage, userId: string, chosen: RecentAccount): RecentAccount[] {
  const next = withRecentAccount(readRecentAccounts(storage, userId), chosen);
  try {
    storage.setItem(recentAccountsKey(userId), JSON.stringify(next));
  } catch {
    // storage blocked or full: the switcher still works, it just forgets
  }
  return next;
}
