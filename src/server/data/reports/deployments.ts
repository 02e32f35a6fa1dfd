import type { ReportTable } from "@/schema/reports";
import { all, type Db } from "../db";
import { type DayRange, instantsOf } from "./range";

export type DeploymentsGrouping = "deployment" | "phase" | "reason";

/** The most recent deployments of the range a report covers (each costs a few index reads). */
export const MAX_DEPLOYMENTS = 50;
/** The shares of a deployment's radios whose time the report shows (also what an archived deployment keeps). */
export const milestones = [0.5, 0.9, 1] as const;

/** Radios that had a deployment up to which its milestone times are read by stepping over them. */
export const DIRECT_MILESTONES_UP_TO = 2_000;

// The ?2-th radio (by the time it said so) that applied the deployment ?1 or already had it.
const byOffset = `SELECT updated_at AS at FROM deployment_devices
  WHERE deployment_id = ?1 AND state IN ('applied', 'already_in_sync') ORDER BY updated_at LIMIT 1 OFFSET ?2 - 1`;
const bySecond = `WITH second AS (
    SELECT second, radios FROM report_deployment_reach_upto WHERE deployment_id = ?1 AND radios >= ?2 ORDER BY radios LIMIT 1
  ), before AS (
    SELECT second.second, ifnull((SELECT u.radios FROM report_deployment_reach_upto u
      WHERE u.deployment_id = ?1 AND u.second < second.second ORDER BY u.second DESC LIMIT 1), 0) AS radios
    FROM second
  )
  SELECT at FROM (
    SELECT x.updated_at AS at, before.radios + row_number() OVER (ORDER BY x.updated_at) AS k
    FROM before JOIN deployment_devices x ON x.deployment_id = ?1 AND x.state IN ('applied', 'already_in_sync')
      AND x.updated_at >= before.second AND x.updated_at < before.second || ';'
  ) WHERE k = ?2`;

// A deployment whose outcomes moved to R2 (src/server/retention) has no rows to step over: the
// second the k-th radio falls in, from the running totals the archive leaves in place.
const reachSecond = `SELECT second || 'Z' FROM report_deployment_reach_upto WHERE deployment_id = ?1 AND radios >= ?2
  ORDER BY radios LIMIT 1`;
const orArchived = (probe: string) => `SELECT coalesce((${probe}), (${reachSecond})) AS at`;

type DeploymentRow = { id: string; number: number; state: string; targeted: number; startedAt: string | null };
type StateCount = { deploymentId: string; phase?: number; state: string; radios: number };

const inRange = `SELECT id FROM deployments WHERE account_id = ?1 AND created_at >= ?2 AND created_at < ?3
                 ORDER BY created_at DESC LIMIT ${MAX_DEPLOYMENTS}`;

function outcomeOf(counts: StateCount[]) {
  const of = (...states: string[]) => counts.filter((c) => states.includes(c.state)).reduce((sum, c) => sum + c.radios, 0);
  return { applied: of("applied", "already_in_sync"), failed: of("failed", "rejected"), inProgress: of("delivered", "applying") };
}

const seconds = (from: string | null, to: string | null | undefined) =>
  from && to ? Math.max(0, Math.round((Date.parse(to) - Date.parse(from)) / 1000)) : null;

/**
 * Deployments started in the range: each one's outcome (radios applied, failed, in progress,
 * not reported yet) and how long after its start 50 %, 90 % and 100 % of its radios had it;
 * or the same counts per phase; or failures by reason code. The counts are sums of
 * report_deployment_counts (migration 0021, kept by triggers); the milestone times one short
 * probe each (see below). Nothing grows with the radios targeted.
 */
