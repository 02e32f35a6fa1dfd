import { z } from "zod";
import {
  bulkCommandTypes,
  type CommandParams,
  type CommandType,
  commandLimits,
  commandParams,
  commandTypeInput,
  expiryHours,
  priorityOf,
} from "@/schema/fleet/commands";
import { activityStatement } from "@/server/data/activity-logs";
import { insertBatchStatement } from "@/server/data/command-batches";
import {
  batchSizeStatement,
  bulkActivityStatement,
  cancelStatement,
  findCommand,
  insertBulkStatement,
  insertCommandStatement,
  listCommands,
  uidsOfBatch,
  waitingCommands,
} from "@/server/data/commands";
import { countDevices } from "@/server/data/devices";
import { armCommandClock } from "@/server/fleet/command-clock";
import { wakeRadios } from "@/server/fleet/command-push";
import { listFilterInput, resolveFilter } from "../device-inputs";
import { deviceInScope } from "../device-scope";
import { refuse, refuseWith } from "../refusal";
import { type ApiContext, procedureWith, router } from "../trpc";

const id = z.string().min(1).max(64);
const uid = z.string().min(1).max(64);
const commandId = z.string().min(1).max(64);
const HISTORY_MAX = 100;
/** Most radios a bulk send names by selection (a filter has no such limit). */
const SELECTION_MAX = 500;
/** A bulk send counts the radios it matched up to this many (never a full count of a larger fleet). */
const BULK_COUNT_CAP = 100_000;

type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };

/**
 * The radio a command call is about. Viewing needs view-devices-in-accounts inside an account
 * (the account's registry) or manage-devices (the organization's inventory); another tenant's
 * radio, or one outside the named account, is NOT_FOUND.
 */
async function radioInScope(ctx: Caller, input: { uid: string; accountId?: string }) {
  if (!input.accountId && !ctx.user.permissions["manage-devices"]) refuse(ctx, "FORBIDDEN", "errors.protected");
  return deviceInScope(ctx, input.uid, input.accountId);
}

/** The parameters of a type, checked; a refusal names the field (`params.<name>`, or the form). */
function checkedParams(ctx: Caller, type: CommandType, params: Record<string, unknown>): CommandParams {
  const parsed = commandParams[type].safeParse(params);
  if (parsed.success) return parsed.data as CommandParams;
  const issue = parsed.error.issues[0];
  const field = typeof issue?.path[0] === "string" ? issue.path[0] : "form";
  return refuse(ctx, "BAD_REQUEST", issue?.message.startsWith("validation.") ? issue.message : "validation.Invalid", field);
}

function expiryOf(createdAt: Date, hours: number): string {
  return new Date(createdAt.getTime() + hours * 3_600_000).toISOString();
}

const paramsInput = z.record(z.string(), z.union([z.string().max(1000), z.number()])).default({});

const selection = z.union([
  z.object({ uids: z.array(z.string().min(1).max(64)).min(1, "devices.bulk.noneSelected").max(SELECTION_MAX) }),
  z.object({ filter: listFilterInput }),
]);

