import { z } from "zod";
import { deviceTag, IMPORT_BODY_MAX_BYTES } from "@/schema/devices";
import {
  accountSeats,
  bulkActivityStatement,
  bulkAssignStatements,
  bulkTagStatements,
  countDevices,
  type DeviceFilter,
  existingUids,
  importPlaces,
  importStatements,
  tagChangeWhere,
  uidsLeavingAccount,
} from "@/server/data/devices";
import { checkImportFile, checkSeats, type ImportProblem, splitExisting } from "@/server/devices/csv-import";
import { textSource } from "@/server/devices/csv-records";
import { closeRadios } from "@/server/fleet/live";
import { brandFilter, defaultBrand, listFilterInput, newDeviceSecret, resolveFilter } from "../device-inputs";
import { inventoryOrg, targetPlace } from "../device-scope";
import { refuse, refuseWith } from "../refusal";
import { accountInScope } from "../tenancy";
import { type ApiContext, procedureWith } from "../trpc";

const id = z.string().min(1).max(64);

type Caller = Pick<ApiContext, "db" | "t" | "env"> & { user: NonNullable<ApiContext["user"]> };

/** Most radios one bulk action on a selection names (a filter has no such limit). */
export const BULK_SELECTION_MAX = 500;

const selection = z.union([
  z.object({ uids: z.array(z.string().min(1).max(64)).min(1, "devices.bulk.noneSelected").max(BULK_SELECTION_MAX) }),
  z.object({ filter: listFilterInput }),
]);

async function bulkFilter(
  ctx: Caller,
  scope: { orgId?: string; accountId?: string },
  chosen: z.output<typeof selection>,
): Promise<DeviceFilter> {
  const base = await resolveFilter(ctx, scope, "filter" in chosen ? chosen.filter : listFilterInput.parse({}));
  return "uids" in chosen ? { ...base, uids: chosen.uids } : base;
}

