import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { OVERDUE_AFTER_MS } from "../fleet-drift";
import { siteNames } from "./places";

export const complianceStates = ["inSync", "pending", "failed", "drifted", "overdue", "neverSeen"] as const;

/**
 * Configuration compliance by site: each active radio counted once, in the first state that
 * applies: never seen, overdue (no check-in within the expected interval), failed (its radio
 * failed or rejected the current deployment), drifted (reports a revision no deployment of the
 * account sent), in sync (reports the current revision), pending (the rest). One grouped pass
 * over the devices_account_place index; the failed radios and the account's revisions are each
 * read once.
 */
export async function complianceReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const overdueBefore = new Date(now.getTime() - OVERDUE_AFTER_MS).toISOString();
  const [rows, names] = await Promise.all([
    all<Record<(typeof complianceStates)[number], number> & { siteId: string | null }>(
      db,
      `WITH current AS (
         SELECT id, revision_id FROM deployments
         WHERE account_id = ?1 AND state IN ('running', 'paused', 'finished') ORDER BY number DESC LIMIT 1
       ), states AS (
         SELECT v.site_id,
           CASE
             WHEN v.last_seen_at IS NULL THEN 'neverSeen'
             WHEN v.last_seen_at < ?2 THEN 'overdue'
             WHEN v.uid IN (SELECT x.uid FROM deployment_devices x WHERE x.deployment_id = (SELECT id FROM current)
                            AND x.state IN ('failed', 'rejected')) THEN 'failed'
             WHEN v.reported_revision IS NOT NULL
                  AND v.reported_revision NOT IN (SELECT r.id FROM revisions r WHERE r.account_id = ?1) THEN 'drifted'
             WHEN v.reported_revision = (SELECT revision_id FROM current) THEN 'inSync'
             ELSE 'pending'
           END AS state
         FROM devices v WHERE v.account_id = ?1 AND v.status = 'active'
       )
       SELECT site_id AS siteId,
         sum(state = 'inSync') AS inSync, sum(state = 'pending') AS pending, sum(state = 'failed') AS failed,
         sum(state = 'drifted') AS drifted, sum(state = 'overdue') AS overdue, sum(state = 'neverSeen') AS neverSeen
       FROM states GROUP BY site_id`,
      accountId,
      overdueBefore,
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
