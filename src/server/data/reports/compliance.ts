import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { OVERDUE_AFTER_MS } from "../fleet-drift";
import { siteNames } from "./places";

export const complianceStates = ["inSync", "pending", "failed", "drifted", "overdue", "neverSeen"] as const;

/**
 * Configuration compliance by site: each active radio counted once, in the first state that
 * applies: never seen, overdue (no check-in within the expected interval), failed (its radio
 * failed or rejected the current deployment), drifted (reports a revision no deployment of the
 * account sent), in sync (reports the current revision), pending (the rest).
 *
 * Summed from report_device_seen (migration 0021: radios by site, UTC day last seen and
 * revision): days before the overdue cutoff's day are overdue, later days are classed by their
 * revision. Only two small sets are counted one by one: the radios of the cutoff's own day seen
 * before the cutoff (an index range of devices_account_seen_place; they move from their
 * revision to overdue), and the current deployment's failed radios that are not overdue (they
 * move from their revision to failed). Exact, and the cost follows sites × days × revisions.
 */
export async function complianceReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const overdueBefore = new Date(now.getTime() - OVERDUE_AFTER_MS).toISOString();
  const [rows, names] = await Promise.all([
    all<Record<(typeof complianceStates)[number], number> & { siteId: string | null }>(
      db,
      `WITH current AS (
         SELECT id, revision_id FROM deployments
         WHERE account_id = ?1 AND state IN ('running', 'paused', 'finished') ORDER BY number DESC LIMIT 1
       ), late AS MATERIALIZED (
         SELECT ifnull(site_id, '') AS site, ifnull(reported_revision, '') AS revision, count(*) AS radios FROM devices
         WHERE account_id = ?1 AND status = 'active' AND last_seen_at >= ?3 AND last_seen_at < ?2 GROUP BY 1, 2
       ), failing AS MATERIALIZED (
         SELECT ifnull(v.site_id, '') AS site, ifnull(v.reported_revision, '') AS revision, count(*) AS radios
         FROM deployment_devices x JOIN devices v ON v.uid = x.uid
         WHERE x.deployment_id = (SELECT id FROM current) AND x.state IN ('failed', 'rejected')
           AND v.account_id = ?1 AND v.status = 'active' AND v.last_seen_at >= ?2
         GROUP BY 1, 2
       ), parts(site, revision, state, radios) AS (
         SELECT site_id, revision, CASE WHEN seen_day = '' THEN 'neverSeen' WHEN seen_day < ?3 THEN 'overdue' END, radios
         FROM report_device_seen WHERE account_id = ?1
         UNION ALL SELECT site, revision, NULL, -radios FROM late
         UNION ALL SELECT site, revision, 'overdue', radios FROM late
         UNION ALL SELECT site, revision, NULL, -radios FROM failing
         UNION ALL SELECT site, revision, 'failed', radios FROM failing
       ), states AS (
         SELECT site, radios, coalesce(state,
           CASE
             WHEN revision <> '' AND revision NOT IN (SELECT r.id FROM revisions r WHERE r.account_id = ?1) THEN 'drifted'
             WHEN revision = (SELECT revision_id FROM current) THEN 'inSync'
             ELSE 'pending'
           END) AS state
         FROM parts
       )
       SELECT nullif(site, '') AS siteId,
         sum(radios * (state = 'inSync')) AS inSync, sum(radios * (state = 'pending')) AS pending,
         sum(radios * (state = 'failed')) AS failed, sum(radios * (state = 'drifted')) AS drifted,
         sum(radios * (state = 'overdue')) AS overdue, sum(radios * (state = 'neverSeen')) AS neverSeen
       FROM states GROUP BY site`,
      accountId,
      overdueBefore,
      overdueBefore.slice(0, 10),
    ),
    siteNames(db, accountId),
  ]);
  const table = rows
    .map((row) => {
      const counts = Object.fromEntries(complianceStates.map((s) => [s, row[s] ?? 0])) as Record<
        (typeof complianceStates)[number],
        number
      >;
      const total = complianceStates.reduce((sum, s) => sum + counts[s], 0);
      return { site: row.siteId ? (names.get(row.siteId) ?? row.siteId) : null, ...counts, total };
    })
    .sort((a, b) => b.total - a.total || String(a.site).localeCompare(String(b.site)));
  const sum = (key: (typeof complianceStates)[number]) => table.reduce((acc, row) => acc + row[key], 0);
  return {
    columns: [
      { key: "site", kind: "text", label: "reports.groupings.site" },
      ...complianceStates.map((s) => ({ key: s, kind: "count" as const, label: `reports.compliance.${s}` })),
      { key: "total", kind: "count", label: "reports.columns.total" },
    ],
    rows: table,
    category: "site",
    series: [...complianceStates],
    unit: "reports.units.radios",
    summary: [
      { label: "reports.summary.radios", value: table.reduce((acc, row) => acc + row.total, 0) },
      { label: "reports.compliance.inSync", value: sum("inSync") },
      { label: "reports.summary.needAttention", value: sum("failed") + sum("drifted") + sum("overdue") + sum("neverSeen") },
    ],
  };
}
