import type { D1PreparedStatement } from "../cloudflare";
import { all, type Db, first, newId, statement } from "./db";

/** What moves to R2 once older than the account's retention (DESIGN.md §8, issue 24). */
export const archiveKinds = ["activity", "commands", "deployment-outcomes"] as const;
export type ArchiveKind = (typeof archiveKinds)[number];

/** Months an account keeps its rows in D1 unless set otherwise, and the bounds of the setting. */
export const RETENTION_DEFAULT_MONTHS = 13;
export const RETENTION_MIN_MONTHS = 1;
export const RETENTION_MAX_MONTHS = 120;

/**
 * Rows per archive object (and per kind, account and run): one run reads, writes and deletes
 * at most this many rows of a kind, which keeps a cron invocation well inside a Worker's CPU
 * time and a D1 batch small (the delete binds one JSON array of keys).
 */
export const ARCHIVE_CHUNK_ROWS = 5000;

/** One archive object as the index records it. */
export type Archive = {
  id: string;
  accountId: string;
  kind: ArchiveKind;
  month: string;
  firstAt: string;
  lastAt: string;
  deploymentId: string | null;
  rows: number;
  bytes: number;
  r2Key: string;
};

type ArchiveRow = {
  id: string;
  account_id: string;
  kind: ArchiveKind;
  month: string;
  first_at: string;
  last_at: string;
  deployment_id: string | null;
  row_count: number;
  bytes: number;
  r2_key: string;
};

function toArchive(row: ArchiveRow): Archive {
  return {
    id: row.id,
    accountId: row.account_id,
    kind: row.kind,
    month: row.month,
    firstAt: row.first_at,
    lastAt: row.last_at,
    deploymentId: row.deployment_id,
    rows: row.row_count,
    bytes: row.bytes,
    r2Key: row.r2_key,
  };
}

const archiveColumns = "id, account_id, kind, month, first_at, last_at, deployment_id, row_count, bytes, r2_key";

/** The account's archives of some kinds, newest month first (at most `limit`). */
export async function listArchives(db: Db, accountId: string, kinds: readonly ArchiveKind[], limit = 240): Promise<Archive[]> {
  const rows = await all<ArchiveRow>(
    db,
    `SELECT ${archiveColumns} FROM archives WHERE account_id = ?1 AND kind IN (SELECT value FROM json_each(?2))
     ORDER BY month DESC, first_at DESC LIMIT ?3`,
    accountId,
    JSON.stringify(kinds),
    limit,
  );
  return rows.map(toArchive);
}

/** The archives holding one deployment's per-radio outcomes (its page links them once the rows are gone). */
export async function deploymentArchives(db: Db, accountId: string, deploymentId: string): Promise<Archive[]> {
  const rows = await all<ArchiveRow>(
    db,
    `SELECT ${archiveColumns} FROM archives WHERE account_id = ? AND kind = 'deployment-outcomes' AND deployment_id = ?
     ORDER BY first_at`,
    accountId,
    deploymentId,
  );
  return rows.map(toArchive);
}

/** One archive of the account (another account's id answers null, like a missing one). */
export async function findArchive(db: Db, accountId: string, id: string): Promise<Archive | null> {
  const row = await first<ArchiveRow>(
    db,
    `SELECT ${archiveColumns} FROM archives WHERE id = ? AND account_id = ?`,
    id,
    accountId,
  );
  return row ? toArchive(row) : null;
}

