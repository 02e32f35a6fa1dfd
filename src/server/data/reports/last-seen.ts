import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { siteNames } from "./places";
import { hourOfInstant, neverSeen, seenBefore, seenInHourBefore } from "./seen-totals";

export const lastSeenBuckets = ["day", "week", "month", "older", "never"] as const;

const DAY = 86_400_000;

/**
 * When the account's radios last checked in, by site: within a day, a week, a month, longer
 * ago, or never. The buckets move with the clock, so no counter can hold them: for each cutoff
 * the radios seen before it are read from the running totals of migrations 0023/0026 (one seek
 * per site for the hours before the cutoff's hour), and counted one by one only in the cutoff's
 * own hour (an index range of devices_account_seen_place). Exact; the cost follows the sites and
 * the radios of three hours, not the fleet. A radio in contact counts in the IN_CONTACT marker's
 * hour, after every cutoff: within a day, which it is (radio-contact.ts: the contact sweep gives a
 * radio quiet for an hour its real last contact back, well within the day).
 */
export async function lastSeenReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const ago = (days: number) => new Date(now.getTime() - days * DAY).toISOString();
  const [c1, c7, c30] = [ago(1), ago(7), ago(30)];
  const [rows, names] = await Promise.all([
    all<Record<(typeof lastSeenBuckets)[number], number> & { siteId: string | null }>(
      db,
      `WITH parts(site, total, never, s1, s7, s30) AS (
         SELECT nullif(p.site_id, ''), p.radios, ${neverSeen}, ${seenBefore("?5")}, ${seenBefore("?6")}, ${seenBefore("?7")}
         FROM report_device_places p WHERE p.account_id = ?1
         UNION ALL SELECT site_id, 0, 0, count(*), 0, 0 ${seenInHourBefore("?5", "?2")} GROUP BY site_id
         UNION ALL SELECT site_id, 0, 0, 0, count(*), 0 ${seenInHourBefore("?6", "?3")} GROUP BY site_id
         UNION ALL SELECT site_id, 0, 0, 0, 0, count(*) ${seenInHourBefore("?7", "?4")} GROUP BY site_id
       )
       SELECT site AS siteId, sum(total) - sum(s1) AS day, sum(s1) - sum(s7) AS week, sum(s7) - sum(s30) AS month,
         sum(s30) - sum(never) AS older, sum(never) AS never
       FROM parts GROUP BY site`,
      accountId,
      c1,
      c7,
      c30,
      hourOfInstant(c1),
      hourOfInstant(c7),
      hourOfInstant(c30),
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
