import { TRPCError } from "@trpc/server";
import { z } from "zod";
import {
  DEFAULT_RANGE_DAYS,
  type Grouping,
  isReportId,
  MAX_RANGE_DAYS,
  type ReportId,
  type ReportTable,
  rangedReports,
  reportAvailable,
  reportGroupings,
  reportIds,
  reportsFlagFor,
} from "@/schema/reports";
import { isCalendarDay, wallClock } from "@/schema/zoned-date";
import type { Account } from "@/server/data/accounts";
import type { Db } from "@/server/data/db";
import { activityReport } from "@/server/data/reports/activity";
import { commandsReport } from "@/server/data/reports/commands";
import { complianceReport } from "@/server/data/reports/compliance";
import { deploymentsReport } from "@/server/data/reports/deployments";
import { firmwareReport } from "@/server/data/reports/firmware";
import { inventoryReport } from "@/server/data/reports/inventory";
import { lastSeenReport } from "@/server/data/reports/last-seen";
import type { DayRange } from "@/server/data/reports/range";
import { seatsReport } from "@/server/data/reports/seats";
import { accountInScope } from "../tenancy";
import { type ApiContext, router, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
const day = z.string().max(10).optional();

type Ctx = Pick<ApiContext, "db" | "t"> & { user: NonNullable<ApiContext["user"]> };

/**
 * Reports open with view-reports-in-advanced-accounts on advanced accounts and
 * view-reports-in-non-advanced-accounts on the others (spec §6), so the flag depends on the
 * account: each procedure checks it here after the tenancy check. The meta names the
 * non-advanced flag for the permission matrix (every built-in role holds both or neither).
 */
const reportsProcedure = signedInProcedure.meta({ signedIn: true, permission: "view-reports-in-non-advanced-accounts" });

async function reportAccount(ctx: Ctx, accountId: string): Promise<Account> {
  const account = await accountInScope(ctx, accountId);
  if (!ctx.user.permissions[reportsFlagFor(account.subscriptionLevel)]) {
    throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("errors.protected")) });
  }
  return account;
}

const DAY_MS = 86_400_000;
const plusDays = (value: string, days: number) =>
  new Date(Date.parse(`${value}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** The range asked, or the last 30 days of the account's calendar; anything else is a clear 400. */
export function dayRange(ctx: Pick<Ctx, "t">, timeZone: string, from?: string, to?: string, now = new Date()): DayRange {
  const bad = (key: string) => new TRPCError({ code: "BAD_REQUEST", message: String(ctx.t(key, { days: MAX_RANGE_DAYS })) });
  const today = wallClock(now.toISOString(), timeZone).slice(0, 10);
  const end = to || today;
  const start = from || plusDays(end, 1 - DEFAULT_RANGE_DAYS);
  if (!isCalendarDay(start) || !isCalendarDay(end)) throw bad("reports.errors.badDay");
  if (start > end) throw bad("reports.errors.fromAfterTo");
  if ((Date.parse(end) - Date.parse(start)) / DAY_MS + 1 > MAX_RANGE_DAYS) throw bad("reports.errors.tooLong");
  return { from: start, to: end, timeZone };
}

function compute(db: Db, account: Account, report: ReportId, by: Grouping, range: DayRange): Promise<ReportTable> {
  switch (report) {
    case "inventory":
      return inventoryReport(db, account._id, by as "model");
    case "firmware":
      return firmwareReport(db, account._id);
    case "compliance":
      return complianceReport(db, account._id);
    case "deployments":
      return deploymentsReport(db, account._id, range, by as "deployment");
    case "commands":
      return commandsReport(db, account._id, range, by as "type");
    case "last-seen":
      return lastSeenReport(db, account._id);
    case "seats":
      return seatsReport(db, account._id);
    case "activity":
      return activityReport(db, account._id, range, by as "person");
  }
}

/** An account's reports (issue 14): figures from grouped reads of indexes, never rows counted here. */
export const reportsRouter = router({
  /** The eight reports, each marked available or needing the advanced level. */
  list: reportsProcedure.input(z.object({ accountId: id })).query(async ({ ctx, input }) => {
    const account = await reportAccount(ctx, input.accountId);
    return {
      level: account.subscriptionLevel,
      reports: reportIds.map((report) => ({ id: report, available: reportAvailable(report, account.subscriptionLevel) })),
    };
  }),

  /** One report's table (what the page, its chart and its CSV show). */
  get: reportsProcedure
    .input(z.object({ accountId: id, report: z.string().max(40), by: z.string().max(40).optional(), from: day, to: day }))
    .query(async ({ ctx, input }) => {
      const account = await reportAccount(ctx, input.accountId);
      if (!isReportId(input.report)) throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("reports.errors.unknown")) });
      const report = input.report;
      if (!reportAvailable(report, account.subscriptionLevel)) {
        throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("reports.errors.needsUpgrade")) });
      }
      const groupings: readonly string[] = reportGroupings[report];
      const by = (input.by || groupings[0]) as Grouping;
      if (!groupings.includes(by))
        throw new TRPCError({ code: "BAD_REQUEST", message: String(ctx.t("reports.errors.badGrouping")) });
      const ranged = rangedReports.has(report);
      const range = ranged
        ? dayRange(ctx, account.timezone, input.from, input.to)
        : { from: "", to: "", timeZone: account.timezone };
      const table = await compute(ctx.db, account, report, by, range);
      return { report, by, range: ranged ? { from: range.from, to: range.to } : null, timeZone: account.timezone, table };
    }),
});
