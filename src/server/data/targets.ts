import type { DeploymentTarget } from "@/schema/fleet/deployment-target";
import { bucketRange } from "@/schema/fleet/rollout";
import type { SyncState } from "@/schema/fleet/sync-state";
import { type GroupFilter, groupFilterSchema, normalTarget, type Target } from "@/schema/fleet/target";
import { type Bindable, type Db, first } from "./db";
import { targetMatchSql } from "./deployment-target-sql";
import { type Deployment, findDeployment } from "./deployments";
import type { SyncSql } from "./fleet-sync";
import { syncSqlFor } from "./fleet-sync";
import { phaseSizes } from "./phase-sizes";

/**
 * The SQL twin of a target (src/schema/fleet/target.ts): which of an account's active radios it
 * holds, as a WHERE clause over `devices d`. The conditions are those of the inventory's filters
 * (data/devices.ts filterSql) on the same indexes: site, location, (model, firmware), the tag
 * index, and a large account's stored sync states (radio_sync_states).
 *
 * A target is resolved first (its ids checked to be this account's, a saved group read), so the
 * SQL never meets another tenant's id and a refusal names the field to fix.
 */
export type ResolvedTarget =
  | { kind: "all" }
  /** Every filter holds (a saved group's conditions and the target's own, ANDed). */
  | { kind: "filter"; filters: GroupFilter[]; groupName?: string }
  | { kind: "failedOf"; deployment: Deployment };

export type TargetRefusal = { field: "siteId" | "locationId" | "groupId" | "deploymentId" | "sync"; message: string };

type Checked = { site: number; location: number; group: string | null; group_name: string | null; group_found: number };

/** The target with its ids checked against the account, or the field that names something not its. */
export async function resolveTarget(
  db: Db,
  accountId: string,
  target: Target,
): Promise<{ ok: true; target: ResolvedTarget } | { ok: false; refusal: TargetRefusal }> {
  const normal = normalTarget(target);
  if (normal.kind === "all") return { ok: true, target: normal };
  if (normal.kind === "failedOf") {
    const deployment = await findDeployment(db, normal.deploymentId);
    if (!deployment || deployment.accountId !== accountId)
      return { ok: false, refusal: { field: "deploymentId", message: "validation.DeploymentNotInAccount" } };
    return { ok: true, target: { kind: "failedOf", deployment } };
  }
  const { groupId, ...own } = normal.filter;
  // One round trip: each id is looked up only within this account (another tenant's is "not found").
  const row = await first<Checked>(
    db,
    `SELECT
       (?2 IS NULL OR EXISTS (SELECT 1 FROM sites WHERE id = ?2 AND account_id = ?1)) AS site,
       (?3 IS NULL OR EXISTS (SELECT 1 FROM locations WHERE id = ?3 AND account_id = ?1 AND (?2 IS NULL OR site_id = ?2))) AS location,
       (SELECT filter FROM radio_groups WHERE id = ?4 AND account_id = ?1) AS "group",
       (SELECT name FROM radio_groups WHERE id = ?4 AND account_id = ?1) AS group_name,
       (?4 IS NULL OR EXISTS (SELECT 1 FROM radio_groups WHERE id = ?4 AND account_id = ?1)) AS group_found`,
    accountId,
    own.siteId ?? null,
    own.locationId ?? null,
    groupId ?? null,
  );
  if (!row?.site) return { ok: false, refusal: { field: "siteId", message: "validation.SiteNotInAccount" } };
  if (!row.location) return { ok: false, refusal: { field: "locationId", message: "validation.LocationNotInAccount" } };
  if (!row.group_found) return { ok: false, refusal: { field: "groupId", message: "validation.GroupNotInAccount" } };
  const filters: GroupFilter[] = [own];
  if (row.group) filters.push(storedGroupFilter(row.group));
  return { ok: true, target: { kind: "filter", filters, ...(row.group_name ? { groupName: row.group_name } : {}) } };
}

/**
 * What a deployment keeps of its target (schema/fleet/deployment-target.ts): the conditions
 * ANDed into one set, frozen now (a later edit of the group does not move a running rollout),
 * or the failed radios of a deployment with its timed-out buckets as of now. A sync state is no
 * condition a deployment can follow: deploying changes it, so the target would empty itself.
 */
