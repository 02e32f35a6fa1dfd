import { decidedBuckets } from "@/schema/fleet/desired-deployment";
import { BUCKETS } from "@/schema/fleet/rollout";
import { type ContactState, emptySyncCounts, overdueBefore, type SyncCounts, type SyncState } from "@/schema/fleet/sync-state";
import { all, type Db, first } from "./db";
import { targetColumnsMatchSql, targetMatchSql } from "./deployment-target-sql";
import {
  type Deployment,
  type DeploymentRow,
  deploymentsConcerningRadiosSql,
  recentDeploymentsJsonSql,
  toDeployment,
} from "./deployments";
import { contactStateSql } from "./radio-contact";

/**
 * The SQL twin of schema/fleet/sync-state.ts: a radio's sync and contact state as expressions
 * over a `devices` row, so counts, filters, reports and CSVs are one grouped query that agrees
 * with what the device protocol tells each radio (desired-deployment.ts). The deployments that
 * may concern a radio (a handful) are read first and written into the expression as literals
 * (their ids are ours, never a person's input).
 */
export type SyncSql = {
  /** 'inSync' | 'pending' | 'failed' | 'drifted' | 'neverDeployed' for the row `alias`. */
  sync: string;
  /** 'recent' | 'overdue' | 'neverSeen' for the row `alias`. */
  contact: string;
  /**
   * A large account's snapshot (sync-snapshots.ts): each radio's sync state as counted then, kept
   * in radio_sync_states, and how many radios each state had. A sync filter reads those by index;
   * `sync` above reads them too (the live expression only for a radio added since).
   */
  stored?: { accountId: string; radios: Partial<Record<SyncState, number>> };
};

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function reported(alias: string, deploymentId: string, states?: readonly string[]): string {
  const state = states ? ` AND x.state IN (${states.map(literal).join(", ")})` : "";
  return `EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ${literal(deploymentId)} AND x.uid = ${alias}.uid${state})`;
}

/** Sync and contact expressions for an account's radios, from the deployments that concern them (newest first). */
export function syncSqlOf(deployments: readonly Deployment[], alias: string, now: Date, stored?: SyncSql["stored"]): SyncSql {
  const branches = deployments.map((d) => {
    const buckets = decidedBuckets({ ...d, shares: d.plan.phases.map((p) => p.share) });
    const inBuckets = buckets >= BUCKETS ? "1" : buckets > 0 ? `${alias}.rollout_bucket < ${buckets}` : "0";
    const held = targetMatchSql(alias, d.target);
    const decided = inBuckets === "0" || held === "0" ? "0" : held === "1" ? inBuckets : `(${inBuckets} AND ${held})`;
    const covers = decided === "1" ? "1" : `(${decided} OR ${reported(alias, d.id)})`;
    return `WHEN ${covers} THEN CASE WHEN ${reported(alias, d.id, ["failed", "rejected"])} THEN 'failed'
      WHEN ${alias}.reported_revision = ${literal(d.revisionId)} THEN 'inSync' ELSE 'pending' END`;
  });
  const sync = `CASE
    WHEN ${alias}.reported_revision IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM revisions rv WHERE rv.id = ${alias}.reported_revision AND rv.account_id = ${alias}.account_id) THEN 'drifted'
    ${branches.join("\n    ")}
    ELSE 'neverDeployed' END`;
  const contact = contactStateSql(alias, literal(overdueBefore(now)));
  if (!stored) return { sync, contact };
  const kept = `(SELECT r.sync FROM radio_sync_states r WHERE r.uid = ${alias}.uid AND r.account_id = ${literal(stored.accountId)})`;
  return { sync: `coalesce(${kept}, ${sync})`, contact, stored };
}

/** The expressions for one account, now (one read of its deployments). */
export async function syncSql(db: Db, accountId: string, alias: string, now = new Date()): Promise<SyncSql> {
  return (await syncSqlFor(db, accountId, alias, now)).states;
}

/**
 * An account's expressions and the deployments they were made of, in one read (its deployments
 * and, for a large account, its snapshot's counts by sync state).
 */
export async function syncSqlFor(
  db: Db,
  accountId: string,
  alias: string,
  now = new Date(),
): Promise<{ states: SyncSql; deployments: Deployment[] }> {
  const row = await first<{ rows: string; stored: string | null }>(
    db,
    `SELECT ${recentDeploymentsJsonSql("?1")} AS rows,
       (SELECT json_group_object(sync, radios) FROM (SELECT s.sync, sum(s.radios) AS radios FROM sync_snapshots s
          WHERE s.account_id = ?1 GROUP BY s.sync)) AS stored,
       EXISTS (SELECT 1 FROM sync_snapshot_times t WHERE t.account_id = ?1) AS snapshot`,
    accountId,
  );
  // Sync states are about configuration: firmware deployments are another track.
  const deployments = (JSON.parse(row?.rows ?? "[]") as DeploymentRow[])
    .map(toDeployment)
    .filter((d) => d.kind === "config")
    .sort((a, b) => b.number - a.number);
  const snapshot = (row as { snapshot?: number } | null)?.snapshot === 1;
  const stored = snapshot
    ? { accountId, radios: JSON.parse(row?.stored ?? "{}") as Partial<Record<SyncState, number>> }
    : undefined;
  return { states: syncSqlOf(deployments, alias, now, stored), deployments };
}