/** Bulk actions and the CSV import, spread into the devices router. */
export const deviceBulkProcedures = {
  /**
   * Assigns every chosen radio (a selection, or all matching a filter) to an account, site and
   * location, or back to the inventory: one guarded statement, all or none.
   */
  bulkAssign: procedureWith("manage-devices")
    .input(
      z.object({
        orgId: id.optional(),
        accountId: id.optional(),
        selection,
        target: z.object({
          accountId: id.nullable(),
          siteId: id.nullable().default(null),
          locationId: id.nullable().default(null),
        }),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const filter = await bulkFilter(ctx, input, input.selection);
      const { place: target } = await targetPlace(ctx, filter.orgId, input.target);
      const count = await countDevices(ctx.db, filter, 1_000_000);
      if (count === 0) refuse(ctx, "BAD_REQUEST", "devices.bulk.noneMatch");
      // Radios changing account: their live sockets (tagged with the old account) close after the move.
      const leaving = await uidsLeavingAccount(ctx.db, filter, target.accountId);
      let results: Awaited<ReturnType<typeof ctx.db.batch>>;
      try {
        results = await ctx.db.batch(
          bulkAssignStatements(ctx.db, filter, target, {
            actor: ctx.user,
            diff: {
              account: { after: target.accountId },
              site: { after: target.siteId },
              location: { after: target.locationId },
            },
          }),
        );
      } catch (error) {
        if (String(error).includes("seats exhausted") && target.accountId) return refuseBulkSeats(ctx, target.accountId, count);
        throw error;
      }
      // meta.changes counts trigger rows too: whether anything moved, yes; how many, no. The
      // statement is guarded as a whole, so when it ran every matching radio moved.
      if (!results[1]?.meta.changes && target.accountId) {
        // Nothing moved: the place changed meanwhile (refused on its field), else the seats.
        await targetPlace(ctx, filter.orgId, target);
        return refuseBulkSeats(ctx, target.accountId, count);
      }
      await closeRadios(ctx.env, leaving);
      return { changed: count };
    }),

  /** Adds or removes one tag on every chosen radio (a change to deploy for assigned ones). */
  bulkTag: procedureWith("manage-devices")
    .input(
      z.object({
        orgId: id.optional(),
        accountId: id.optional(),
        selection,
        tag: deviceTag,
        add: z.boolean(),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const filter = await bulkFilter(ctx, input, input.selection);
      // The radios the change touches (counted first: meta.changes would count trigger rows too).
      const changed = await countDevices(ctx.db, filter, 1_000_000, { where: tagChangeWhere(input.add), params: [input.tag] });
      await ctx.db.batch([
        bulkActivityStatement(ctx.db, filter, {
          actor: ctx.user,
          diff: { tags: input.add ? { after: input.tag } : { before: input.tag } },
          deployable: true,
          extraWhere: tagChangeWhere(input.add),
          extraParams: [input.tag],
        }),
        ...bulkTagStatements(ctx.db, filter, input.tag, input.add),
      ]);
      return { changed };
    }),

  /**
   * The CSV import: with dryRun, every problem (line, column, message) and what would happen;
   * without, the same checks and then one batch, all or nothing. New radios' secrets are in
   * the answer once. The file is read as a stream; one too large, too long or unreadable is a
   * problem of the file in the same answer (the body cap past which nothing is read is
   * request-limits.ts's).
   */
  importCsv: procedureWith("manage-devices")
    .input(
      z.object({
        orgId: id.optional(),
        /** From an account's registry: rows without an account go to this one. */
        accountId: id.optional(),
        csv: z.string().max(IMPORT_BODY_MAX_BYTES, "devices.import.tooLarge"),
        updateExisting: z.boolean().default(false),
        dryRun: z.boolean().default(true),
      }),
    )
    .mutation(async ({ ctx, input }) => {
      const scopeAccount = input.accountId ? await accountInScope(ctx, input.accountId) : null;
      const orgId = scopeAccount ? scopeAccount.orgId : await inventoryOrg(ctx, input.orgId);
      const parsed = await checkImportFile(textSource(input.csv), {
        places: await importPlaces(ctx.db, orgId),
        brandFilter: brandFilter(ctx),
        defaultBrand: defaultBrand(ctx),
        ...(scopeAccount ? { defaultAccount: scopeAccount._id } : {}),
      });
      if (parsed.fatal) return importAnswer(ctx, parsed.problems, 0, 0, null);
      const existing = await existingUids(
        ctx.db,
        parsed.rows.map((row) => row.uid),
      );
      const split = splitExisting(parsed, existing, orgId, input.updateExisting);
      const accounts = [
        ...new Set([...split.creates, ...split.updates].flatMap((row) => (row.accountId ? [row.accountId] : []))),
      ];
      const free = new Map<string, number>();
      for (const accountId of accounts) free.set(accountId, (await accountSeats(ctx.db, accountId)).free);
      const current = new Map([...existing].map(([uid, found]) => [uid, found.accountId ?? null]));
      const problems = [
        ...parsed.problems,
        ...split.problems,
        ...checkSeats([...split.creates, ...split.updates], current, free),
      ].sort((a, b) => a.row - b.row);
      if (problems.length || input.dryRun) return importAnswer(ctx, problems, split.creates.length, split.updates.length, null);
      const secrets: { uid: string; secret: string }[] = [];
      const creates = await Promise.all(
        split.creates.map(async (row) => {
          const { secret, hash } = await newDeviceSecret();
          secrets.push({ uid: row.uid, secret });
          return { ...row, secretHash: hash };
        }),
      );
      try {
        await ctx.db.batch(importStatements(ctx.db, { orgId, actor: ctx.user, creates, updates: split.updates }));
      } catch (error) {
        // Someone registered one of the uids or took the seats meanwhile: nothing was written.
        if (String(error).includes("seats exhausted")) refuse(ctx, "CONFLICT", "devices.import.seatsRace");
        if (String(error).includes("UNIQUE") || String(error).includes("PRIMARY KEY"))
          refuse(ctx, "CONFLICT", "devices.import.uidRace");
        throw error;
      }
      await closeRadios(
        ctx.env,
        split.updates.filter((row) => current.get(row.uid) !== row.accountId).map((row) => row.uid),
      );
      return importAnswer(ctx, [], split.creates.length, split.updates.length, secrets);
    }),
};

function importAnswer(
  ctx: Pick<ApiContext, "t">,
  problems: ImportProblem[],
  creates: number,
  updates: number,
  secrets: { uid: string; secret: string }[] | null,
) {
  return {
    ok: problems.length === 0,
    problems: problems
      .slice(0, 1000)
      .map((p) => ({ row: p.row, column: p.column, message: String(ctx.t(p.message, p.values ?? {})) })),
    moreProblems: Math.max(0, problems.length - 1000),
    creates,
    updates,
    imported: secrets !== null,
    secrets: secrets ?? [],
  };
}

async function refuseBulkSeats(ctx: Caller, accountId: string, needed: number): Promise<never> {
  const seats = await accountSeats(ctx.db, accountId);
  return refuseWith(
    ctx,
    "PRECONDITION_FAILED",
    "devices.errors.notEnoughSeats",
    { count: needed, free: seats.free, needed },
    "accountId",
  );
}
