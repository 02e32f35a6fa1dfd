import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { requiredText } from "@/schema/field-messages";
import { approvalSettingSchema } from "@/schema/fleet/approval";
import { networkConfigInput, viewOf } from "@/schema/network-config";
import { searchText } from "@/schema/text";
import type { D1PreparedStatement } from "@/server/cloudflare";
import {
  type Account,
  accountSortArity,
  deleteAccountStatement,
  findAccountNetworkConfig,
  insertAccountStatement,
  listAccountNames,
  listAccounts,
  updateAccountNetworkConfigStatement,
  updateAccountStatement,
  updateRetentionStatement,
} from "@/server/data/accounts";
import { activityStatement, diffOf } from "@/server/data/activity-logs";
import { RETENTION_MAX_MONTHS, RETENTION_MIN_MONTHS } from "@/server/data/archives";
import { updateApprovalSettingStatement } from "@/server/data/deployment-approval";
import { unassignAccountDevicesStatement } from "@/server/data/devices";
import { deleteAccountDeskStatements } from "@/server/data/fc-desk";
import { deleteAccountArchives } from "@/server/retention/delete-account-archives";
import { cursorOf, pageInput } from "../list-input";
import { assertWritten } from "../network-levels";
import { listed, saveNetworkOverrides } from "../place-changes";
import { accountInScope, accountLimit, assertOrganizationInScope, type ScopedContext } from "../tenancy";
import { procedureWith, router, signedInProcedure } from "../trpc";
import { accountSummaryProcedures } from "./account-summary";
import { limitedAccounts } from "./limited-accounts";

const id = z.string().min(1).max(64);
const name = requiredText("accountName", 120);
const level = z.enum(["essential", "advanced"]);
const timezone = z
  .string()
  .min(1)
  .max(64)
  .refine((tz) => {
    try {
      new Intl.DateTimeFormat("en", { timeZone: tz });
      return true;
    } catch {
      return false;
    }
  }, "validation.TimezoneInvalid");

function general(account: Pick<Account, "name" | "subscriptionLevel" | "timezone">) {
  return { name: account.name, subscriptionLevel: account.subscriptionLevel, timezone: account.timezone };
}

/**
 * Writes one change of the account's own row with its activity entry in one batch; a stale
 * version writes nothing and is a conflict. Answers the account as it is now.
 */
async function saveAccountChange(
  ctx: ScopedContext,
  before: Account,
  write: D1PreparedStatement,
  label: string,
  diff: ReturnType<typeof diffOf>,
) {
  const [result] = await ctx.db.batch([
    write,
    activityStatement(ctx.db, {
      orgId: before.orgId,
      accountId: before._id,
      actor: ctx.user,
      action: "update",
      entityType: "account",
      entityId: before._id,
      entityLabel: label,
      diff,
      deployable: false,
    }),
  ]);
  assertWritten(result, ctx.t);
  return listed(await accountInScope(ctx, before._id));
}

