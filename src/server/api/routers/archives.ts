import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { reportsFlagFor } from "@/schema/reports";
import type { Account } from "@/server/data/accounts";
import { type Archive, findArchive, listArchives } from "@/server/data/archives";
import { accountInScope } from "../tenancy";
import { type ApiContext, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);

type Ctx = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/** Archived commands and deployment outcomes open with the account's reports flag (spec §6), like the reports. */
function assertMaySeeReports(ctx: Ctx, account: Account): void {
  if (!ctx.user.permissions[reportsFlagFor(account.subscriptionLevel)]) {
    throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("errors.protected")) });
  }
}

/**
 * What moved to R2 once older than the account's retention (src/server/retention): the
 * activity log's archives for everyone who sees the log, commands and deployment outcomes for
 * whoever sees the reports. Another tenant's account or archive answers NOT_FOUND.
 */
export const archivesRouter = router({
  activity: signedInProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    return listArchives(ctx.db, account._id, ["activity"]);
  }),

  reports: signedInProcedure
    .meta({ signedIn: true, permission: "view-reports-in-non-advanced-accounts" })
    .input(z.object({ accountId: id }))
    .query(async ({ ctx, input }) => {
      const account = await accountInScope(ctx, input.accountId);
      assertMaySeeReports(ctx, account);
      return listArchives(ctx.db, account._id, ["commands", "deployment-outcomes"]);
    }),

  /** One archive (the download reads its object with this answer's key). */
  get: signedInProcedure.input(z.object({ accountId: id, id })).query(async ({ ctx, input }): Promise<Archive> => {
    const account = await accountInScope(ctx, input.accountId);
    const archive = await findArchive(ctx.db, account._id, input.id);
    if (!archive) throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("errors.archiveNotFound")) });
    if (archive.kind !== "activity") assertMaySeeReports(ctx, account);
    return archive;
  }),
});
