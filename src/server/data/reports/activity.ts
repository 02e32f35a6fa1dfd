import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, rangeSpans, rolledUpRows, spanTables } from "./range";

export type ActivityGrouping = "person" | "kind" | "day";

const actions = ["create", "update", "delete"] as const;
/** People with the most changes first; the rest would make the chart unreadable and the page heavy. */
const MAX_PEOPLE = 200;

type Row = Record<(typeof actions)[number], number | null> & { label: string | null };

/**
 * Changes to the account's configuration in the range, per person, per kind of thing or per
 * day (the account's days), split by action. Sums of the roll-ups report_activity_people and
 * report_activity_kinds (migration 0021; all kinds together for the days) over the whole UTC
 * days and hours of each span, plus the entries themselves in the bits of an hour a :30/:45
 * zone cuts (activity_logs_account_report).
 */
export async function activityReport(db: Db, accountId: string, range: DayRange, by: ActivityGrouping): Promise<ReportTable> {
  const [rollup, column] = by === "person" ? ["report_activity_people", "actor_email"] : ["report_activity_kinds", "entity_type"];
  const counted = `a.${column}, a.action = 'create', a.action = 'update', a.action = 'delete'`;
  const key = by === "day" ? "p.span" : "p.label";
  const rows = await all<Row>(
    db,
    `WITH ${spanTables(rangeSpans(range, by === "day"), by === "day")},
     parts(span, label, creates, updates, deletes) AS (
       ${rolledUpRows(rollup, `h.${column}, h.creates, h.updates, h.deletes`)}
       UNION ALL
       SELECT raws.key, ${counted} FROM raws
       JOIN activity_logs a ON a.account_id = ?1 AND a.created_at >= raws.lo AND a.created_at < raws.hi
       ${by === "day" ? "UNION ALL SELECT spans.key, NULL, 0, 0, 0 FROM spans" /* every day, also an empty one */ : ""}
     )
     SELECT ${key} AS label, sum(p.creates) AS "create", sum(p.updates) AS "update", sum(p.deletes) AS "delete"
     FROM parts p GROUP BY ${key}
     ${by === "day" ? "ORDER BY p.span" : `ORDER BY sum(p.creates + p.updates + p.deletes) DESC, p.label LIMIT ${MAX_PEOPLE}`}`,
    accountId,
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
