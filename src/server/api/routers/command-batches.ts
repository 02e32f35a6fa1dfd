import { z } from "zod";
import { type CommandType, priorityOf } from "@/schema/fleet/commands";
import {
  batchCounts,
  batchRadios,
  batchStates,
  type CommandBatch,
  cancelBatchActivityStatement,
  cancelBatchStatement,
  findBatch,
  insertBatchStatement,
  insertRetryStatement,
  listBatches,
} from "@/server/data/command-batches";
import { bulkActivityStatement, uidsOfBatch } from "@/server/data/commands";
import { endBatchIfDone } from "@/server/fleet/batch-end";
import { armCommandClock } from "@/server/fleet/command-clock";
import { wakeRadios } from "@/server/fleet/command-push";
import { inventoryOrg } from "../device-scope";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";

const id = z.string().min(1).max(64);
const PAGE_MAX = 100;
/** A retry keeps the original's lifetime (its expiry minus its creation). */
const lifetimeOf = (b: CommandBatch) => new Date(b.expiresAt).getTime() - new Date(b.createdAt).getTime();

type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };
const scopeInput = { accountId: id.optional(), orgId: id.optional() };

/**
 * The batch a call names, inside the caller's scope: an account's batch through that account's
 * registry, an inventory batch (no account) through the organization with manage-devices.
 * Another tenant's or another account's batch is NOT_FOUND.
 */
async function batchInScope(ctx: Caller, input: { batchId: string; accountId?: string; orgId?: string }) {
  const batch = await findBatch(ctx.db, input.batchId);
  if (input.accountId) {
    const account = await accountInScope(ctx, input.accountId);
    if (!batch || batch.accountId !== account._id) return refuse(ctx, "NOT_FOUND", "commands.batches.errors.notFound");
    return batch;
  }
  if (!ctx.user.permissions["manage-devices"]) return refuse(ctx, "FORBIDDEN", "errors.protected");
  const orgId = await inventoryOrg(ctx, input.orgId);
  if (!batch || batch.orgId !== orgId || batch.accountId !== null)
    return refuse(ctx, "NOT_FOUND", "commands.batches.errors.notFound");
  return batch;
}

/** Bulk command batches (issue 25): the batch page, its counts, cancel and retry of the failed. */
export const commandBatchesRouter = router({
  /** The batches of an account's registry (or of the organization's inventory), newest first. */
  list: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        ...scopeInput,
        after: z.object({ createdAt: z.string().max(40), id }).optional(),
        limit: z.number().int().min(1).max(PAGE_MAX).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      let scope: { orgId: string; accountId: string | null };
      if (input.accountId) {
        const account = await accountInScope(ctx, input.accountId);
        scope = { orgId: account.orgId, accountId: account._id };
      } else {
        if (!ctx.user.permissions["manage-devices"]) refuse(ctx, "FORBIDDEN", "errors.protected");
        scope = { orgId: await inventoryOrg(ctx, input.orgId), accountId: null };
      }
      return listBatches(ctx.db, scope, input.after ?? null, input.limit);
    }),

  /** One batch with its counts per state (polled by the page's live counts). */
  get: procedureWith("view-devices-in-accounts")
    .input(z.object({ ...scopeInput, batchId: id }))
    .query(async ({ ctx, input }) => {
      const batch = await batchInScope(ctx, input);
      return { batch, counts: await batchCounts(ctx.db, batch.id) };
    }),

  /** The radios of one state of a batch, by uid (keyset). */
  radios: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        ...scopeInput,
        batchId: id,
        state: z.enum(batchStates),
        after: z.string().min(1).max(64).optional(),
        limit: z.number().int().min(1).max(PAGE_MAX).default(50),
      }),
    )
    .query(async ({ ctx, input }) => {
      const batch = await batchInScope(ctx, input);
      return batchRadios(ctx.db, batch.id, input.state, input.after ?? null, input.limit);
    }),

  /**
   * Cancels what the radios have not taken yet (queued or sent), in one statement whatever the
   * batch's size, and logs it once for the batch; delivered and ended commands are left alone.
   */
  cancel: procedureWith("manage-devices")
    .input(z.object({ ...scopeInput, batchId: id }))
    .mutation(async ({ ctx, input }) => {
      const batch = await batchInScope(ctx, input);
      const at = new Date().toISOString();
      const actor = { id: ctx.user.id, email: ctx.user.email };
      await ctx.db.batch([
        cancelBatchStatement(ctx.db, { batchId: batch.id, email: ctx.user.email, at }),
        cancelBatchActivityStatement(ctx.db, batch, actor, at),
      ]);
      // Cancelling what was left may be what ends the batch (and it may have failures to tell).
      await endBatchIfDone(ctx.env, batch.id);
      return { batchId: batch.id, counts: await batchCounts(ctx.db, batch.id) };
    }),

  /**
   * Retries the failed: a new batch of the same command to the radios whose command failed or
   * expired (active ones with room in their queue), linked back to the original.
   */
  retry: procedureWith("manage-devices")
    .input(z.object({ ...scopeInput, batchId: id }))
    .mutation(async ({ ctx, input }) => {
      const original = await batchInScope(ctx, input);
      const failed = await batchCounts(ctx.db, original.id);
      if (failed.failed + failed.expired === 0) refuse(ctx, "BAD_REQUEST", "commands.batches.errors.nothingToRetry");
      const created = new Date();
      const batchId = crypto.randomUUID();
      const expiresAt = new Date(created.getTime() + lifetimeOf(original)).toISOString();
      const actor = { id: ctx.user.id, email: ctx.user.email };
      await ctx.db.batch([
        insertBatchStatement(ctx.db, {
          id: batchId,
          orgId: original.orgId,
          accountId: original.accountId,
          type: original.type,
          params: original.params,
          target: { retryOf: original.id },
          retryOf: original.id,
          actor,
          createdAt: created.toISOString(),
          expiresAt,
        }),
        insertRetryStatement(ctx.db, original, {
          batchId,
          priority: priorityOf(original.type as CommandType),
          actor,
          createdAt: created.toISOString(),
          expiresAt,
        }),
        bulkActivityStatement(ctx.db, batchId, actor, created.toISOString()),
      ]);
      const counts = await batchCounts(ctx.db, batchId);
      if (counts.total > 0) {
        const uids = await uidsOfBatch(ctx.db, batchId);
        await Promise.all([armCommandClock(ctx.env, new Date(expiresAt)), wakeRadios(ctx.env, uids)]);
      }
      return { batchId, retryOf: original.id, queued: counts.total };
    }),
});
