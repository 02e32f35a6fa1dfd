import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { siteNames } from "./places";

export const lastSeenBuckets = ["day", "week", "month", "older", "never"] as const;

const DAY = 86_400_000;

/**
 * When the account's radios last checked in, by site: within a day, a week, a month, longer
 * ago, or never. One grouped pass over the devices_account_place index.
 */
export async function lastSeenReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const [rows, names] = await Promise.all([
    all<Record<(typeof lastSeenBuckets)[number], number> & { siteId: string | null }>(
      db,
      `SELECT site_id AS siteId,
         sum(last_seen_at >= ?2) AS day,
         sum(last_seen_at < ?2 AND last_seen_at >= ?3) AS week,
         sum(last_seen_at < ?3 AND last_seen_at >= ?4) AS month,
         sum(last_seen_at < ?4) AS older,
         sum(last_seen_at IS NULL) AS never
       FROM devices WHERE account_id = ?1 AND status = 'active' GROUP BY site_id`,
      accountId,
      ago(1),
      ago(7),
      ago(30),
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
