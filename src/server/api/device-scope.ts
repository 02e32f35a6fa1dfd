import type { SessionUser } from "@/server/auth/sessions";
import type { Account } from "@/server/data/accounts";
import { type Device, findDevice, placeBelongs } from "@/server/data/devices";
import { isWithinOrganization } from "@/server/data/organizations";
import { refuse } from "./refusal";
import { accountInScope, accountLimit, assertOrganizationInScope, refuseLimited } from "./tenancy";
import type { ApiContext } from "./trpc";

type Caller = Pick<ApiContext, "db" | "t"> & { user: SessionUser };

/**
 * Tenancy of radios: a radio belongs to its organization's tree. A uid of another tenant, or
 * none, is NOT_FOUND with the same words, so uids of others reveal nothing. Radios outside
 * every account (the organization's inventory) need manage-devices besides.
 */
export async function deviceInScope(ctx: Caller, uid: string, accountId?: string): Promise<Device> {
  const device = await findDevice(ctx.db, uid);
  if (!device || !(await isWithinOrganization(ctx.db, ctx.user.orgId, device.orgId)))
    return refuse(ctx, "NOT_FOUND", "devices.errors.notFound");
  // Inside an account's registry, a radio of another account (or none) is not there.
  if (accountId !== undefined && device.accountId !== accountId) return refuse(ctx, "NOT_FOUND", "devices.errors.notFound");
  // A token limited to some accounts sees no radio of another account, nor of the inventory.
  const limit = accountLimit(ctx.user);
  if (limit && (!device.accountId || !limit.includes(device.accountId)))
    return refuse(ctx, "NOT_FOUND", "devices.errors.notFound");
  if (!device.accountId && !ctx.user.permissions["manage-devices"]) refuse(ctx, "FORBIDDEN", "errors.protected");
  return device;
}

/** The organization whose inventory a call is about: the one named (in the caller's tree), or the caller's own. */
export async function inventoryOrg(ctx: Caller, orgId: string | undefined): Promise<string> {
  // The inventory is the organization's, above every account: not for an account-limited token.
  if (accountLimit(ctx.user)) refuseLimited(ctx);
  if (!orgId) return ctx.user.orgId;
  await assertOrganizationInScope(ctx, orgId);
  return orgId;
}

/** An account a radio of `orgId` may be assigned to: in scope and of the same organization. */
export async function targetAccount(ctx: Caller, orgId: string, accountId: string): Promise<Account> {
  const account = await accountInScope(ctx, accountId);
  if (account.orgId !== orgId) refuse(ctx, "BAD_REQUEST", "devices.errors.otherOrganization", "accountId");
  return account;
}

type Place = { accountId: string | null; siteId: string | null; locationId: string | null };

/**
 * Where radios of `orgId` may go, checked by every assigning path (one radio, bulk, add): an
 * account of that organization in the caller's tree, a site of that account, a location of
 * that site. Another tenant's id, or a location of another site, is BAD_REQUEST on the field.
 * No account means the inventory: no site, no location.
 */
export async function targetPlace(ctx: Caller, orgId: string, place: Place): Promise<{ account: Account | null; place: Place }> {
  if (!place.accountId) return { account: null, place: { accountId: null, siteId: null, locationId: null } };
  const account = await targetAccount(ctx, orgId, place.accountId);
  if (place.locationId && !place.siteId) refuse(ctx, "BAD_REQUEST", "devices.errors.locationWithoutSite", "locationId");
  if (!(await placeBelongs(ctx.db, account._id, place.siteId, place.locationId))) {
    // The field at fault: the location when its site is the account's (asked only on refusal).
    const siteFits = place.locationId !== null && (await placeBelongs(ctx.db, account._id, place.siteId, null));
    refuse(ctx, "BAD_REQUEST", "devices.errors.placeNotInAccount", siteFits ? "locationId" : "siteId");
  }
  return { account, place: { accountId: account._id, siteId: place.siteId, locationId: place.locationId } };
}
