import {
  type CommandParams,
  type CommandReportState,
  type CommandState,
  type CommandType,
  commandLimits,
  reportableFrom,
} from "@/schema/fleet/commands";
import type { D1PreparedStatement } from "../cloudflare";
import { all, type Bindable, type Db, first, jsonObjectOf, statement } from "./db";
import { type DeviceFilter, filterSql } from "./devices";

/**
 * Commands to radios (DESIGN.md §7, migration 0015). A radio's queue is read through a partial
 * index holding only waiting commands (at most 50 per radio), so it costs the same after a
 * million commands as after one. Every write is one conditional statement: the queue limit,
 * the lifecycle and idempotent reports are decided by SQLite, never by a read then a write.
 */
export type Command = {
  id: string;
  uid: string;
  orgId: string;
  accountId: string | null;
  type: CommandType;
  params: CommandParams;
  priority: number;
  state: CommandState;
  result: Record<string, unknown> | null;
  code: string;
  detail: string;
  batchId: string | null;
  createdByEmail: string;
  cancelledByEmail: string | null;
  createdAt: string;
  expiresAt: string;
  sentAt: string | null;
  deliveredAt: string | null;
  endedAt: string | null;
};

type Row = {
  id: string;
  uid: string;
  org_id: string;
  account_id: string | null;
  type: CommandType;
  params: string;
  priority: number;
  state: CommandState;
  result: string | null;
  code: string;
  detail: string;
  batch_id: string | null;
  created_by_email: string;
  cancelled_by_email: string | null;
  created_at: string;
  expires_at: string;
  sent_at: string | null;
  delivered_at: string | null;
  ended_at: string | null;
};

const columns = `id, uid, org_id, account_id, type, params, priority, state, result, code, detail, batch_id,
  created_by_email, cancelled_by_email, created_at, expires_at, sent_at, delivered_at, ended_at`;

const WAITING = "state IN ('queued', 'sent')";
/**
 * What can still expire (the commands_expiry index's own condition, migration 0019): a waiting
 * command, and a delivered one whose radio never reported by the expiry — it ends expired with
 * the code "no-report" instead of staying "delivered" for ever.
 */
const LAPSIBLE = "state IN ('queued', 'sent', 'delivered')";

function parseObject(text: string | null): Record<string, unknown> | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * A row as the app sees it. A waiting command past its expiry reads as expired even in the
 * moment before the sweep marks it (the sweep, not the read, writes it).
 */
export function toCommand(row: Row, at = new Date().toISOString()): Command {
  const lapsed = (row.state === "queued" || row.state === "sent" || row.state === "delivered") && row.expires_at <= at;
  return {
    id: row.id,
    uid: row.uid,
    orgId: row.org_id,
    accountId: row.account_id,
    type: row.type,
    params: (parseObject(row.params) ?? {}) as CommandParams,
    priority: row.priority,
    state: lapsed ? "expired" : row.state,
    result: parseObject(row.result),
    code: lapsed && row.state === "delivered" ? "no-report" : row.code,
    detail: row.detail,
    batchId: row.batch_id,
    createdByEmail: row.created_by_email,
    cancelledByEmail: row.cancelled_by_email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    sentAt: row.sent_at,
    deliveredAt: row.delivered_at,
    endedAt: lapsed ? row.expires_at : row.ended_at,
  };
}

export async function findCommand(db: Db, id: string): Promise<Command | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM commands WHERE id = ?`, id);
  return row ? toCommand(row) : null;
}

export type NewCommand = {
  id: string;
  uid: string;
  type: CommandType;
  params: CommandParams;
  priority: number;
  actor: { id: string; email: string };
  createdAt: string;
  expiresAt: string;
};

/** The queue-limit condition for radio `d`: fewer than 50 waiting (read from the partial index). */
const queueHasRoom = `(SELECT count(*) FROM commands c WHERE c.uid = d.uid AND c.${WAITING}) < ${commandLimits.queue}`;

/**
 * Queues one command for an active radio, only while its queue has room: no row written
 * means the queue is full (or the radio was retired meanwhile).
 */
export function insertCommandStatement(db: Db, c: NewCommand): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO commands (id, uid, org_id, account_id, type, params, priority, created_by, created_by_email, created_at, expires_at)
     SELECT ?, d.uid, d.org_id, d.account_id, ?, ?, ?, ?, ?, ?, ? FROM devices d
     WHERE d.uid = ? AND d.status = 'active' AND ${queueHasRoom}`,
    c.id,
    c.type,
    JSON.stringify(c.params),
    c.priority,
    c.actor.id,
    c.actor.email,
    c.createdAt,
    c.expiresAt,
    c.uid,
  );
}