export function deploymentTargetOf(
  target: ResolvedTarget,
): { ok: true; target: DeploymentTarget | null } | { ok: false; refusal: TargetRefusal } {
  if (target.kind === "all") return { ok: true, target: null };
  if (target.kind === "failedOf") {
    const { deployment } = target;
    const ended = deployment.state === "cancelled" || deployment.state === "superseded";
    const shares = deployment.plan.phases.map((phase) => phase.share);
    const timedOutTo = !ended && deployment.timedOutPhase >= 0 ? bucketRange(shares, deployment.timedOutPhase).to : 0;
    // A retry of a retry retries the radios that reported a failure on it (its timed-out ones
    // are judged by their own deployment's target, which is no set of conditions).
    const within = deployment.target?.kind === "filter" ? conditionsOf(deployment.target) : {};
    const timedOut = deployment.target?.kind === "failedOf" ? 0 : timedOutTo;
    return {
      ok: true,
      target: { kind: "failedOf", deploymentId: deployment.id, number: deployment.number, timedOutTo: timedOut, ...within },
    };
  }
  if (target.filters.some((filter) => filter.sync !== undefined))
    return { ok: false, refusal: { field: "sync", message: "validation.SyncNotForDeployments" } };
  const merged: DeploymentConditions = {};
  const tags = new Set<string>();
  for (const filter of target.filters) {
    for (const field of ["siteId", "locationId", "model", "firmware"] as const) {
      const value = filter[field];
      if (value === undefined) continue;
      if (merged[field] !== undefined && merged[field] !== value) merged.none = true;
      merged[field] = value;
    }
    if (filter.tag !== undefined) tags.add(filter.tag.toLowerCase());
  }
  if (tags.size > 0) merged.tags = [...tags].sort();
  return { ok: true, target: { kind: "filter", ...merged, ...(target.groupName ? { groupName: target.groupName } : {}) } };
}

type DeploymentConditions = Omit<Extract<DeploymentTarget, { kind: "filter" }>, "kind" | "groupName">;

function conditionsOf(target: Extract<DeploymentTarget, { kind: "filter" }>): DeploymentConditions {
  const { kind: _kind, groupName: _name, ...conditions } = target;
  return conditions;
}

/**
 * A group's stored conditions. They were valid when saved; a condition that no longer parses
 * (a later, stricter schema) makes the group match nothing rather than everything.
 */
export function storedGroupFilter(json: string): GroupFilter {
  try {
    const parsed = groupFilterSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through to "matches nothing"
  }
  return { siteId: "" };
}

/** The WHERE clause of a resolved target over `devices d` (the account's active radios it holds). */
export function targetWhere(accountId: string, target: ResolvedTarget, states?: SyncSql): { where: string; params: Bindable[] } {
  const where = ["d.account_id = ?", "d.status = 'active'"];
  const params: Bindable[] = [accountId];
  const add = (sql: string, ...values: Bindable[]) => {
    where.push(sql);
    params.push(...values);
  };
  if (target.kind === "filter")
    for (const filter of target.filters) {
      if (filter.siteId !== undefined) add("d.site_id = ?", filter.siteId);
      if (filter.locationId !== undefined) add("d.location_id = ?", filter.locationId);
      if (filter.model !== undefined) add("d.model = ?", filter.model);
      if (filter.firmware !== undefined) add("d.firmware = ?", filter.firmware);
      if (filter.tag !== undefined) add("d.uid IN (SELECT t.uid FROM device_tags t WHERE t.tag = lower(?))", filter.tag);
      if (filter.sync !== undefined) add(...syncCondition(accountId, filter.sync, states));
    }
  if (target.kind === "failedOf") {
    const { deployment } = target;
    // The radios that reported failed or rejected, and (while it did not end by a person's
    // cancel) those of its timed-out phases that never reported: what its page calls timed out.
    const ended = deployment.state === "cancelled" || deployment.state === "superseded";
    const shares = deployment.plan.phases.map((phase) => phase.share);
    const timedOutTo = !ended && deployment.timedOutPhase >= 0 ? bucketRange(shares, deployment.timedOutPhase).to : 0;
    add(
      `(EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ? AND x.uid = d.uid AND x.state IN ('failed', 'rejected'))
        OR (d.rollout_bucket < ? AND NOT EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ? AND x.uid = d.uid)))`,
      deployment.id,
      timedOutTo,
      deployment.id,
    );
  }
  return { where: where.join(" AND "), params };
}

/** A sync-state condition: by the stored states' index for a large account, else its live expression. */
function syncCondition(accountId: string, sync: SyncState, states?: SyncSql): [string, ...Bindable[]] {
  if (states?.stored)
    return [
      "EXISTS (SELECT 1 FROM radio_sync_states r WHERE r.uid = d.uid AND r.account_id = ? AND r.sync = ?)",
      accountId,
      sync,
    ];
  if (states) return [`(${states.sync}) = ?`, sync];
  return ["0"]; // no expressions given: the caller did not read the account's deployments (never silently "all")
}

