import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, daysTable, instantsOf } from "./range";

export type ActivityGrouping = "person" | "kind" | "day";

const actions = ["create", "update", "delete"] as const;
const figures = `sum(a.action = 'create') AS "create", sum(a.action = 'update') AS "update", sum(a.action = 'delete') AS "delete"`;
/** People with the most changes first; the rest would make the chart unreadable and the page heavy. */
const MAX_PEOPLE = 200;

type Row = Record<(typeof actions)[number], number | null> & { label: string | null };

/**
 * Changes to the account's configuration in the range, per person, per kind of thing or per
 * day (the account's days), split by action. Grouped reads of activity_logs_account_report.
 */
export async function activityReport(db: Db, accountId: string, range: DayRange, by: ActivityGrouping): Promise<ReportTable> {
  const { start, end } = instantsOf(range);
  const rows =
    by === "day"
      ? await all<Row>(
          db,
          `WITH ${daysTable(range)}
           SELECT days.day AS label, ${figures} FROM days
           LEFT JOIN activity_logs a ON a.account_id = ?1 AND a.created_at >= days.start AND a.created_at < days.finish
           GROUP BY days.day ORDER BY days.day`,
          accountId,
        )
      : await all<Row>(
          db,
          `SELECT ${by === "person" ? "a.actor_email" : "a.entity_type"} AS label, ${figures} FROM activity_logs a
           WHERE a.account_id = ?1 AND a.created_at >= ?2 AND a.created_at < ?3
           GROUP BY label ORDER BY count(*) DESC, label LIMIT ${MAX_PEOPLE}`,
          accountId,
          start,
          end,
        );
  const table = rows.map((row) => {
    const counts = Object.fromEntries(actions.map((a) => [a, row[a] ?? 0])) as Record<(typeof actions)[number], number>;
    return { label: row.label, ...counts, total: counts.create + counts.update + counts.delete };
  });
  const total = table.reduce((acc, row) => acc + row.total, 0);
  return {
    columns: [
      by === "day"
        ? { key: "label", kind: "day", label: "reports.groupings.day" }
        : by === "kind"
          ? { key: "label", kind: "text", label: "reports.groupings.kind", translate: "activityLogs.entityTypes" }
          : { key: "label", kind: "text", label: "reports.groupings.person" },
      ...actions.map((a) => ({ key: a, kind: "count" as const, label: `activityLogs.actions.${a}` })),
      { key: "total", kind: "count", label: "reports.columns.total" },
    ],
    rows: table,
    category: "label",
    series: [...actions],
    unit: "reports.units.changes",
    summary: [
      { label: "reports.summary.changes", value: total },
      { label: "reports.summary.people", value: by === "person" ? table.length : -1 },
    ].filter((s) => s.value >= 0),
  };
}
