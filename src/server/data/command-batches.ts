import { commandLimits } from "@/schema/fleet/commands";
import type { D1PreparedStatement } from "../cloudflare";
import { all, type Db, first, statement } from "./db";

/** Bulk command batches (issue 25): one row per bulk send, its commands share batch_id. */

export const batchStates = ["queued", "sent", "delivered", "succeeded", "failed", "expired", "cancelled"] as const;
export type BatchState = (typeof batchStates)[number];
export type BatchCounts = Record<BatchState, number> & { total: number };

export type BatchTarget = { uids: number } | { filter: Record<string, unknown> } | { retryOf: string };

export type CommandBatch = {
  id: string;
  orgId: string;
  accountId: string | null;
  type: string;
  params: Record<string, unknown>;
  target: BatchTarget;
  retryOf: string | null;
  createdByEmail: string;
  createdAt: string;
  expiresAt: string;
};

type Row = {
  id: string;
  org_id: string;
  account_id: string | null;
  type: string;
  params: string;
  target: string;
  retry_of: string | null;
  created_by_email: string;
  created_at: string;
  expires_at: string;
};

const toBatch = (row: Row): CommandBatch => ({
  id: row.id,
  orgId: row.org_id,
  accountId: row.account_id,
  type: row.type,
  params: JSON.parse(row.params),
  target: JSON.parse(row.target),
  retryOf: row.retry_of,
  createdByEmail: row.created_by_email,
  createdAt: row.created_at,
  expiresAt: row.expires_at,
});

export type NewBatch = Omit<CommandBatch, "createdByEmail"> & { actor: { id: string; email: string } };

export function insertBatchStatement(db: Db, b: NewBatch): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO command_batches (id, org_id, account_id, type, params, target, retry_of, created_by, created_by_email, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    b.id,
    b.orgId,
    b.accountId,
    b.type,
    JSON.stringify(b.params),
    JSON.stringify(b.target),
    b.retryOf,
    b.actor.id,
    b.actor.email,
    b.createdAt,
    b.expiresAt,
  );
}

export async function findBatch(db: Db, id: string): Promise<CommandBatch | null> {
  const row = await first<Row>(db, "SELECT * FROM command_batches WHERE id = ?", id);
  return row ? toBatch(row) : null;
}

