import { z } from "zod";
import { HAND_OVER_MAX, handOverAddress } from "@/schema/fleet/hand-over";
import { deviceUpdateStatement } from "@/server/data/activity-logs";
import { cancelRedirectStatement, findRedirect, requestRedirectStatement } from "@/server/data/device-redirects";
import { wakeRadios } from "@/server/fleet/command-push";
import { deviceInScope } from "../device-scope";
import { refuse } from "../refusal";
import { type ApiContext, procedureWith, router } from "../trpc";

const uid = z.string().min(1).max(64);
const accountId = z.string().min(1).max(64).optional();

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/**
 * The radio a hand-over call is about: inside an account's registry (view-devices-in-accounts
 * reads there) or the organization's inventory (manage-devices); another tenant's radio, or one
 * outside the named account, is NOT_FOUND.
 */
function radioInScope(ctx: Caller, input: { uid: string; accountId?: string }) {
  if (!input.accountId && !ctx.user.permissions["manage-devices"]) refuse(ctx, "FORBIDDEN", "errors.protected");
  return deviceInScope(ctx, input.uid, input.accountId);
}

/** Hand-over of a radio to another management server (DESIGN §7, issue 23). */
export const deviceRedirectsRouter = router({
  /** The radio's hand-over: none, waiting for the radio (and whether it checked in since), or confirmed. */
  get: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid, accountId }))
    .query(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const redirect = await findRedirect(ctx.db, device.uid);
      return {
        redirect,
        device: { uid: device.uid, name: device.name, status: device.status, lastSeenAt: device.lastSeenAt },
      };
    }),

  /**
   * Chooses the address (https only): the radio is told at its next check-in (a connected one is
   * woken to check in at once). Replaces an unconfirmed address; refused once the radio confirmed.
   */
  request: procedureWith("manage-devices")
    .input(z.object({ uid, accountId, url: z.string().max(HAND_OVER_MAX * 2) }))
    .mutation(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const address = handOverAddress(input.url);
      if ("error" in address) return refuse(ctx, "BAD_REQUEST", address.error, "url");
      if (device.status !== "active") refuse(ctx, "PRECONDITION_FAILED", "devices.errors.retired");
      const before = await findRedirect(ctx.db, device.uid);
      if (before?.confirmedAt) refuse(ctx, "CONFLICT", "devices.handOver.errors.confirmed");
      const at = new Date().toISOString();
      const [changed] = await ctx.db.batch([
        requestRedirectStatement(ctx.db, device.uid, address.url, at),
        deviceUpdateStatement(ctx.db, device, ctx.user, { handOver: { before: before?.url ?? null, after: address.url } }),
      ]);
      // The radio confirmed between the read and the write.
      if (!changed?.meta.changes) refuse(ctx, "CONFLICT", "devices.handOver.errors.confirmed");
      await wakeRadios(ctx.env, [device.uid]);
      return { url: address.url, requestedAt: at };
    }),

  /** Withdraws the hand-over while the radio has not confirmed it; afterwards CONFLICT, with words. */
  cancel: procedureWith("manage-devices")
    .input(z.object({ uid, accountId }))
    .mutation(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const before = await findRedirect(ctx.db, device.uid);
      if (!before) return refuse(ctx, "CONFLICT", "devices.handOver.errors.none");
      if (before.confirmedAt) return refuse(ctx, "CONFLICT", "devices.handOver.errors.confirmed");
      const [changed] = await ctx.db.batch([
        cancelRedirectStatement(ctx.db, device.uid),
        deviceUpdateStatement(ctx.db, device, ctx.user, { handOver: { before: before.url, after: null } }),
      ]);
      if (!changed?.meta.changes) refuse(ctx, "CONFLICT", "devices.handOver.errors.confirmed");
      return { cancelled: true as const };
    }),
});
