import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, hourOf, instantsOf, rangeSpans, rolledUpRows, spanTables, wholeHours } from "./range";

export type ActivityGrouping = "person" | "kind" | "day";

const actions = ["create", "update", "delete"] as const;
/** People with the most changes first; the rest would make the chart unreadable and the page heavy. */
const MAX_PEOPLE = 200;

type Row = Record<(typeof actions)[number], number | null> & { label: string | null };

/**
 * Changes to the account's configuration in the range, per person, per kind of thing or per
 * day (the account's days), split by action: from roll-ups, plus the entries themselves only in
 * the bits of an hour a :30/:45 zone cuts (activity_logs_account_report).
 */
export async function activityReport(db: Db, accountId: string, range: DayRange, by: ActivityGrouping): Promise<ReportTable> {
  const rows = by === "person" ? await byPerson(db, accountId, range) : await byKindOrDay(db, accountId, range, by);
  return tableOf(rows, by);
}

/**
 * Changes per person: from the running totals of report_activity_people_upto (migration 0023),
 * two rows per person of the account (the totals before the range's first whole UTC hour and
 * before its end), plus the entries in the bits of an hour a :30/:45 zone cuts. The cost follows
 * the account's people, not its changes.
 */
async function byPerson(db: Db, accountId: string, range: DayRange): Promise<Row[]> {
  const { start, end } = instantsOf(range);
  const { firstHour, endHour } = wholeHours(start, end);
  const upto = (alias: string, hour: string) =>
    `LEFT JOIN report_activity_people_upto ${alias} ON ${alias}.account_id = ?1 AND ${alias}.actor_email = p.actor_email
       AND ${alias}.hour = (SELECT u.hour FROM report_activity_people_upto u
         WHERE u.account_id = ?1 AND u.actor_email = p.actor_email AND u.hour < ${hour} ORDER BY u.hour DESC LIMIT 1)`;
  const counted = (lo: string, hi: string) =>
    `SELECT a.actor_email, a.action = 'create', a.action = 'update', a.action = 'delete' FROM activity_logs a
     WHERE a.account_id = ?1 AND a.created_at >= ${lo} AND a.created_at < ${hi}`;
  return all<Row>(
    db,
    `WITH parts(label, creates, updates, deletes) AS (
       SELECT p.actor_email, ifnull(hi.creates, 0) - ifnull(lo.creates, 0), ifnull(hi.updates, 0) - ifnull(lo.updates, 0),
         ifnull(hi.deletes, 0) - ifnull(lo.deletes, 0)
       FROM report_activity_persons p ${upto("lo", "?2")} ${upto("hi", "?3")}
       WHERE p.account_id = ?1
       UNION ALL ${counted("?4", "?5")}
       UNION ALL ${counted("?6", "?7")}
     )
     SELECT label, sum(creates) AS "create", sum(updates) AS "update", sum(deletes) AS "delete"
     FROM parts GROUP BY label HAVING sum(creates + updates + deletes) > 0
     ORDER BY sum(creates + updates + deletes) DESC, label LIMIT ${MAX_PEOPLE}`,
    accountId,
    hourOf(firstHour),
    hourOf(endHour),
    start,
    new Date(firstHour).toISOString(),
    new Date(endHour).toISOString(),
    end,
  );
}

/**
 * Changes per kind of thing or per day: sums of report_activity_kinds (migration 0021; all kinds
 * together for the days) over the whole UTC days and hours of each span, plus the entries in the
 * bits of an hour a :30/:45 zone cuts.
 */
async function byKindOrDay(db: Db, accountId: string, range: DayRange, by: "kind" | "day"): Promise<Row[]> {
  const [rollup, column] = ["report_activity_kinds", "entity_type"];
  const counted = `a.${column}, a.action = 'create', a.action = 'update', a.action = 'delete'`;
  const key = by === "day" ? "p.span" : "p.label";
  return all<Row>(
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
}

function tableOf(rows: Row[], by: ActivityGrouping): ReportTable {
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
