import { findAccountWithin } from "@/server/data/accounts";
import { totalOf } from "@/server/data/keyset";
import { isWithinOrganization } from "@/server/data/organizations";
import { listed } from "../place-changes";
import type { ScopedContext } from "../tenancy";

/**
 * accounts.list for a token limited to some accounts (issue 27): those of its accounts that sit
 * in `orgId`'s tree and match the search, by name, on one page (a token names few accounts).
 */
export async function limitedAccounts(
  ctx: ScopedContext,
  accountIds: readonly string[],
  input: { orgId: string; search: string; sort: string },
) {
  const found = await Promise.all(accountIds.map((id) => findAccountWithin(ctx.db, ctx.user.orgId, id)));
  const needle = input.search.trim().toLowerCase();
  const inTree = await Promise.all(
    found.map(async (account) =>
      account?.name.toLowerCase().includes(needle) && (await isWithinOrganization(ctx.db, input.orgId, account.orgId))
        ? account
        : null,
    ),
  );
  const items = inTree.filter((a) => a !== null).sort((a, b) => a.name.localeCompare(b.name));
  if (input.sort === "-name") items.reverse();
  return { items: items.map(listed), next: null, previous: null, total: totalOf(items.length) };
}
