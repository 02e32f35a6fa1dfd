import { TRPCError } from "@trpc/server";
import type { SessionUser } from "../auth/sessions";
import { type Account, findAccountWithin } from "../data/accounts";
import { isWithinOrganization } from "../data/organizations";
import { memoized } from "../data/request-memo";
import type { ApiContext } from "./trpc";

export type ScopedContext = Pick<ApiContext, "db" | "t"> & { user: SessionUser };

/**
 * Tenant checks (DESIGN.md §4): a user acts in their organization and its descendants.
 * Anything outside answers NOT_FOUND, exactly like something that does not exist, so ids
 * of other tenants reveal nothing.
 */
export async function assertOrganizationInScope(
  ctx: ScopedContext,
  orgId: string,
  { listsAccounts = false }: { listsAccounts?: boolean } = {},
): Promise<void> {
  // A token limited to some accounts reaches nothing of the organization itself, only the list
  // of its accounts (which then shows those accounts alone).
  if (accountLimit(ctx.user) && !listsAccounts) refuseLimited(ctx);
  // The caller's own organization is in scope by definition: no database probe for it.
  if (orgId === ctx.user.orgId) return;
  if (!(await isWithinOrganization(ctx.db, ctx.user.orgId, orgId))) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.organizationNotFound")) });
  }
}

/** The only accounts an API token may reach (issue 27), or null: a person, or a token for every account. */
export function accountLimit(user: SessionUser): readonly string[] | null {
  return user.token?.accountIds ?? null;
}

/** What an account-limited token hears for anything above its accounts. */
export function refuseLimited(ctx: Pick<ScopedContext, "t">): never {
  throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("apiTokens.errors.limitedToAccounts")) });
}

export async function accountInScope(ctx: ScopedContext, accountId: string): Promise<Account> {
  // Outside a token's accounts an account is not there, exactly as another tenant's.
  const limit = accountLimit(ctx.user);
  if (limit && !limit.includes(accountId)) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.accountNotFound")) });
  }
  // Asked once per request (a page's procedures each check the same account); a write in the
  // request forgets it, so this never answers an account as it was before that write.
  const account = await memoized(ctx.db, `accountWithin:${ctx.user.orgId}:${accountId}`, () =>
    findAccountWithin(ctx.db, ctx.user.orgId, accountId),
  );
  if (!account) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.accountNotFound")) });
  }
  return account;
}
