import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { contactStates, syncStates } from "@/schema/fleet/sync-state";
import { base64url, sha256Hex } from "@/server/auth/crypto";
import { type DeviceCursor, seenFilters } from "@/server/data/devices";
import { syncSqlFor } from "@/server/data/fleet-sync";
import { resolveSettings } from "@/server/settings";
import { inventoryOrg } from "./device-scope";
import { refuse } from "./refusal";
import { accountInScope } from "./tenancy";
import type { ApiContext } from "./trpc";

/** What the devices procedures share: list filters, cursors, secrets, the brand filter. */
const id = z.string().min(1).max(64);

type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };

/** A new device secret: 256 random bits, shown once; only its SHA-256 (hex) is stored (DESIGN.md §7). */
export async function newDeviceSecret(): Promise<{ secret: string; hash: string }> {
  let secret: string;
  // Never starting with "-" (1 in 64 would): a spreadsheet would run the secret's cell as a formula, or show it behind an apostrophe.
  do secret = base64url(crypto.getRandomValues(new Uint8Array(32)));
  while (secret.startsWith("-"));
  return { secret, hash: await sha256Hex(secret) };
}

export function encodeCursor(cursor: DeviceCursor | null): string | null {
  return cursor ? base64url(new TextEncoder().encode(JSON.stringify([cursor.value, cursor.uid]))) : null;
}

export function decodeCursor(ctx: Pick<ApiContext, "t">, text: string | undefined): DeviceCursor | null {
  if (!text) return null;
  try {
    const json = new TextDecoder().decode(
      Uint8Array.from(atob(text.replaceAll("-", "+").replaceAll("_", "/")), (c) => c.charCodeAt(0)),
    );
    const [value, uid] = JSON.parse(json) as unknown[];
    if (typeof value === "string" && typeof uid === "string") return { value, uid };
  } catch {
    // fall through to the refusal
  }
  return refuse(ctx, "BAD_REQUEST", "errors.cursorInvalid");
}

/** The list filters (spec: account, site, model, firmware, assignment, last seen, search). */
export const listFilterInput = z.object({
  search: z.string().max(120).default(""),
  account: z.string().max(64).optional(),
  siteId: id.optional(),
  model: z.string().max(60).optional(),
  firmware: z.string().max(40).optional(),
  assignment: z.enum(["assigned", "unassigned"]).optional(),
  seen: z.enum(seenFilters).optional(),
  /** Sync state (schema/fleet/sync-state.ts): one account's list only (an account scope, or one account chosen). */
  sync: z.enum(syncStates).optional(),
  contact: z.enum(contactStates).optional(),
  status: z.enum(["active", "retired"]).default("active"),
});
export type ListFilterInput = z.input<typeof listFilterInput>;

/**
 * The brand a new radio gets when none is given: the vendor's brand as its name spells it
 * ("Northwind" of "Northwind Radio") when that is the filter, else the filter itself.
 */
export function defaultBrand(ctx: Pick<ApiContext, "env">): string {
  const settings = resolveSettings(ctx.env);
  const word = settings.brandName.split(" ")[0] ?? "";
  return word.toLowerCase() === settings.deviceBrandFilter.toLowerCase() ? word : settings.deviceBrandFilter;
}

/** The brand filter in force (spec §1): radios of other brands are not listed. */
export function brandFilter(ctx: Pick<ApiContext, "env">): string {
  return resolveSettings(ctx.env).deviceBrandFilter;
}

/**
 * A scope and filter as the data layer takes it; an account scope checks the account, an
 * organization scope needs manage-devices. `withStates` reads the account's sync expressions
 * even when no sync filter asks for them (a list that shows each radio's state).
 */
export async function resolveFilter(
  ctx: Caller,
  scope: { orgId?: string; accountId?: string },
  filter: z.output<typeof listFilterInput>,
  withStates = false,
) {
  let orgId: string;
  let scopeAccountId: string | null = null;
  if (scope.accountId) {
    const account = await accountInScope(ctx, scope.accountId);
    orgId = account.orgId;
    scopeAccountId = account._id;
  } else {
    if (!ctx.user.permissions["manage-devices"]) refuse(ctx, "FORBIDDEN", "errors.protected");
    orgId = await inventoryOrg(ctx, scope.orgId);
  }
  // Sync states are one account's (its deployments decide them): the registry's account, or the
  // one account chosen in the organization's inventory.
  const listed = filter.sync || withStates ? (scopeAccountId ?? (await chosenAccount(ctx, orgId, filter.account))) : null;
  // The deployments that decide them (the list's desired revisions too), read once.
  const read = listed ? await syncSqlFor(ctx.db, listed, "d", new Date()) : null;
  const deployments = read?.deployments ?? [];
  const states = read?.states ?? null;
  if (filter.sync && !states) refuse(ctx, "BAD_REQUEST", "devices.errors.syncNeedsAccount", "sync");
  return { ...filter, orgId, scopeAccountId, brand: brandFilter(ctx), states, deployments };
}

/** The account an organization-wide filter names, when it is one of that organization's (else null: no sync states). */
async function chosenAccount(ctx: Caller, orgId: string, accountId: string | undefined): Promise<string | null> {
  if (!accountId || accountId === "none") return null;
  try {
    const account = await accountInScope(ctx, accountId);
    return account.orgId === orgId ? account._id : null;
  } catch (error) {
    if (error instanceof TRPCError && error.code === "NOT_FOUND") return null;
    throw error;
  }
}
