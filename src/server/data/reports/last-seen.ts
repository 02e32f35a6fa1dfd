import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { siteNames } from "./places";

export const lastSeenBuckets = ["day", "week", "month", "older", "never"] as const;

const DAY = 86_400_000;

const dayOf = (instant: string) => instant.slice(0, 10);
const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00.000Z`) + DAY).toISOString().slice(0, 10);

/**
 * When the account's radios last checked in, by site: within a day, a week, a month, longer
 * ago, or never. The buckets move with the clock, so no counter can hold them: the radios are
 * summed from report_device_seen (migration 0021: radios by the UTC day last seen) for every day
 * wholly inside a bucket, and counted one by one (an index range of devices_account_seen_place)
 * only in the three days a cutoff falls in. Exact, and the cost follows the days the fleet was
 * seen in plus those three days' radios, not the fleet.
 */
export async function lastSeenReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const [d1, d7, d30] = [dayOf(ago(1)), dayOf(ago(7)), dayOf(ago(30))];
  const counted = (day: string) =>
    `SELECT site_id, CASE WHEN last_seen_at >= ?2 THEN 'day' WHEN last_seen_at >= ?3 THEN 'week'
       WHEN last_seen_at >= ?4 THEN 'month' ELSE 'older' END, count(*)
     FROM devices WHERE account_id = ?1 AND status = 'active' AND last_seen_at >= '${day}' AND last_seen_at < '${nextDay(day)}'
     GROUP BY 1, 2`;
  const [rows, names] = await Promise.all([
    all<Record<(typeof lastSeenBuckets)[number], number> & { siteId: string | null }>(
      db,
      `WITH parts(site, bucket, radios) AS (
         SELECT nullif(site_id, ''), CASE WHEN seen_day = '' THEN 'never' WHEN seen_day > ?5 THEN 'day'
           WHEN seen_day > ?6 THEN 'week' WHEN seen_day > ?7 THEN 'month' ELSE 'older' END, radios
         FROM report_device_seen WHERE account_id = ?1 AND seen_day NOT IN (?5, ?6, ?7)
         UNION ALL ${counted(d1)}
         UNION ALL ${counted(d7)}
         UNION ALL ${counted(d30)}
       )
       SELECT site AS siteId, sum(radios * (bucket = 'day')) AS day, sum(radios * (bucket = 'week')) AS week,
         sum(radios * (bucket = 'month')) AS month, sum(radios * (bucket = 'older')) AS older,
         sum(radios * (bucket = 'never')) AS never
       FROM parts GROUP BY site`,
      accountId,
      ago(1),
      ago(7),
      ago(30),
      d1,
      d7,
      d30,
    ),
    siteNames(db, accountId),
  ]);
  const table = rows
    .map((row) => {
      const counts = Object.fromEntries(lastSeenBuckets.map((b) => [b, row[b] ?? 0])) as Record<
        (typeof lastSeenBuckets)[number],
        number
      >;
      const total = lastSeenBuckets.reduce((sum, b) => sum + counts[b], 0);
      return { site: row.siteId ? (names.get(row.siteId) ?? row.siteId) : null, ...counts, total };
    })
    .sort((a, b) => b.total - a.total || String(a.site).localeCompare(String(b.site)));
  const sum = (key: (typeof lastSeenBuckets)[number]) => table.reduce((acc, row) => acc + row[key], 0);
  return {
    columns: [
      { key: "site", kind: "text", label: "reports.groupings.site" },
      ...lastSeenBuckets.map((b) => ({ key: b, kind: "count" as const, label: `reports.lastSeen.${b}` })),
      { key: "total", kind: "count", label: "reports.columns.total" },
    ],
    rows: table,
    category: "site",
    series: [...lastSeenBuckets],
    unit: "reports.units.radios",
    summary: [
      { label: "reports.summary.radios", value: table.reduce((acc, row) => acc + row.total, 0) },
      { label: "reports.summary.notSeenForADay", value: sum("week") + sum("month") + sum("older") },
      { label: "reports.summary.notSeenForAWeek", value: sum("month") + sum("older") },
      { label: "reports.summary.notSeenForAMonth", value: sum("older") },
      { label: "reports.lastSeen.never", value: sum("never") },
    ],
  };
}