/** Whether a resolved target needs the account's sync expressions (one more read). */
export function needsSyncStates(target: ResolvedTarget): boolean {
  return target.kind === "filter" && target.filters.some((filter) => filter.sync !== undefined);
}

/** How many of the account's active radios a resolved target holds now. */
export async function countTarget(db: Db, accountId: string, target: ResolvedTarget, at = new Date()): Promise<number> {
  const states = needsSyncStates(target) ? (await syncSqlFor(db, accountId, "d", at)).states : undefined;
  const { where, params } = targetWhere(accountId, target, states);
  const row = await first<{ n: number }>(db, `SELECT count(*) AS n FROM devices d WHERE ${where}`, ...params);
  return row?.n ?? 0;
}

/**
 * How many of the target's radios each phase of a plan would hold (phases are cumulative shares
 * of the rollout buckets). Every radio: the bucket index's range counts (phase-sizes.ts); a
 * narrower target: one pass over its radios, each counted in its phase's range.
 */
export async function targetPhaseSizes(
  db: Db,
  accountId: string,
  target: ResolvedTarget,
  shares: readonly number[],
  at = new Date(),
): Promise<number[]> {
  if (target.kind === "all") return phaseSizes(db, accountId, shares);
  const states = needsSyncStates(target) ? (await syncSqlFor(db, accountId, "d", at)).states : undefined;
  const { where, params } = targetWhere(accountId, target, states);
  const ranges = shares.map((_, i) => bucketRange(shares, i));
  // The bucket is a virtual generated column (a 64-term hash of the uid): computed once per
  // radio in a materialized step, not once per phase and bound.
  const sums = ranges.map((range, i) => `sum(b >= ${range.from} AND b < ${range.to}) AS p${i}`);
  const row = await first<Record<string, number | null>>(
    db,
    `WITH t AS MATERIALIZED (SELECT d.rollout_bucket AS b FROM devices d WHERE ${where}) SELECT ${sums.join(", ")} FROM t`,
    ...params,
  );
  return shares.map((_, i) => row?.[`p${i}`] ?? 0);
}

/**
 * How many radios a deployment's (frozen) target holds now, and how many each phase of a plan
 * would: what the confirm page shows before anything is confirmed. Every radio: the seat counter
 * and the bucket index's range counts; a target: one pass over the account's radios.
 */
export async function deploymentTargetSizes(
  db: Db,
  accountId: string,
  target: DeploymentTarget | null,
  shares: readonly number[],
): Promise<{ total: number; phases: number[] }> {
  if (target === null) {
    const phases = await phaseSizes(db, accountId, shares);
    return { total: phases.reduce((sum, n) => sum + n, 0), phases };
  }
  if (shares.length === 1 && shares[0] === 100) {
    // Only the total (a confirm): no bucket to read at all.
    const row = await first<{ n: number }>(
      db,
      `SELECT count(*) AS n FROM devices d WHERE d.account_id = ? AND d.status = 'active' AND ${targetMatchSql("d", target)}`,
      accountId,
    );
    return { total: row?.n ?? 0, phases: [row?.n ?? 0] };
  }
  const ranges = shares.map((_, i) => bucketRange(shares, i));
  const sums = ranges.map((range, i) => `sum(b >= ${range.from} AND b < ${range.to}) AS p${i}`);
  const row = await first<Record<string, number | null>>(
    db,
    `WITH t AS MATERIALIZED (SELECT d.rollout_bucket AS b FROM devices d
       WHERE d.account_id = ? AND d.status = 'active' AND ${targetMatchSql("d", target)})
     SELECT count(*) AS n, ${sums.join(", ")} FROM t`,
    accountId,
  );
  return { total: row?.n ?? 0, phases: shares.map((_, i) => row?.[`p${i}`] ?? 0) };
}

/** The place a deployment's target names, as people read it ("North garage › Bay 2"), or null. */
export async function targetPlaceName(db: Db, deployment: Deployment): Promise<string | null> {
  const target = deployment.target;
  if (!target || (target.siteId === undefined && target.locationId === undefined)) return null;
  const row = await first<{ site: string | null; location: string | null }>(
    db,
    `SELECT (SELECT name FROM sites WHERE id = ?2 AND account_id = ?1) AS site,
       (SELECT name FROM locations WHERE id = ?3 AND account_id = ?1) AS location`,
    deployment.accountId,
    target.siteId ?? null,
    target.locationId ?? null,
  );
  const names = [row?.site, row?.location].filter((name): name is string => Boolean(name));
  return names.length > 0 ? names.join(" › ") : null;
}
