import type { R2Bucket } from "../cloudflare";
import {
  type ArchiveKind,
  accountsDueForRetention,
  compactReachStatement,
  deleteArchivedStatements,
  keepArchivedCountsStatement,
  markRetentionChecked,
  oldActivity,
  oldCommands,
  oldDeploymentWithOutcomes,
  outcomesOf,
  type RetentionAccount,
  recordArchiveStatement,
  retentionCutoff,
} from "../data/archives";
import type { Db } from "../data/db";
import { deploymentCounts, findDeployment } from "../data/deployments";
import { milestones } from "../data/reports/deployments";
import { writeVerifiedArchive } from "./archive-object";

/** Accounts looked at per run, and how long an account with nothing left waits for its next look. */
export const ACCOUNTS_PER_RUN = 5;
const RECHECK_AFTER_MS = 60 * 60 * 1000;

/** One chunk the sweep may move: its rows (oldest first), their keys, and where they go. */
type Chunk = {
  kind: ArchiveKind;
  rows: Record<string, unknown>[];
  keys: string[];
  month: string;
  firstAt: string;
  lastAt: string;
  deploymentId: string | null;
  /** The deployment's number, in the object's name. */
  label: string;
};

const monthOf = (at: string) => at.slice(0, 7);

/** The rows of one month from the oldest (a chunk never spans months: its key names one). */
function sameMonth(rows: Record<string, unknown>[], at: (row: Record<string, unknown>) => string) {
  const month = monthOf(at(rows[0] ?? {}));
  return rows.filter((row) => monthOf(at(row)) === month);
}

async function activityChunk(db: Db, account: RetentionAccount, cutoff: string): Promise<Chunk | null> {
  const rows = sameMonth(await oldActivity(db, account.id, cutoff), (row) => String(row.created_at));
  return timedChunk("activity", rows);
}

async function commandsChunk(db: Db, account: RetentionAccount, cutoff: string): Promise<Chunk | null> {
  const rows = sameMonth(await oldCommands(db, account.id, cutoff), (row) => String(row.created_at));
  return timedChunk("commands", rows);
}

function timedChunk(kind: ArchiveKind, rows: Record<string, unknown>[]): Chunk | null {
  if (!rows.length) return null;
  // ISO times sort as text.
  const times = rows.map((row) => String(row.created_at)).sort();
  const firstAt = times[0] ?? "";
  const lastAt = times[times.length - 1] ?? "";
  return {
    kind,
    rows,
    keys: rows.map((row) => String(row.id)),
    month: monthOf(firstAt),
    firstAt,
    lastAt,
    deploymentId: null,
    label: "",
  };
}

async function outcomesChunk(db: Db, account: RetentionAccount, cutoff: string): Promise<Chunk | null> {
  const deployment = await oldDeploymentWithOutcomes(db, account.id, cutoff);
  if (!deployment) return null;
  const rows = await outcomesOf(db, deployment.id);
  if (!rows.length) return null;
  const times = rows.map((row) => String(row.updated_at)).sort();
  return {
    kind: "deployment-outcomes",
    rows,
    keys: rows.map((row) => String(row.uid)),
    month: monthOf(deployment.endedAt),
    firstAt: times[0] ?? deployment.endedAt,
    lastAt: times[times.length - 1] ?? deployment.endedAt,
    deploymentId: deployment.id,
    label: `deployment-${deployment.number}-`,
  };
}

const part = (value: string | undefined) => encodeURIComponent(value ?? "");

/** `archive/<org>/<account>/`: every object of one account, and nothing of another, starts so. */
export function accountArchivePrefix(orgId: string, accountId: string): string {
  return `archive/${part(orgId)}/${part(accountId)}/`;
}

/** `archive/<org>/<account>/<kind>/<yyyy-mm>/<first>-<last>.ndjson.gz`: the same rows always make the same key. */
export function archiveKey(account: RetentionAccount, chunk: Chunk): string {
  const first = part(chunk.keys[0]);
  const last = part(chunk.keys[chunk.keys.length - 1]);
  return `${accountArchivePrefix(account.orgId, account.id)}${chunk.kind}/${chunk.month}/${chunk.label}${first}-${last}.ndjson.gz`;
}

/**
 * Moves one chunk: writes it to R2 and reads it back (writeVerifiedArchive), then in one D1
 * batch records the object and deletes exactly the rows written. A failure before the batch
 * deletes nothing; a re-run of the same rows writes the same key again and updates its entry.
 */
async function moveChunk(db: Db, bucket: R2Bucket, account: RetentionAccount, chunk: Chunk, at: Date): Promise<void> {
  const key = archiveKey(account, chunk);
  const written = await writeVerifiedArchive(bucket, key, chunk.rows);
  const keep = [];
  if (chunk.deploymentId) {
    // Its page shows these once the rows are gone (deploymentCounts reads them first); the
    // report keeps its milestone times.
    const deployment = await findDeployment(db, chunk.deploymentId);
    if (deployment) {
      keep.push(keepArchivedCountsStatement(db, deployment.id, await deploymentCounts(db, deployment)));
      const ks = milestones.map((share) => Math.max(1, Math.ceil(share * deployment.targeted)));
      keep.push(compactReachStatement(db, deployment.id, ks));
    }
  }
  await db.batch([
    ...keep,
    recordArchiveStatement(db, {
      orgId: account.orgId,
      accountId: account.id,
      kind: chunk.kind,
      month: chunk.month,
      firstAt: chunk.firstAt,
      lastAt: chunk.lastAt,
      firstKey: chunk.keys[0] ?? "",
      lastKey: chunk.keys[chunk.keys.length - 1] ?? "",
      deploymentId: chunk.deploymentId,
      rows: chunk.rows.length,
      bytes: written.bytes,
      sha256: written.sha256,
      r2Key: key,
      at: at.toISOString(),
    }),
    ...deleteArchivedStatements(db, chunk.kind, chunk.keys, chunk.deploymentId),
  ]);
}

export type RetentionRun = { accounts: number; archives: number; rows: number; failures: number };

/**
 * The scheduled trigger's retention work (issue 24): for the few accounts checked longest ago,
 * at most one chunk (ARCHIVE_CHUNK_ROWS rows, data/archives.ts) of each kind older than the account's retention
 * moves to R2. An account with nothing left waits an hour for its next look; one with more
 * stays first in line. Without an R2 binding nothing moves.
 */
export async function sweepRetention(db: Db, bucket: R2Bucket | undefined, at = new Date()): Promise<RetentionRun> {
  const run: RetentionRun = { accounts: 0, archives: 0, rows: 0, failures: 0 };
  if (!bucket) return run;
  const accounts = await accountsDueForRetention(db, new Date(at.getTime() - RECHECK_AFTER_MS).toISOString(), ACCOUNTS_PER_RUN);
  for (const account of accounts) {
    run.accounts += 1;
    const cutoff = retentionCutoff(at, account.retentionMonths);
    let more = false;
    try {
      for (const next of [activityChunk, commandsChunk, outcomesChunk]) {
        const chunk = await next(db, account, cutoff);
        if (!chunk) continue;
        await moveChunk(db, bucket, account, chunk, at);
        run.archives += 1;
        run.rows += chunk.rows.length;
        // A full chunk (or a month's end) may leave more of the kind: look again next run.
        more = true;
      }
    } catch (error) {
      // Nothing of the failed chunk left D1; the account stays first in line for the next run.
      console.error(`archiving account ${account.id} failed`, error);
      run.failures += 1;
      continue;
    }
    if (!more) await markRetentionChecked(db, account.id, at.toISOString()).run();
  }
  return run;
}
