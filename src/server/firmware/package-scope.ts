import { refuse } from "../api/refusal";
import { accountInScope, accountLimit, refuseLimited } from "../api/tenancy";
import type { ApiContext } from "../api/trpc";
import { type FirmwarePackage, findPackage } from "../data/firmware-packages";
import { isWithinOrganization } from "../data/organizations";

/**
 * Who sees and who changes a firmware package (issue 26). A package is visible from its own
 * organization and every organization below it (a vendor's package reaches its dealers' and
 * customers' accounts, read-only there); it is changed only from its own organization or one
 * above it. Anything else answers NOT_FOUND, like a package that does not exist.
 */
export type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };

/** The organization whose view the caller has: the account's, or the caller's own. */
export async function viewerOrgOf(ctx: Caller, account: string | undefined): Promise<string> {
  if (account) return (await accountInScope(ctx, account)).orgId;
  // The organization's own frame is above an account-limited token's accounts.
  if (accountLimit(ctx.user)) refuseLimited(ctx);
  return ctx.user.orgId;
}

/** Whether the caller may change the package: it belongs to the caller's organization or one below. */
export function manages(ctx: Caller, pkg: Pick<FirmwarePackage, "orgId">): Promise<boolean> {
  return pkg.orgId === ctx.user.orgId ? Promise.resolve(true) : isWithinOrganization(ctx.db, ctx.user.orgId, pkg.orgId);
}

/** The package as seen from the frame: its organization is the viewer's or above it, or (own frame) one the caller manages. */
export async function visiblePackage(ctx: Caller, packageId: string, account: string | undefined): Promise<FirmwarePackage> {
  const viewerOrg = await viewerOrgOf(ctx, account);
  const pkg = await findPackage(ctx.db, packageId);
  const visible =
    pkg !== null &&
    ((await isWithinOrganization(ctx.db, pkg.orgId, viewerOrg)) || (account === undefined && (await manages(ctx, pkg))));
  if (!pkg || !visible) return refuse(ctx, "NOT_FOUND", "firmware.errors.notFound");
  return pkg;
}

/** A package the caller may change; one only visible (a vendor's, seen by its customer) is FORBIDDEN, said in words. */
export async function managedPackage(ctx: Caller, packageId: string, account: string | undefined): Promise<FirmwarePackage> {
  const pkg = await visiblePackage(ctx, packageId, account);
  if (!(await manages(ctx, pkg))) return refuse(ctx, "FORBIDDEN", "firmware.errors.readOnly");
  return pkg;
}