/** The batches of an organization (or one account), newest first, keyset on (created_at, id). */
export async function listBatches(
  db: Db,
  scope: { orgId: string; accountId: string | null },
  after: { createdAt: string; id: string } | null,
  limit: number,
): Promise<{ items: CommandBatch[]; next: { createdAt: string; id: string } | null }> {
  const where = scope.accountId ? "account_id = ?" : "org_id = ? AND account_id IS NULL";
  const rows = await all<Row>(
    db,
    `SELECT * FROM command_batches WHERE ${where} ${after ? "AND (created_at, id) < (?, ?)" : ""}
     ORDER BY created_at DESC, id DESC LIMIT ?`,
    scope.accountId ?? scope.orgId,
    ...(after ? [after.createdAt, after.id] : []),
    limit + 1,
  );
  const items = rows.slice(0, limit).map(toBatch);
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** Counts per state of one batch: a GROUP BY over the (batch_id, state) index, no table rows read. */
export async function batchCounts(db: Db, batchId: string): Promise<BatchCounts> {
  const rows = await all<{ state: BatchState; n: number }>(
    db,
    "SELECT state, count(*) AS n FROM commands WHERE batch_id = ? GROUP BY state",
    batchId,
  );
  const counts = Object.fromEntries(batchStates.map((s) => [s, 0])) as BatchCounts;
  counts.total = 0;
  for (const row of rows) {
    counts[row.state] = row.n;
    counts.total += row.n;
  }
  return counts;
}

export type BatchRadio = { id: string; uid: string; state: BatchState; code: string; endedAt: string | null };

/** The radios of one batch in one state, by uid (keyset), from the (batch_id, state, uid) index. */
export async function batchRadios(
  db: Db,
  batchId: string,
  state: BatchState,
  afterUid: string | null,
  limit: number,
): Promise<{ items: BatchRadio[]; next: string | null }> {
  const rows = await all<{ id: string; uid: string; state: BatchState; code: string; ended_at: string | null }>(
    db,
    `SELECT id, uid, state, code, ended_at FROM commands WHERE batch_id = ? AND state = ? ${afterUid ? "AND uid > ?" : ""}
     ORDER BY uid LIMIT ?`,
    batchId,
    state,
    ...(afterUid ? [afterUid] : []),
    limit + 1,
  );
  const items = rows.slice(0, limit).map((r) => ({ id: r.id, uid: r.uid, state: r.state, code: r.code, endedAt: r.ended_at }));
  return { items, next: rows.length > limit ? (items.at(-1)?.uid ?? null) : null };
}

/**
 * Cancels every command of the batch the radios have not taken (queued or sent) in one
 * statement, whatever the batch's size; delivered and ended ones are left as they are.
 */
export function cancelBatchStatement(db: Db, input: { batchId: string; email: string; at: string }): D1PreparedStatement {
  return statement(
    db,
    `UPDATE commands SET state = 'cancelled', ended_at = ?, cancelled_by_email = ?
     WHERE batch_id = ? AND state IN ('queued', 'sent') AND expires_at > ?`,
    input.at,
    input.email,
    input.batchId,
    input.at,
  );
}

/**
 * One activity entry for a batch's cancel (the batch is the entity: one row, not one per
 * command), carrying how many were cancelled, counted from the rows it just changed.
 */
export function cancelBatchActivityStatement(
  db: Db,
  batch: CommandBatch,
  actor: { id: string; email: string },
  at: string,
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     VALUES ('log_' || lower(hex(randomblob(10))), ?, ?, ?, ?, 'update', 'command-batch', ?, ?,
       json_object('cancelled', json_object('after',
         (SELECT count(*) FROM commands WHERE batch_id = ? AND state = 'cancelled' AND ended_at = ?))), 0, ?)`,
    batch.orgId,
    batch.accountId,
    actor.id,
    actor.email,
    batch.id,
    `${batch.type} × batch`,
    batch.id,
    at,
    at,
  );
}

/**
 * Queues the original's command again for each radio whose command failed or expired, as a
 * new batch (one statement): only active radios with room in their queue.
 */
export function insertRetryStatement(
  db: Db,
  from: CommandBatch,
  c: { batchId: string; priority: number; actor: { id: string; email: string }; createdAt: string; expiresAt: string },
): D1PreparedStatement {
  return statement(
    db,
    `WITH picked AS MATERIALIZED (
       SELECT d.uid, d.org_id, d.account_id, lower(hex(randomblob(16))) AS h
       FROM commands o JOIN devices d ON d.uid = o.uid
       WHERE o.batch_id = ? AND o.state IN ('failed', 'expired') AND d.status = 'active' AND d.org_id = ?
         AND (SELECT count(*) FROM commands c WHERE c.uid = d.uid AND c.state IN ('queued', 'sent')) < ${commandLimits.queue}
     )
     INSERT INTO commands (id, uid, org_id, account_id, type, params, priority, batch_id, created_by, created_by_email, created_at, expires_at)
     SELECT substr(h, 1, 8) || '-' || substr(h, 9, 4) || '-4' || substr(h, 14, 3) || '-' ||
       substr('89ab', 1 + (abs(random()) % 4), 1) || substr(h, 18, 3) || '-' || substr(h, 21, 12),
       uid, org_id, account_id, ?, ?, ?, ?, ?, ?, ?, ? FROM picked`,
    from.id,
    from.orgId,
    from.type,
    JSON.stringify(from.params),
    c.priority,
    c.batchId,
    c.actor.id,
    c.actor.email,
    c.createdAt,
    c.expiresAt,
  );
}
