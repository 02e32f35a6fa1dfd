import type { Context } from "hono";
import { api } from "./api/procedures-route";
import { askedOnce, isRefusedAccount } from "./asked-once";
import type { AppEnv } from "./env";
import { pendingChangesOf } from "./pending-changes";

export type AccountDetails = Awaited<ReturnType<ReturnType<typeof api>["accounts"]["details"]>>;

/** The account a page is about, as the header shows it (switcher name, account settings link). */
export type CurrentAccount = { id: string; name: string };

const asked = new WeakMap<object, Map<string, Promise<AccountDetails>>>();

/** accounts.details for this request and id, asked at most once; errors are the procedure's. */
export function accountDetails(c: Context<AppEnv>, accountId: string): Promise<AccountDetails> {
  return askedOnce(asked, c, accountId, () => api(c).accounts.details({ id: accountId }));
}

function decoded(segment: string): string | null {
  try {
    return decodeURIComponent(segment);
  } catch {
    return null;
  }
}

/** The account id in /accounts/{accountId}/… and /accounts/edit/{accountId}/…, or null. */
export function accountIdInPath(pathname: string): string | null {
  const edit = /^\/accounts\/edit\/([^/]+)/.exec(pathname);
  if (edit?.[1]) return decoded(edit[1]);
  const inside = /^\/accounts\/([^/]+)/.exec(pathname);
  // /accounts/add and a bare /accounts/edit are screens, not accounts.
  if (inside?.[1] && inside[1] !== "add" && inside[1] !== "edit") return decoded(inside[1]);
  return null;
}

/**
 * The account in context for the header, when the page is inside one the user may see.
 * An id that is unknown or another tenant's is simply no account here: the page itself
 * shows the error.
 */
export async function currentAccountOf(c: Context<AppEnv>): Promise<CurrentAccount | null> {
  if (!c.get("user")) return null;
  const accountId = accountIdInPath(new URL(c.req.url).pathname);
  if (!accountId) return null;
  try {
    const account = await accountDetails(c, accountId);
    return { id: account._id, name: account.name };
  } catch (error) {
    if (!isRefusedAccount(error)) console.error("current account lookup failed", error);
    return null;
  }
}

/**
 * Inside an account's workspace, starts reading what the shell will show (the account and the
 * banner's count of changes to deploy) while the page reads its own data: the reads leave
 * together as one D1 batch (src/server/data/read-coalescing.ts) instead of one after another.
 * Both answers are kept for the request; nothing here may fail the page.
 */
export function prefetchAccountContext(c: Context<AppEnv>): void {
  const pathname = new URL(c.req.url).pathname;
  const accountId = pathname.startsWith("/accounts/edit/") ? null : accountIdInPath(pathname);
  if (!c.get("user") || !accountId) return;
  accountDetails(c, accountId).catch(() => undefined);
  void pendingChangesOf(c)(accountId);
}