/** A version-4 UUID per row, from SQLite's own random bytes (`h` is 32 hex digits). */
const uuidOf = (h: string) =>
  `substr(${h}, 1, 8) || '-' || substr(${h}, 9, 4) || '-4' || substr(${h}, 14, 3) || '-' ||
   substr('89ab', 1 + (abs(random()) % 4), 1) || substr(${h}, 18, 3) || '-' || substr(${h}, 21, 12)`;

/**
 * Queues one command for every radio a filter (or selection) names, in one statement: the
 * rows are made by SQLite from the devices index, so 10,000 radios cost what 10 do in
 * requests. Radios whose queue is full are skipped (the answer says how many).
 */
export function insertBulkStatement(
  db: Db,
  filter: DeviceFilter,
  c: Omit<NewCommand, "id" | "uid"> & { batchId: string },
): D1PreparedStatement {
  const { where, params } = filterSql(filter);
  return statement(
    db,
    `WITH picked AS MATERIALIZED (
       SELECT d.uid, d.org_id, d.account_id, lower(hex(randomblob(16))) AS h FROM devices d WHERE ${where} AND ${queueHasRoom}
     )
     INSERT INTO commands (id, uid, org_id, account_id, type, params, priority, batch_id, created_by, created_by_email, created_at, expires_at)
     SELECT ${uuidOf("h")}, uid, org_id, account_id, ?, ?, ?, ?, ?, ?, ?, ? FROM picked`,
    ...params,
    c.type,
    JSON.stringify(c.params),
    c.priority,
    c.batchId,
    c.actor.id,
    c.actor.email,
    c.createdAt,
    c.expiresAt,
  );
}

/** How many commands a bulk send queued (its batch's rows; `n`), read in the same batch. */
export function batchSizeStatement(db: Db, batchId: string): D1PreparedStatement {
  return statement(db, "SELECT count(*) AS n FROM commands WHERE batch_id = ?", batchId);
}

