import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, rangeSpans, rolledUpRows, spanTables } from "./range";

export type CommandsGrouping = "type" | "day";

const outcomes = ["succeeded", "failed", "expired", "cancelled", "waiting"] as const;

// Outcome counts and the radios' delivery times: from a roll-up hour, or from one command row.
const rolledUp = `h.succeeded, h.failed, h.expired, h.cancelled, h.waiting, h.delivered, h.deliver_seconds AS seconds`;
const counted = `c.state = 'succeeded', c.state = 'failed', c.state = 'expired', c.state = 'cancelled',
  c.state IN ('queued', 'sent', 'delivered'), c.delivered_at IS NOT NULL,
  ifnull((julianday(c.delivered_at) - julianday(c.created_at)) * 86400.0, 0)`;

type Row = Record<(typeof outcomes)[number], number | null> & { label: string; deliverSeconds: number | null };

/**
 * Commands sent to the account's radios in the range, by type or by day (the account's days),
 * with their outcomes and the mean time to deliver (from sending to the radio's "delivered").
 * Sums of report_command_counts (migration 0021) over the whole UTC days and hours of each span
 * (by type, or over all types for the days), plus the commands themselves in the bits of an hour
 * a :30/:45 zone cuts (commands_account_time): the cost follows the length of the range, not
 * the account's commands.
 */
export async function commandsReport(db: Db, accountId: string, range: DayRange, by: CommandsGrouping): Promise<ReportTable> {
  const key = by === "type" ? "p.type" : "p.span";
  const rows = await all<Row>(
    db,
    `WITH ${spanTables(rangeSpans(range, by === "day"), by === "day")},
     parts(span, type, succeeded, failed, expired, cancelled, waiting, delivered, seconds) AS (
       ${rolledUpRows("report_command_counts", `h.type, ${rolledUp}`)}
       UNION ALL
       SELECT raws.key, c.type, ${counted} FROM raws
       JOIN commands c ON c.account_id = ?1 AND c.created_at >= raws.lo AND c.created_at < raws.hi
       ${by === "day" ? "UNION ALL SELECT spans.key, NULL, 0, 0, 0, 0, 0, 0, 0 FROM spans" /* every day, also an empty one */ : ""}
     )
     SELECT ${key} AS label, sum(p.succeeded) AS succeeded, sum(p.failed) AS failed, sum(p.expired) AS expired,
       sum(p.cancelled) AS cancelled, sum(p.waiting) AS waiting, sum(p.seconds) / sum(p.delivered) AS deliverSeconds
     FROM parts p GROUP BY ${key}
     ${by === "type" ? "ORDER BY sum(p.succeeded + p.failed + p.expired + p.cancelled + p.waiting) DESC, p.type" : "ORDER BY p.span"}`,
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
