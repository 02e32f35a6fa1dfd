import { z } from "zod";
import { requiredText } from "@/schema/field-messages";
import { type GroupFilter, groupFilterSchema } from "@/schema/fleet/target";
import type { D1Result } from "@/server/cloudflare";
import type { Account } from "@/server/data/accounts";
import { bumpFleetVersionStatement } from "@/server/data/fleet-versions";
import {
  createGroupStatements,
  deleteGroupStatements,
  findGroup,
  groupNameTaken,
  listGroups,
  type RadioGroup,
  updateGroupStatements,
} from "@/server/data/radio-groups";
import { countTarget, resolveTarget } from "@/server/data/targets";
import { assertWritten, isConstraintError } from "../network-levels";
import { refuse } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith, router } from "../trpc";

/**
 * Saved groups (issue 25): a named filter over an account's radios with its live count. Reading
 * needs view-devices-in-accounts, changing manage-devices. Deployments may target a group, so an
 * edit or a delete moves the account's fleet version in the same batch.
 */
const id = z.string().min(1).max(64);
const version = z.number().int().min(1);
const name = requiredText("groupName", 80);
/** The conditions flat beside the name, so a refusal names the form field it concerns. */
const conditions = groupFilterSchema.shape;

type Caller = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

const scopeOf = (ctx: Caller, account: Account) => ({
  orgId: account.orgId,
  accountId: account._id,
  actor: { id: ctx.user.id, email: ctx.user.email },
});

function filterOf(input: GroupFilter): GroupFilter {
  const filter: GroupFilter = {};
  for (const key of ["siteId", "locationId", "model", "firmware", "tag", "sync"] as const)
    if (input[key] !== undefined) Object.assign(filter, { [key]: input[key] });
  return filter;
}

/** How many of the account's active radios the group holds now (its ids were the account's when saved). */
function liveCount(ctx: Caller, account: Account, group: RadioGroup): Promise<number> {
  return countTarget(ctx.db, account._id, { kind: "filter", filters: [group.filter] });
}

/** The conditions' site and location checked to be this account's (the location of that site). */
async function assertPlaces(ctx: Caller, account: Account, filter: GroupFilter) {
  const resolved = await resolveTarget(ctx.db, account._id, { kind: "filter", filter });
  if (resolved.ok) return;
  const { field } = resolved.refusal;
  refuse(
    ctx,
    "BAD_REQUEST",
    field === "locationId" ? "radioGroups.errors.locationNotInSite" : "radioGroups.errors.siteNotInAccount",
    field,
  );
}

async function assertNameFree(ctx: Caller, account: Account, groupName: string, exceptId: string | null = null) {
  if (await groupNameTaken(ctx.db, account._id, groupName, exceptId))
    refuse(ctx, "CONFLICT", "radioGroups.errors.nameTaken", "name");
}

async function groupInScope(ctx: Caller, accountId: string, groupId: string) {
  const account = await accountInScope(ctx, accountId);
  const group = await findGroup(ctx.db, account._id, groupId);
  if (!group) return refuse(ctx, "NOT_FOUND", "radioGroups.errors.notFound");
  return { account, group };
}

async function written<T>(ctx: Caller, write: () => Promise<T>): Promise<T> {
  try {
    return await write();
  } catch (error) {
    // Someone took the name between the check and the write.
    if (isConstraintError(error, "UNIQUE")) refuse(ctx, "CONFLICT", "radioGroups.errors.nameTaken", "name");
    throw error;
  }
}

export const radioGroupsRouter = router({
  /** The account's groups by name, each with its live count. */
  list: procedureWith("view-devices-in-accounts")
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const groups = await listGroups(ctx.db, account._id);
      const counts = await Promise.all(groups.map((group) => liveCount(ctx, account, group)));
      return { items: groups.map((group, i) => ({ ...group, count: counts[i] ?? 0 })) };
    }),

  /** One group of the account with its live count; another account's id is NOT_FOUND. */
  get: procedureWith("view-devices-in-accounts")
    .input(z.object({ accountId: id, groupId: id }))
    .query(async ({ ctx, input }) => {
      const { account, group } = await groupInScope(ctx, input.accountId, input.groupId);
      return { ...group, count: await liveCount(ctx, account, group) };
    }),

  create: procedureWith("manage-devices")
    .input(z.object({ accountId: id, name, ...conditions }).strict())
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      const filter = filterOf(input);
      await assertPlaces(ctx, account, filter);
      await assertNameFree(ctx, account, input.name);
      const created = createGroupStatements(ctx.db, scopeOf(ctx, account), { name: input.name, filter });
      await written(ctx, () => ctx.db.batch(created.statements));
      const group = await findGroup(ctx.db, account._id, created.id);
      if (!group) return refuse(ctx, "NOT_FOUND", "radioGroups.errors.notFound");
      return { ...group, count: await liveCount(ctx, account, group) };
    }),

  /** Replaces the name and conditions at the version shown; a stale edit is CONFLICT and writes nothing. */
  update: procedureWith("manage-devices")
    .input(z.object({ accountId: id, groupId: id, version, name, ...conditions }).strict())
    .mutation(async ({ ctx, input }) => {
      const { account, group } = await groupInScope(ctx, input.accountId, input.groupId);
      const filter = filterOf(input);
      await assertPlaces(ctx, account, filter);
      await assertNameFree(ctx, account, input.name, group.id);
      const [result] = await written<D1Result[]>(ctx, () =>
        ctx.db.batch([
          ...updateGroupStatements(
            ctx.db,
            scopeOf(ctx, account),
            { ...group, version: input.version },
            { name: input.name, filter },
          ),
          bumpFleetVersionStatement(ctx.db, account._id),
        ]),
      );
      assertWritten(result, ctx.t);
      const saved = await findGroup(ctx.db, account._id, group.id);
      if (!saved) return refuse(ctx, "NOT_FOUND", "radioGroups.errors.notFound");
      return { ...saved, count: await liveCount(ctx, account, saved) };
    }),

  /** Deletes the group at the version shown (stale: CONFLICT, nothing written). */
  delete: procedureWith("manage-devices")
    .input(z.object({ accountId: id, groupId: id, version }))
    .mutation(async ({ ctx, input }) => {
      const { account, group } = await groupInScope(ctx, input.accountId, input.groupId);
      const [result] = await ctx.db.batch([
        ...deleteGroupStatements(ctx.db, scopeOf(ctx, account), { ...group, version: input.version }),
        bumpFleetVersionStatement(ctx.db, account._id),
      ]);
      assertWritten(result, ctx.t);
      return { groupId: group.id, name: group.name };
    }),
});