export type SyncGroup = { sync: SyncState; contact: ContactState; radios: number };

/**
 * The statement behind syncGroups: an account's (?1) active radios by sync × contact state and
 * `key`, contact judged against ?2 (overdueBefore). The deployments that concern the radios come
 * from `deploymentsConcerningRadiosSql` in the same query rather than as literals; the model test
 * (tests/worker/deployment-model.ts) holds it equal to `syncOf`, and the fleet-truth test to
 * `syncSqlOf`'s filters. Each radio's states are computed once (materialized). Also the body of
 * a snapshot's refresh (sync-snapshots.ts), so both count alike. `unlessSnapshot`: counts nothing
 * when the account has a snapshot (a constant condition: its radios are not read at all).
 */
export function syncGroupsSql(groupBy?: "site_id" | "reported_revision", { unlessSnapshot = false } = {}): string {
  // The account's id, or NULL when it has a snapshot: an index seek that finds no radio at all.
  const account = unlessSnapshot
    ? "(SELECT ?1 WHERE NOT EXISTS (SELECT 1 FROM sync_snapshot_times t WHERE t.account_id = ?1))"
    : "?1";
  return `${statesSql(groupBy ? `v.${groupBy}` : "NULL", "", account)}
     SELECT sync, contact, key, count(*) AS radios FROM states GROUP BY 1, 2, 3`;
}

/** Each radio's (uid, sync) of an account (?1) with uid in (?3, ?4]: a chunk of a snapshot's refresh. */
export function radioSyncStatesSql(): string {
  return `${statesSql("NULL", " AND v.uid > ?3 AND v.uid <= ?4")} SELECT uid, sync FROM states`;
}

/** The CTE `states` (uid, sync, contact, key) over an account's (?1) active radios; contact against ?2. */
function statesSql(key: string, where: string, account = "?1"): string {
  return `WITH deps AS MATERIALIZED (${deploymentsConcerningRadiosSql("?1")}),
     followed AS MATERIALIZED (
       SELECT v.uid, v.reported_revision, ${contactStateSql("v", "?2")} AS contact, ${key} AS key,
         (SELECT p.id FROM deps p WHERE (v.rollout_bucket < p.decided_to AND ${targetColumnsMatchSql("p", "v")})
            OR EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = p.id AND x.uid = v.uid)
          ORDER BY p.number DESC LIMIT 1) AS deployment_id
       FROM devices v WHERE v.account_id = ${account} AND v.status = 'active'${where}
     ),
     states AS MATERIALIZED (
       SELECT f.uid, CASE
         WHEN f.reported_revision IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM revisions rv WHERE rv.id = f.reported_revision AND rv.account_id = ?1) THEN 'drifted'
         WHEN f.deployment_id IS NULL THEN 'neverDeployed'
         WHEN EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = f.deployment_id AND x.uid = f.uid
                      AND x.state IN ('failed', 'rejected')) THEN 'failed'
         WHEN f.reported_revision = (SELECT p.revision_id FROM deps p WHERE p.id = f.deployment_id) THEN 'inSync'
         ELSE 'pending' END AS sync, f.contact, f.key
       FROM followed f
     )`;
}

/**
 * An account's active radios by sync × contact state, grouped further by `groupBy` (a column of
 * `v`), counted now in ONE statement (a page's round trips are few, DESIGN §8). Its cost follows
 * the account's radios (about 5 µs each): pages read `accountSyncGroups`, which takes a large
 * account's snapshot instead.
 */
export async function syncGroups(
  db: Db,
  accountId: string,
  { now = new Date(), groupBy }: { now?: Date; groupBy?: "site_id" | "reported_revision" } = {},
): Promise<(SyncGroup & { key: string | null })[]> {
  return all<SyncGroup & { key: string | null }>(db, syncGroupsSql(groupBy), accountId, overdueBefore(now));
}

/** An account's radios counted on both dimensions: the numbers every screen shows. */
export async function syncCounts(db: Db, accountId: string, now = new Date()): Promise<SyncCounts> {
  const counts = emptySyncCounts();
  for (const group of await syncGroups(db, accountId, { now })) {
    counts.total += group.radios;
    counts.sync[group.sync] += group.radios;
    counts.contact[group.contact] += group.radios;
  }
  return counts;
}
