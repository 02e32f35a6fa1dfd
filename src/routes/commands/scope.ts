import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { RouteContext } from "../types";
import type { CommandScope } from "./paths";

/** The page's place: an account's registry (its details for the frame) or the inventory. */
export type PageScope = CommandScope & { account: AccountDetails | null; timeZone: string };

export async function pageScope(c: RouteContext): Promise<PageScope> {
  const accountId = c.req.param("accountId");
  if (!accountId) return { account: null, timeZone: "UTC" };
  const account = await accountDetails(c, accountId);
  return { accountId: account._id, account, timeZone: account.timezone };
}

export function uidParam(c: RouteContext): string {
  return (c.req.param("uid") ?? "").slice(0, 64);
}

/** The radio's command history's first page: also proves the caller may see the radio. */
export function historyOf(
  c: RouteContext,
  scope: CommandScope,
  uid: string,
  limit = 25,
  after?: { createdAt: string; id: string },
) {
  return api(c).commands.list({
    uid,
    ...(scope.accountId ? { accountId: scope.accountId } : {}),
    limit,
    ...(after ? { after } : {}),
  });
}