export const accountsRouter = router({
  ...accountSummaryProcedures,

  /**
   * One page of the accounts of an organization's tree. Paging is by cursor: `after`/`before`
   * are the `next`/`previous` of an earlier answer; `total` stops counting at 1,000 (`more`).
   */
  list: signedInProcedure
    .input(
      z.object({
        orgId: id,
        search: searchText.default(""),
        sort: z.enum(["name", "-name", "updated", "-updated", "level", "-level"]).default("name"),
        ...pageInput,
      }),
    )
    .query(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId, { listsAccounts: true });
      const limit = accountLimit(ctx.user);
      if (limit) return { ...(await limitedAccounts(ctx, limit, input)), pageSize: input.pageSize };
      const page = await listAccounts(ctx.db, {
        orgId: input.orgId,
        search: input.search,
        sort: input.sort,
        limit: input.pageSize,
        cursor: cursorOf(input, accountSortArity(input.sort)),
      });
      return { ...page, items: page.items.map(listed), pageSize: input.pageSize };
    }),

  details: signedInProcedure.input(z.object({ id })).query(async ({ ctx, input }) => listed(await accountInScope(ctx, input.id))),

  /** The light list the account switcher searches, across the caller's whole organization tree. */
  publicList: signedInProcedure
    .input(
      z
        .object({ search: searchText.default(""), limit: z.number().int().min(1).max(50).default(20) })
        .default({ search: "", limit: 20 }),
    )
    .query(async ({ ctx, input }) => {
      const rows = await listAccountNames(ctx.db, { rootOrgId: ctx.user.orgId, search: input.search, limit: input.limit });
      return rows.map((row) => ({ value: row.id, label: row.name }));
    }),

  add: procedureWith("edit-accounts")
    .input(z.object({ orgId: id, name, subscriptionLevel: level.default("essential"), timezone: timezone.default("UTC") }))
    .mutation(async ({ ctx, input }) => {
      await assertOrganizationInScope(ctx, input.orgId);
      const { id: accountId, statement } = insertAccountStatement(ctx.db, input);
      await ctx.db.batch([
        statement,
        activityStatement(ctx.db, {
          orgId: input.orgId,
          accountId,
          actor: ctx.user,
          action: "create",
          entityType: "account",
          entityId: accountId,
          entityLabel: input.name,
          diff: diffOf(null, general(input)),
          deployable: false,
        }),
      ]);
      return listed(await accountInScope(ctx, accountId));
    }),

  update: procedureWith("edit-configurations")
    .input(z.object({ id, version: z.number().int().min(1), name, subscriptionLevel: level, timezone }))
    .mutation(async ({ ctx, input }) => {
      const before = await accountInScope(ctx, input.id);
      return saveAccountChange(
        ctx,
        before,
        updateAccountStatement(ctx.db, input),
        input.name,
        diffOf(general(before), general(input)),
      );
    }),

  /** How many months the account's activity, commands and deployment outcomes stay in D1 before moving to R2. */
  setRetention: procedureWith("edit-configurations")
    .input(
      z.object({
        id,
        version: z.number().int().min(1),
        months: z
          .number("validation.RetentionMonths")
          .int("validation.RetentionMonths")
          .min(RETENTION_MIN_MONTHS, "validation.RetentionMonths")
          .max(RETENTION_MAX_MONTHS, "validation.RetentionMonths"),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const before = await accountInScope(ctx, input.id);
      const diff = diffOf({ retentionMonths: before.retentionMonths }, { retentionMonths: input.months });
      return saveAccountChange(ctx, before, updateRetentionStatement(ctx.db, input), before.name, diff);
    }),

  /** Whether each deployment of the account waits for a second person's approval, and for how long at most. */
  setApproval: procedureWith("edit-configurations")
    .input(z.object({ id, version: z.number().int().min(1) }).extend(approvalSettingSchema.shape))
    .mutation(async ({ ctx, input }) => {
      const before = await accountInScope(ctx, input.id);
      const diff = diffOf(
        { approvalRequired: before.approvalRequired, approvalExpiryHours: before.approvalExpiryHours },
        { approvalRequired: input.required, approvalExpiryHours: input.expiryHours },
      );
      return saveAccountChange(ctx, before, updateApprovalSettingStatement(ctx.db, input), before.name, diff);
    }),

  /** Deleting asks the caller to type the account's name (the screen's confirmation). */
  delete: procedureWith("edit-accounts")
    .input(z.object({ id, version: z.number().int().min(1), confirmName: z.string() }))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.id);
      if (input.confirmName.trim() !== account.name) {
        throw new TRPCError({ code: "PRECONDITION_FAILED", message: String(ctx.t("validation.ConfirmNameMismatch")) });
      }
      // Its radios go back to the organization's inventory first, in the same batch: their seats
      // are freed before the allocations go (whose trigger refuses to drop seats in use). Its
      // desk data (sessions, customers, settings) goes with it, as its other data does.
      const desk = deleteAccountDeskStatements(ctx.db, account._id, input.version);
      const [, ...rest] = await ctx.db.batch([
        unassignAccountDevicesStatement(ctx.db, account._id, input.version),
        ...desk,
        deleteAccountStatement(ctx.db, account._id, input.version),
        activityStatement(ctx.db, {
          orgId: account.orgId,
          accountId: account._id,
          actor: ctx.user,
          action: "delete",
          entityType: "account",
          entityId: account._id,
          entityLabel: account.name,
          diff: diffOf(general(account), null),
          deployable: false,
        }),
      ]);
      assertWritten(rest[desk.length], ctx.t);
      // Its archive entries went by cascade; the objects go now. A failure leaves unreadable
      // objects behind, never a refused deletion.
      if (ctx.env.ARCHIVE) {
        await deleteAccountArchives(ctx.env.ARCHIVE, account.orgId, account._id).catch((error: unknown) =>
          console.error(`deleting the archives of account ${account._id} failed`, error),
        );
      }
      return { ok: true as const };
    }),

  /** The account's own network settings; secrets come back only as "set" flags. */
  networkConfig: procedureWith("edit-network-config")
    .input(z.object({ id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.id);
      return { version: account.version, config: viewOf(await findAccountNetworkConfig(ctx.db, account._id)) };
    }),

  updateNetworkConfig: procedureWith("edit-network-config")
    .input(z.object({ id, version: z.number().int().min(1), config: networkConfigInput }))
    .mutation(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.id);
      return saveNetworkOverrides(ctx, account, {
        entity: { type: "network-config", id: account._id, label: account.name },
        version: input.version,
        previous: await findAccountNetworkConfig(ctx.db, account._id),
        config: input.config,
        update: (config) => updateAccountNetworkConfigStatement(ctx.db, { id: account._id, version: input.version, config }),
      });
    }),
});