/** Commands to radios (DESIGN.md §7, issue 13). */
export const commandsRouter = router({
  /** A radio's commands, newest first (keyset), and how many wait in its queue. */
  list: procedureWith("view-devices-in-accounts")
    .input(
      z.object({
        uid,
        accountId: id.optional(),
        after: z.object({ createdAt: z.string().max(40), id: commandId }).optional(),
        limit: z.number().int().min(1).max(HISTORY_MAX).default(25),
      }),
    )
    .query(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const [page, waiting] = await Promise.all([
        listCommands(ctx.db, device.uid, input.after ?? null, input.limit),
        waitingCommands(ctx.db, device.uid),
      ]);
      return {
        device: { uid: device.uid, name: device.name, accountId: device.accountId, status: device.status },
        items: page.items,
        next: page.next,
        waiting: waiting.filter((c) => c.state === "queued" || c.state === "sent").length,
      };
    }),

  /** One command of a radio, every step with its time; polled by the live detail and the connectivity test. */
  get: procedureWith("view-devices-in-accounts")
    .input(z.object({ uid, id: commandId, accountId: id.optional() }))
    .query(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const command = await findCommand(ctx.db, input.id);
      if (!command || command.uid !== device.uid) return refuse(ctx, "NOT_FOUND", "commands.errors.notFound");
      return { command, device: { uid: device.uid, name: device.name, accountId: device.accountId } };
    }),

  /**
   * Queues a command for one radio: its queue takes at most 50 waiting (a clear refusal past
   * that); stun and revive jump ahead; stun needs the radio's uid typed again. The radio is
   * woken at once if it is connected, else it gets the command at its next check-in.
   */
  send: procedureWith("manage-devices")
    .input(
      z.object({
        uid,
        accountId: id.optional(),
        type: commandTypeInput,
        params: paramsInput,
        expiryHours,
        confirmUid: z.string().max(64).optional(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      if (device.status !== "active") refuse(ctx, "PRECONDITION_FAILED", "commands.errors.retired");
      const params = checkedParams(ctx, input.type, input.params);
      if (input.type === "stun" && input.confirmUid?.trim() !== device.uid)
        refuse(ctx, "BAD_REQUEST", "commands.errors.confirmUid", "confirmUid");
      const created = new Date();
      const command = {
        id: crypto.randomUUID(),
        uid: device.uid,
        type: input.type,
        params,
        priority: priorityOf(input.type),
        actor: { id: ctx.user.id, email: ctx.user.email },
        createdAt: created.toISOString(),
        expiresAt: expiryOf(created, input.expiryHours),
      };
      const [inserted] = await ctx.db.batch([
        insertCommandStatement(ctx.db, command),
        activityStatement(ctx.db, {
          orgId: device.orgId,
          accountId: device.accountId,
          actor: ctx.user,
          action: "create",
          entityType: "command",
          entityId: command.id,
          entityLabel: `${input.type} → ${device.uid}`,
          diff: { type: { after: input.type }, radio: { after: device.uid }, params: { after: params } },
          deployable: false,
        }),
      ]);
      if (!inserted?.meta.changes) {
        return refuseWith(ctx, "PRECONDITION_FAILED", "commands.errors.queueFull", { limit: commandLimits.queue });
      }
      await Promise.all([armCommandClock(ctx.env, new Date(command.expiresAt)), wakeRadios(ctx.env, [device.uid])]);
      return { id: command.id, state: "queued" as const, expiresAt: command.expiresAt };
    }),

  /** Cancels a command the radio has not yet taken (queued or sent); once delivered it is CONFLICT. */
  cancel: procedureWith("manage-devices")
    .input(z.object({ uid, id: commandId, accountId: id.optional() }))
    .mutation(async ({ ctx, input }) => {
      const device = await radioInScope(ctx, input);
      const command = await findCommand(ctx.db, input.id);
      if (!command || command.uid !== device.uid) return refuse(ctx, "NOT_FOUND", "commands.errors.notFound");
      const [cancelled] = await ctx.db.batch([
        cancelStatement(ctx.db, { id: command.id, email: ctx.user.email, at: new Date().toISOString() }),
        activityStatement(ctx.db, {
          orgId: device.orgId,
          accountId: device.accountId,
          actor: ctx.user,
          action: "update",
          entityType: "command",
          entityId: command.id,
          entityLabel: `${command.type} → ${device.uid}`,
          diff: { state: { before: command.state, after: "cancelled" } },
          deployable: false,
        }),
      ]);
      if (!cancelled?.meta.changes) refuse(ctx, "CONFLICT", "commands.errors.notCancellable");
      return { id: command.id, state: "cancelled" as const };
    }),

  /**
   * One command to many radios (the inventory's selection, or everything matching its filter):
   * the rows are made server-side in one statement and logged in another, whatever the number
   * of radios; connected radios are woken with one message per shard. Radios whose queue is
   * full are skipped and counted. Stun is not offered in bulk.
   */
  sendBulk: procedureWith("manage-devices")
    .input(
      z.object({
        orgId: id.optional(),
        accountId: id.optional(),
        selection,
        type: z.enum(bulkCommandTypes as [CommandType, ...CommandType[]]),
        params: paramsInput,
        expiryHours,
      }),
    )
    .mutation(async ({ ctx, input }) => {
      if (input.type === "stun") refuse(ctx, "BAD_REQUEST", "commands.errors.noBulkStun", "type");
      const base = await resolveFilter(
        ctx,
        input,
        "filter" in input.selection ? input.selection.filter : listFilterInput.parse({}),
      );
      const filter = "uids" in input.selection ? { ...base, uids: input.selection.uids } : base;
      const params = checkedParams(ctx, input.type, input.params);
      const matched = await countDevices(ctx.db, filter, BULK_COUNT_CAP);
      if (matched === 0) refuse(ctx, "BAD_REQUEST", "devices.bulk.noneMatch");
      const created = new Date();
      const batchId = crypto.randomUUID();
      const expiresAt = expiryOf(created, input.expiryHours);
      const actor = { id: ctx.user.id, email: ctx.user.email };
      const [, , , counted] = await ctx.db.batch([
        insertBatchStatement(ctx.db, {
          id: batchId,
          orgId: base.orgId,
          accountId: base.scopeAccountId,
          type: input.type,
          params,
          target: "uids" in input.selection ? { uids: input.selection.uids.length } : { filter: input.selection.filter },
          retryOf: null,
          actor,
          createdAt: created.toISOString(),
          expiresAt,
        }),
        insertBulkStatement(ctx.db, filter, {
          type: input.type,
          params,
          priority: priorityOf(input.type),
          actor,
          createdAt: created.toISOString(),
          expiresAt,
          batchId,
        }),
        bulkActivityStatement(ctx.db, batchId, actor, created.toISOString()),
        // meta.changes counts trigger rows too (the report roll-ups): the batch counts itself.
        batchSizeStatement(ctx.db, batchId),
      ]);
      const queued = Number((counted?.results[0] as { n?: number } | undefined)?.n ?? 0);
      if (queued > 0) {
        const uids = await uidsOfBatch(ctx.db, batchId);
        await Promise.all([armCommandClock(ctx.env, new Date(expiresAt)), wakeRadios(ctx.env, uids)]);
      }
      return { batchId, queued, skipped: Math.max(0, matched - queued) };
    }),
});
