import { decidedBuckets } from "@/schema/fleet/desired-deployment";
import { BUCKETS } from "@/schema/fleet/rollout";
import { type ContactState, emptySyncCounts, overdueBefore, type SyncCounts, type SyncState } from "@/schema/fleet/sync-state";
import { all, type Db } from "./db";
import { type Deployment, deploymentsConcerningRadios, deploymentsConcerningRadiosSql } from "./deployments";

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
};

const literal = (text: string) => `'${text.replaceAll("'", "''")}'`;

function reported(alias: string, deploymentId: string, states?: readonly string[]): string {
  const state = states ? ` AND x.state IN (${states.map(literal).join(", ")})` : "";
  return `EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ${literal(deploymentId)} AND x.uid = ${alias}.uid${state})`;
}

/** Sync and contact expressions for an account's radios, from the deployments that concern them (newest first). */
export function syncSqlOf(deployments: readonly Deployment[], alias: string, now: Date): SyncSql {
  const branches = deployments.map((d) => {
    const buckets = decidedBuckets({ ...d, shares: d.plan.phases.map((p) => p.share) });
    const decided = buckets >= BUCKETS ? "1" : buckets > 0 ? `${alias}.rollout_bucket < ${buckets}` : "0";
    const covers = decided === "1" ? "1" : `(${decided} OR ${reported(alias, d.id)})`;
    return `WHEN ${covers} THEN CASE WHEN ${reported(alias, d.id, ["failed", "rejected"])} THEN 'failed'
      WHEN ${alias}.reported_revision = ${literal(d.revisionId)} THEN 'inSync' ELSE 'pending' END`;
  });
  const sync = `CASE
    WHEN ${alias}.reported_revision IS NOT NULL AND NOT EXISTS (
      SELECT 1 FROM revisions rv WHERE rv.id = ${alias}.reported_revision AND rv.account_id = ${alias}.account_id) THEN 'drifted'
    ${branches.join("\n    ")}
    ELSE 'neverDeployed' END`;
  const contact = `CASE WHEN ${alias}.last_seen_at IS NULL THEN 'neverSeen'
    WHEN ${alias}.last_seen_at < ${literal(overdueBefore(now))} THEN 'overdue' ELSE 'recent' END`;
  return { sync, contact };
}

/** The expressions for one account, now (one read of its deployments). */
export async function syncSql(db: Db, accountId: string, alias: string, now = new Date()): Promise<SyncSql> {
  return syncSqlOf(await deploymentsConcerningRadios(db, accountId), alias, now);
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
  const key = groupBy ? `v.${groupBy}` : "NULL";
  const guard = unlessSnapshot ? " AND NOT EXISTS (SELECT 1 FROM sync_snapshot_times t WHERE t.account_id = ?1)" : "";
  return `WITH deps AS MATERIALIZED (${deploymentsConcerningRadiosSql("?1")}),
     followed AS MATERIALIZED (
       SELECT v.uid, v.reported_revision, CASE WHEN v.last_seen_at IS NULL THEN 'neverSeen'
           WHEN v.last_seen_at < ?2 THEN 'overdue' ELSE 'recent' END AS contact, ${key} AS key,
         (SELECT p.id FROM deps p WHERE v.rollout_bucket < p.decided_to
            OR EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = p.id AND x.uid = v.uid)
          ORDER BY p.number DESC LIMIT 1) AS deployment_id
       FROM devices v WHERE v.account_id = ?1 AND v.status = 'active'${guard}
     ),
     states AS MATERIALIZED (
       SELECT CASE
         WHEN f.reported_revision IS NOT NULL AND NOT EXISTS (
           SELECT 1 FROM revisions rv WHERE rv.id = f.reported_revision AND rv.account_id = ?1) THEN 'drifted'
         WHEN f.deployment_id IS NULL THEN 'neverDeployed'
         WHEN EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = f.deployment_id AND x.uid = f.uid
                      AND x.state IN ('failed', 'rejected')) THEN 'failed'
         WHEN f.reported_revision = (SELECT p.revision_id FROM deps p WHERE p.id = f.deployment_id) THEN 'inSync'
         ELSE 'pending' END AS sync, f.contact, f.key
       FROM followed f
     )
     SELECT sync, contact, key, count(*) AS radios FROM states GROUP BY 1, 2, 3`;
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
