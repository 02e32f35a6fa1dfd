import { OVERDUE_AFTER_MS } from "@/schema/fleet/sync-state";
import type { ReportTable } from "@/schema/reports";
import { all, type Db, first } from "../db";
import { siteNames } from "./places";
import { hourOfInstant, neverSeen, seenBefore, seenInHourBefore } from "./seen-totals";

export const complianceStates = ["inSync", "pending", "failed", "drifted", "overdue", "neverSeen"] as const;

type State = (typeof complianceStates)[number];
type Group = { site: string; revision: string; kind: State; never: number; overdue: number; recent: number };

/**
 * Configuration compliance by site: each active radio counted once, in the first state that
 * applies: never seen, overdue (no check-in within the expected interval), failed (its radio
 * failed or rejected the current deployment), drifted (reports a revision no deployment of the
 * account sent), in sync (reports the current revision), pending (the rest).
 *
 * Per site × revision group, from the running totals of migration 0023: the never-seen radios,
 * those seen before the overdue cutoff's hour (one seek each), and one by one only the radios
 * seen in that hour before the cutoff (an index range); the rest are recent and classed by their
 * revision. Of the recent ones, the current deployment's failed radios move to "failed": found
 * from whichever side is smaller, the deployment's failed radios (report_deployment_counts says
 * how many) or the recent radios. Exact; the cost follows sites × revisions plus
 * min(failed radios, radios seen in the last 15 minutes).
 */
export async function complianceReport(db: Db, accountId: string, now = new Date()): Promise<ReportTable> {
  const overdueBefore = new Date(now.getTime() - OVERDUE_AFTER_MS).toISOString();
  const [groups, current, names] = await Promise.all([
    all<Group>(
      db,
      `WITH current AS (
         SELECT revision_id FROM deployments
         WHERE account_id = ?1 AND state IN ('running', 'paused', 'finished') ORDER BY number DESC LIMIT 1
       ), parts(site, revision, total, never, before) AS (
         SELECT p.site_id, p.revision, p.radios, ${neverSeen}, ${seenBefore("?3")}
         FROM report_device_places p WHERE p.account_id = ?1
         UNION ALL SELECT ifnull(site_id, ''), ifnull(reported_revision, ''), 0, 0, count(*) ${seenInHourBefore("?3", "?2")}
         GROUP BY 1, 2
       )
       SELECT site, revision, sum(never) AS never, sum(before) - sum(never) AS overdue, sum(total) - sum(before) AS recent,
         CASE
           WHEN revision <> '' AND revision NOT IN (SELECT r.id FROM revisions r WHERE r.account_id = ?1) THEN 'drifted'
           WHEN revision = (SELECT revision_id FROM current) THEN 'inSync'
           ELSE 'pending'
         END AS kind
       FROM parts GROUP BY site, revision`,
      accountId,
      overdueBefore,
      hourOfInstant(overdueBefore),
    ),
    first<{ id: string; failed: number | null }>(
      db,
      `SELECT d.id, (SELECT sum(c.radios) FROM report_deployment_counts c
                     WHERE c.deployment_id = d.id AND c.state IN ('failed', 'rejected')) AS failed
       FROM deployments d WHERE d.account_id = ?1 AND d.state IN ('running', 'paused', 'finished') ORDER BY d.number DESC LIMIT 1`,
      accountId,
    ),
    siteNames(db, accountId),
  ]);
  const recent = groups.reduce((sum, g) => sum + g.recent, 0);
  const failing = new Map<string, number>();
  if (current?.failed && recent > 0) {
    // The current deployment's failed radios seen since the cutoff, from the smaller side.
    const fromFailed = current.failed <= recent;
    const rows = await all<{ site: string; revision: string; radios: number }>(
      db,
      `SELECT ifnull(v.site_id, '') AS site, ifnull(v.reported_revision, '') AS revision, count(*) AS radios
       FROM ${fromFailed ? "deployment_devices x CROSS JOIN devices v" : "devices v CROSS JOIN deployment_devices x"}
       WHERE x.deployment_id = ?2 AND x.uid = v.uid AND x.state IN ('failed', 'rejected')
         AND v.account_id = ?1 AND v.status = 'active' AND v.last_seen_at >= ?3
       GROUP BY 1, 2`,
      accountId,
      current.id,
      overdueBefore,
    );
    for (const row of rows) failing.set(`${row.site}\u0000${row.revision}`, row.radios);
  }
  const sites = new Map<string, Record<State, number>>();
  for (const g of groups) {
    const counts = sites.get(g.site) ?? (Object.fromEntries(complianceStates.map((s) => [s, 0])) as Record<State, number>);
    const failed = failing.get(`${g.site}\u0000${g.revision}`) ?? 0;
    counts.neverSeen += g.never;
    counts.overdue += g.overdue;
    counts.failed += failed;
    counts[g.kind] += g.recent - failed;
    sites.set(g.site, counts);
  }
  const rows = [...sites].map(([site, counts]) => ({ siteId: site || null, ...counts }));
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