/** One activity entry per command of a bulk send, written by SQLite from the batch's rows. */
export function bulkActivityStatement(
  db: Db,
  batchId: string,
  actor: { id: string; email: string },
  at: string,
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     SELECT 'log_' || lower(hex(randomblob(10))), org_id, account_id, ?, ?, 'create', 'command', id, type || ' → ' || uid,
       json_object('type', json_object('after', type), 'radio', json_object('after', uid), 'params', json_object('after', json(params))), 0, ?
     FROM commands WHERE batch_id = ?`,
    actor.id,
    actor.email,
    at,
    batchId,
  );
}

/** The radios a bulk send queued for (to wake the live ones), a page of uids at a time. */
export async function uidsOfBatch(db: Db, batchId: string): Promise<string[]> {
  const rows = await all<{ uid: string }>(db, "SELECT uid FROM commands WHERE batch_id = ?", batchId);
  return rows.map((row) => row.uid);
}

/** The radio's queue in order (stun and revive first), at most `limit`: the partial index only. */
export function waitingCommandsStatement(db: Db, uid: string, limit: number = commandLimits.perCheckIn): D1PreparedStatement {
  return statement(
    db,
    `SELECT ${columns} FROM commands WHERE uid = ? AND ${WAITING} ORDER BY priority, created_at, id LIMIT ?`,
    uid,
    limit,
  );
}

/**
 * The radio's waiting commands as one JSON array of rows (for `toCommands`; sort them with
 * `byQueueOrder`, an aggregate promises no order), for a subquery of the radio's single read.
 */
export function waitingCommandsJsonSql(uid: string, limit: number = commandLimits.perCheckIn): string {
  return `(SELECT json_group_array(${jsonObjectOf(columns)}) FROM (
     SELECT ${columns} FROM commands c WHERE c.uid = ${uid} AND c.${WAITING} ORDER BY c.priority, c.created_at, c.id LIMIT ${Number(limit)}))`;
}

/** The queue's order: priority (stun first), then oldest first. */
export function byQueueOrder(a: Command, b: Command): number {
  return a.priority - b.priority || compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);
}

const compareText = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export async function waitingCommands(db: Db, uid: string, limit: number = commandLimits.queue): Promise<Command[]> {
  const { results } = await waitingCommandsStatement(db, uid, limit).all<Row>();
  return results.map((row) => toCommand(row));
}

export function toCommands(rows: unknown[], at = new Date().toISOString()): Command[] {
  return (rows as Row[]).map((row) => toCommand(row, at));
}

/** Handed to the radio (a check-in answered with them): queued → sent, once. */
export function markSentStatement(db: Db, ids: string[], at: string): D1PreparedStatement {
  return statement(
    db,
    "UPDATE commands SET state = 'sent', sent_at = ? WHERE id IN (SELECT value FROM json_each(?)) AND state = 'queued'",
    at,
    JSON.stringify(ids),
  );
}

/**
 * A radio's report, applied only from a state it may follow and before a waiting command
 * expired: a repeat, a late or a stale report changes nothing (the caller reads why).
 */
export function reportStatement(
  db: Db,
  input: { id: string; uid: string; state: CommandReportState; result: unknown; code: string; detail: string; at: string },
): D1PreparedStatement {
  const from = reportableFrom[input.state].map((s) => `'${s}'`).join(", ");
  const final = input.state !== "delivered";
  return statement(
    db,
    `UPDATE commands SET state = ?, sent_at = coalesce(sent_at, ?), delivered_at = coalesce(delivered_at, ?),
       ended_at = CASE WHEN ? THEN ? ELSE ended_at END,
       result = CASE WHEN ? THEN ? ELSE result END, code = ?, detail = ?
     WHERE id = ? AND uid = ? AND state IN (${from}) AND expires_at > ?`,
    input.state,
    input.at,
    input.at,
    final ? 1 : 0,
    input.at,
    final ? 1 : 0,
    input.result === undefined ? null : JSON.stringify(input.result),
    input.code,
    input.detail,
    input.id,
    input.uid,
    input.at,
  );
}

/** Cancels a command not yet delivered; nothing changes once the radio has it. */
export function cancelStatement(db: Db, input: { id: string; email: string; at: string }): D1PreparedStatement {
  return statement(
    db,
    `UPDATE commands SET state = 'cancelled', ended_at = ?, cancelled_by_email = ? WHERE id = ? AND ${WAITING} AND expires_at > ?`,
    input.at,
    input.email,
    input.id,
    input.at,
  );
}

/**
 * Marks every waiting or unreported command past its expiry (the clock's sweep). The number is
 * D1's meta.changes: above zero when something expired; it counts the roll-up triggers' rows too.
 */
export async function expireDue(db: Db, at: string): Promise<number> {
  const result = await statement(
    db,
    `UPDATE commands SET state = 'expired', ended_at = expires_at, code = CASE WHEN state = 'delivered' THEN 'no-report' ELSE code END
     WHERE ${LAPSIBLE} AND expires_at <= ?`,
    at,
  ).run();
  return result.meta.changes ?? 0;
}

/** When the next waiting or unreported command expires (the expiry index's first entry), or null. */
export async function nextExpiry(db: Db): Promise<string | null> {
  const row = await first<{ at: string | null }>(db, `SELECT min(expires_at) AS at FROM commands WHERE ${LAPSIBLE}`);
  return row?.at ?? null;
}

/** Where the previous history page ended. */
export type CommandCursor = { createdAt: string; id: string };

/** A radio's commands, newest first, a page after `after` (keyset on the history index). */
export async function listCommands(
  db: Db,
  uid: string,
  after: CommandCursor | null,
  limit: number,
): Promise<{ items: Command[]; next: CommandCursor | null }> {
  const params: Bindable[] = [uid];
  let where = "uid = ?";
  if (after) {
    where += " AND (created_at, id) < (?, ?)";
    params.push(after.createdAt, after.id);
  }
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM commands WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT ?`,
    ...params,
    limit + 1,
  );
  const at = new Date().toISOString();
  const items = rows.slice(0, limit).map((row) => toCommand(row, at));
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { createdAt: last.createdAt, id: last.id } : null };
}

/** Several commands by id (a support session's timeline reads their live state). */
export async function findCommands(db: Db, ids: string[]): Promise<Command[]> {
  if (!ids.length) return [];
  const rows = await all<Row>(db, `SELECT ${columns} FROM commands WHERE id IN (${ids.map(() => "?").join(", ")})`, ...ids);
  return rows.map((row) => toCommand(row));
}
