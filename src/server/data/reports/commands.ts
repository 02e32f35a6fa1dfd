import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, daysTable, instantsOf } from "./range";

export type CommandsGrouping = "type" | "day";

const outcomes = ["succeeded", "failed", "expired", "cancelled", "waiting"] as const;

// Outcome counts and the mean time from sending to the radio's "delivered", in seconds.
const figures = `sum(c.state = 'succeeded') AS succeeded, sum(c.state = 'failed') AS failed,
  sum(c.state = 'expired') AS expired, sum(c.state = 'cancelled') AS cancelled,
  sum(c.state IN ('queued', 'sent', 'delivered')) AS waiting,
  avg((julianday(c.delivered_at) - julianday(c.created_at)) * 86400.0) AS deliverSeconds`;

type Row = Record<(typeof outcomes)[number], number | null> & { label: string; deliverSeconds: number | null };

/**
 * Commands sent to the account's radios in the range, by type or by day (the account's days),
 * with their outcomes and the mean time to deliver. Grouped reads of commands_account_time.
 */
export async function commandsReport(db: Db, accountId: string, range: DayRange, by: CommandsGrouping): Promise<ReportTable> {
  const { start, end } = instantsOf(range);
  const rows =
    by === "type"
      ? await all<Row>(
          db,
          `SELECT c.type AS label, ${figures} FROM commands c
           WHERE c.account_id = ?1 AND c.created_at >= ?2 AND c.created_at < ?3 GROUP BY c.type ORDER BY count(*) DESC, c.type`,
          accountId,
          start,
          end,
        )
      : await all<Row>(
          db,
          `WITH ${daysTable(range)}
           SELECT days.day AS label, ${figures} FROM days
           LEFT JOIN commands c ON c.account_id = ?1 AND c.created_at >= days.start AND c.created_at < days.finish
           GROUP BY days.day ORDER BY days.day`,
          accountId,
        );
  const table = rows.map((row) => {
    const counts = Object.fromEntries(outcomes.map((o) => [o, row[o] ?? 0])) as Record<(typeof outcomes)[number], number>;
    const total = outcomes.reduce((sum, o) => sum + counts[o], 0);
    return {
      label: row.label,
      ...counts,
      total,
      deliverSeconds: row.deliverSeconds === null ? null : Math.round(row.deliverSeconds),
    };
  });
  const sum = (key: (typeof outcomes)[number] | "total") => table.reduce((acc, row) => acc + row[key], 0);
  return {
    columns: [
      by === "type"
        ? { key: "label", kind: "text", label: "reports.groupings.type", translate: "commands.types" }
        : { key: "label", kind: "day", label: "reports.groupings.day" },
      ...outcomes.map((o) => ({ key: o, kind: "count" as const, label: `reports.commandOutcomes.${o}` })),
      { key: "total", kind: "count", label: "reports.columns.total" },
      { key: "deliverSeconds", kind: "seconds", label: "reports.columns.timeToDeliver" },
    ],
    rows: table,
    category: "label",
    series: [...outcomes],
    unit: "reports.units.commands",
    summary: [
      { label: "reports.summary.commands", value: sum("total") },
      { label: "reports.commandOutcomes.succeeded", value: sum("succeeded") },
      { label: "reports.commandOutcomes.failed", value: sum("failed") },
      { label: "reports.commandOutcomes.expired", value: sum("expired") },
    ],
  };
}