export async function deploymentsReport(
  db: Db,
  accountId: string,
  range: DayRange,
  by: DeploymentsGrouping,
  directUpTo = DIRECT_MILESTONES_UP_TO,
): Promise<ReportTable> {
  const { start, end } = instantsOf(range);
  if (by === "reason") {
    const rows = await all<{ code: string; failed: number; rejected: number; deployments: number }>(
      db,
      `SELECT code, sum(radios * (state = 'failed')) AS failed, sum(radios * (state = 'rejected')) AS rejected,
         count(DISTINCT deployment_id) AS deployments
       FROM report_deployment_counts WHERE deployment_id IN (${inRange}) AND state IN ('failed', 'rejected')
       GROUP BY code ORDER BY sum(radios) DESC, code`,
      accountId,
      start,
      end,
    );
    return {
      columns: [
        { key: "code", kind: "text", label: "reports.columns.reason" },
        { key: "failed", kind: "count", label: "reports.deploymentOutcomes.failedOnRadio" },
        { key: "rejected", kind: "count", label: "reports.deploymentOutcomes.rejected" },
        { key: "deployments", kind: "count", label: "reports.columns.deployments" },
      ],
      rows: rows.map((row) => ({ ...row, code: row.code || null })),
      category: "code",
      series: ["failed", "rejected"],
      unit: "reports.units.radios",
      summary: [{ label: "reports.summary.failures", value: rows.reduce((sum, row) => sum + row.failed + row.rejected, 0) }],
    };
  }

  const deployments = await all<DeploymentRow>(
    db,
    `SELECT id, number, state, targeted, started_at AS startedAt FROM deployments WHERE id IN (${inRange}) ORDER BY number DESC`,
    accountId,
    start,
    end,
  );
  if (by === "phase") {
    const counts = await all<StateCount>(
      db,
      `SELECT deployment_id AS deploymentId, phase, state, sum(radios) AS radios FROM report_deployment_counts
       WHERE deployment_id IN (${inRange}) GROUP BY deployment_id, phase, state`,
      accountId,
      start,
      end,
    );
    const rows = deployments.flatMap((d) => {
      const phases = [...new Set(counts.filter((c) => c.deploymentId === d.id).map((c) => c.phase ?? 0))].sort((a, b) => a - b);
      return phases.map((phase) => ({
        deployment: `#${d.number}`,
        phase: phase + 1,
        ...outcomeOf(counts.filter((c) => c.deploymentId === d.id && c.phase === phase)),
      }));
    });
    return {
      columns: [
        { key: "deployment", kind: "text", label: "reports.columns.deployment" },
        { key: "phase", kind: "count", label: "reports.columns.phase" },
        { key: "applied", kind: "count", label: "reports.deploymentOutcomes.applied" },
        { key: "failed", kind: "count", label: "reports.deploymentOutcomes.failed" },
        { key: "inProgress", kind: "count", label: "reports.deploymentOutcomes.inProgress" },
      ],
      rows: rows.map((row) => ({ ...row, label: `${row.deployment} · ${row.phase}` })),
      category: "label",
      series: ["applied", "failed", "inProgress"],
      unit: "reports.units.radios",
      summary: [{ label: "reports.summary.deployments", value: deployments.length }],
    };
  }

  const counts = await all<StateCount>(
    db,
    `SELECT deployment_id AS deploymentId, state, sum(radios) AS radios FROM report_deployment_counts
     WHERE deployment_id IN (${inRange}) GROUP BY deployment_id, state`,
    accountId,
    start,
    end,
  );
  // When the k-th radio had it: k = the share of the radios targeted, rounded up; never when
  // fewer than k radios had it (no probe). Up to a few thousand radios that had it, one probe of
  // deployment_devices_reached that steps over k - 1 entries is cheapest; beyond, the second the
  // k-th falls in is one seek of report_deployment_reach_upto (running totals by second,
  // migration 0023), then one probe steps over the radios of that second, so the cost stops
  // growing with the fleet. Both exact; one batch either way.
  // A targeted deployment's count is NOT_COUNTED (-1) for a moment after confirming (the clock counts it).
  const targetedOf = (d: { targeted: number }) => Math.max(0, d.targeted);
  const wanted = deployments.flatMap((d) => {
    const had = outcomeOf(counts.filter((c) => c.deploymentId === d.id)).applied;
    return milestones.map((share) => {
      const k = Math.max(1, Math.ceil(share * targetedOf(d)));
      return { id: d.id, k, sql: targetedOf(d) > 0 && k <= had ? orArchived(had <= directUpTo ? byOffset : bySecond) : null };
    });
  });
  const probes = wanted.filter((w) => w.sql !== null);
  const results = probes.length ? await db.batch<{ at: string }>(probes.map((w) => db.prepare(w.sql ?? "").bind(w.id, w.k))) : [];
  const reached = wanted.map((w) => (w.sql === null ? undefined : results[probes.indexOf(w)]?.results[0]?.at));
  const rows = deployments.map((d, i) => {
    const outcome = outcomeOf(counts.filter((c) => c.deploymentId === d.id));
    const at = (j: number) => reached[i * milestones.length + j];
    return {
      deployment: `#${d.number}`,
      state: d.state,
      targeted: targetedOf(d),
      ...outcome,
      notReported: Math.max(0, targetedOf(d) - outcome.applied - outcome.failed - outcome.inProgress),
      reached50: seconds(d.startedAt, at(0)),
      reached90: seconds(d.startedAt, at(1)),
      reached100: seconds(d.startedAt, at(2)),
    };
  });
  return {
    columns: [
      { key: "deployment", kind: "text", label: "reports.columns.deployment" },
      { key: "state", kind: "text", label: "reports.columns.state", translate: "deployments.states" },
      { key: "targeted", kind: "count", label: "reports.columns.targeted" },
      { key: "applied", kind: "count", label: "reports.deploymentOutcomes.applied" },
      { key: "failed", kind: "count", label: "reports.deploymentOutcomes.failed" },
      { key: "inProgress", kind: "count", label: "reports.deploymentOutcomes.inProgress" },
      { key: "notReported", kind: "count", label: "reports.deploymentOutcomes.notReported" },
      { key: "reached50", kind: "seconds", label: "reports.columns.reached50" },
      { key: "reached90", kind: "seconds", label: "reports.columns.reached90" },
      { key: "reached100", kind: "seconds", label: "reports.columns.reached100" },
    ],
    rows,
    category: "deployment",
    series: ["applied", "failed", "inProgress", "notReported"],
    unit: "reports.units.radios",
    summary: [
      { label: "reports.summary.deployments", value: deployments.length },
      { label: "reports.summary.radiosTargeted", value: rows.reduce((sum, row) => sum + row.targeted, 0) },
      { label: "reports.summary.failures", value: rows.reduce((sum, row) => sum + row.failed, 0) },
    ],
  };
}
