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
export async function assertOrganizationInScope(ctx: ScopedContext, orgId: string): Promise<void> {
  // The caller's own organization is in scope by definition: no database probe for it.
  if (orgId === ctx.user.orgId) return;
  if (!(await isWithinOrganization(ctx.db, ctx.user.orgId, orgId))) {
    throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.organizationNotFound")) });
  }
}

export async function accountInScope(ctx: ScopedContext, accountId: string): Promise<Account> {
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