/** The index entry of an object just written and read back; the same key again updates it (a re-run). */
export function recordArchiveStatement(
  db: Db,
  entry: Omit<Archive, "id"> & { orgId: string; firstKey: string; lastKey: string; sha256: string; at: string },
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO archives (id, org_id, account_id, kind, month, first_at, last_at, first_key, last_key, deployment_id, row_count, bytes, sha256, r2_key, created_at)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15)
     ON CONFLICT (r2_key) DO UPDATE SET first_at = excluded.first_at, last_at = excluded.last_at, row_count = excluded.row_count,
       bytes = excluded.bytes, sha256 = excluded.sha256, created_at = excluded.created_at`,
    newId("ar"),
    entry.orgId,
    entry.accountId,
    entry.kind,
    entry.month,
    entry.firstAt,
    entry.lastAt,
    entry.firstKey,
    entry.lastKey,
    entry.deploymentId,
    entry.rows,
    entry.bytes,
    entry.sha256,
    entry.r2Key,
    entry.at,
  );
}

// ---- Which accounts, and what of them, is due ----

export type RetentionAccount = { id: string; orgId: string; retentionMonths: number };

/** The accounts checked longest ago (not within the last `since`), a few per run. */
export async function accountsDueForRetention(db: Db, since: string, limit: number): Promise<RetentionAccount[]> {
  return all<RetentionAccount>(
    db,
    `SELECT id, org_id AS orgId, retention_months AS retentionMonths FROM accounts
     WHERE retention_checked_at < ? ORDER BY retention_checked_at LIMIT ?`,
    since,
    limit,
  );
}

/** The account had nothing left to archive at `at`: it waits for its next turn. */
export function markRetentionChecked(db: Db, accountId: string, at: string): D1PreparedStatement {
  return statement(db, "UPDATE accounts SET retention_checked_at = ? WHERE id = ?", at, accountId);
}

/** The cutoff of an account's retention: rows created (or deployments ended) before it move to R2. */
export function retentionCutoff(at: Date, months: number): string {
  const cutoff = new Date(at.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff.toISOString();
}

/** Rows of the activity log that may move: not a change still waiting to be deployed. */
const activityColumns =
  "id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, deployment_id, created_at";

/** The oldest archivable activity entries of the account before `cutoff`, oldest first. */
export function oldActivity(db: Db, accountId: string, cutoff: string): Promise<Record<string, unknown>[]> {
  return all(
    db,
    `SELECT ${activityColumns} FROM activity_logs INDEXED BY activity_logs_account_report
     WHERE account_id = ?1 AND created_at < ?2 AND (deployable = 0 OR deployment_id IS NOT NULL)
     ORDER BY created_at LIMIT ?3`,
    accountId,
    cutoff,
    ARCHIVE_CHUNK_ROWS,
  );
}

const commandColumns = `id, uid, org_id, account_id, type, params, priority, state, result, code, detail, batch_id,
  created_by, created_by_email, cancelled_by_email, created_at, expires_at, sent_at, delivered_at, ended_at`;

/** Final commands only: a queued, sent or delivered one may still change. */
const FINAL_COMMAND = "state IN ('succeeded', 'failed', 'expired', 'cancelled')";

/** The oldest final commands of the account sent before `cutoff`, oldest first. */
export function oldCommands(db: Db, accountId: string, cutoff: string): Promise<Record<string, unknown>[]> {
  return all(
    db,
    `SELECT ${commandColumns} FROM commands INDEXED BY commands_account_time
     WHERE account_id = ?1 AND created_at < ?2 AND ${FINAL_COMMAND}
     ORDER BY created_at LIMIT ?3`,
    accountId,
    cutoff,
    ARCHIVE_CHUNK_ROWS,
  );
}

/**
 * The oldest deployment of the account whose outcomes may move: ended (finished, cancelled or
 * superseded) before `cutoff` and older than the account's newest deployment that gives its
 * revision to every radio, so no radio's desired deployment or sync state can depend on its
 * rows any more (desired-deployment.ts reads nothing older; deployments.ts coversEveryRadioSql).
 * Configuration deployments only: a radio keeps the firmware deployment it reported on (none
 * covers every radio, each has a model fit), so firmware outcomes stay in D1.
 */
export async function oldDeploymentWithOutcomes(
  db: Db,
  accountId: string,
  cutoff: string,
): Promise<{ id: string; number: number; endedAt: string } | null> {
  return first(
    db,
    `SELECT d.id, d.number, coalesce(d.ended_at, d.updated_at) AS endedAt FROM deployments d
     WHERE d.account_id = ?1 AND d.kind = 'config' AND d.state IN ('finished', 'cancelled', 'superseded') AND coalesce(d.ended_at, d.updated_at) < ?2
       AND d.number < (SELECT ifnull(max(c.number), 0) FROM deployments c WHERE c.account_id = ?1 AND c.kind = 'config'
         AND (c.state = 'finished' OR (c.state IN ('running', 'superseded') AND c.started_at IS NOT NULL
           AND c.pause_reason IS NULL AND c.phase_index = json_array_length(c.plan, '$.phases') - 1)))
       AND EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = d.id)
     ORDER BY d.number LIMIT 1`,
    accountId,
    cutoff,
  );
}

/** A deployment's outcome rows, by uid, a chunk at a time. */
export function outcomesOf(db: Db, deploymentId: string): Promise<Record<string, unknown>[]> {
  return all(
    db,
    `SELECT deployment_id, uid, phase, state, code, detail, updated_at, attempts, retry_at, stage, progress, from_firmware FROM deployment_devices
     WHERE deployment_id = ? ORDER BY uid LIMIT ?`,
    deploymentId,
    ARCHIVE_CHUNK_ROWS,
  );
}

/** The counts a deployment page shows, kept once its outcomes start to move (written once). */
export function keepArchivedCountsStatement(db: Db, deploymentId: string, counts: unknown): D1PreparedStatement {
  return statement(
    db,
    "INSERT INTO deployment_archived_counts (deployment_id, counts) VALUES (?, ?) ON CONFLICT DO NOTHING",
    deploymentId,
    JSON.stringify(counts),
  );
}

/**
 * Once a deployment's outcomes move, its running totals by second (report_deployment_reach_upto,
 * one row per second a radio reported in: up to one per radio) shrink to the rows the report's
 * milestones read (the first second whose total reaches each k), so what stays in D1 for ever
 * is a few rows per deployment, not one per radio.
 */
export function compactReachStatement(db: Db, deploymentId: string, ks: number[]): D1PreparedStatement {
  return statement(
    db,
    `DELETE FROM report_deployment_reach_upto WHERE deployment_id = ?1 AND second NOT IN (
       SELECT kept FROM (SELECT (SELECT u.second FROM report_deployment_reach_upto u WHERE u.deployment_id = ?1 AND u.radios >= k.value
         ORDER BY u.radios LIMIT 1) AS kept FROM json_each(?2) k) WHERE kept IS NOT NULL)`,
    deploymentId,
    JSON.stringify(ks),
  );
}

/**
 * Deletes the archived rows (exactly the keys written) with the roll-ups' delete triggers held
 * (archive_deleting, migration 0030): the statements go in the one batch that also records the
 * archive, so the rows leave D1 only together with their index entry.
 */
export function deleteArchivedStatements(
  db: Db,
  kind: ArchiveKind,
  keys: string[],
  deploymentId: string | null,
): D1PreparedStatement[] {
  const list = JSON.stringify(keys);
  const remove =
    kind === "activity"
      ? statement(db, "DELETE FROM activity_logs WHERE id IN (SELECT value FROM json_each(?))", list)
      : kind === "commands"
        ? statement(db, `DELETE FROM commands WHERE ${FINAL_COMMAND} AND id IN (SELECT value FROM json_each(?))`, list)
        : statement(
            db,
            "DELETE FROM deployment_devices WHERE deployment_id = ? AND uid IN (SELECT value FROM json_each(?))",
            deploymentId,
            list,
          );
  return [
    statement(db, "INSERT OR IGNORE INTO archive_deleting (id) VALUES (1)"),
    remove,
    statement(db, "DELETE FROM archive_deleting"),
  ];
}
