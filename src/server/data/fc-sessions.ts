import type { FcPriority, FcStatus } from "@/schema/fc-cases";
import { type Command, findCommands } from "./commands";
import { all, type Db, first, statement } from "./db";
import { ftsQuery, ftsRowids } from "./fts";
import { type Cursor, keysetWhere, order, type Page, pageOf } from "./keyset";

/** Support sessions (cases) and their timelines (issue 15, DESIGN.md §7). */
export type FcSession = {
  id: string;
  accountId: string;
  customerId: string | null;
  customerName: string | null;
  subject: string;
  category: string;
  priority: FcPriority;
  status: FcStatus;
  assigneeId: string | null;
  assigneeName: string | null;
  openedBy: string;
  version: number;
  createdAt: string;
  updatedAt: string;
  closedAt: string | null;
};

type Row = {
  id: string;
  account_id: string;
  customer_id: string | null;
  customer_name: string | null;
  subject: string;
  category: string;
  priority: FcPriority;
  status: FcStatus;
  assignee_id: string | null;
  assignee_name: string | null;
  opened_by: string;
  version: number;
  created_at: string;
  updated_at: string;
  closed_at: string | null;
};

const columns = `s.id, s.account_id, s.customer_id, c.name AS customer_name, s.subject, s.category, s.priority, s.status,
  s.assignee_id, u.name AS assignee_name, s.opened_by, s.version, s.created_at, s.updated_at, s.closed_at`;
const joins = "LEFT JOIN fc_customers c ON c.id = s.customer_id LEFT JOIN users u ON u.id = s.assignee_id";

const toSession = (r: Row): FcSession => ({
  id: r.id,
  accountId: r.account_id,
  customerId: r.customer_id,
  customerName: r.customer_name,
  subject: r.subject,
  category: r.category,
  priority: r.priority,
  status: r.status,
  assigneeId: r.assignee_id,
  assigneeName: r.assignee_name,
  openedBy: r.opened_by,
  version: r.version,
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  closedAt: r.closed_at,
});

const newest = order("desc", ["s.created_at", "s.id"]);

export type SessionFilter = { accountId: string; status: FcStatus | null; customerId: string | null; search: string };

/** One page of sessions, newest first; by status through its index, by subject through FTS5. */
export async function listSessions(
  db: Db,
  filter: SessionFilter,
  cursor: Cursor | null,
  limit: number,
): Promise<Page<FcSession>> {
  const page = keysetWhere(newest, cursor, limit);
  const query = filter.search.trim() ? ftsQuery(filter.search) : null;
  if (filter.search.trim() && !query) return { items: [], next: null, previous: null };
  const fts = query ? ftsRowids("fc_sessions", query) : null;
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM fc_sessions s ${joins}
     WHERE s.account_id = ? AND (? IS NULL OR s.status = ?) AND (? IS NULL OR s.customer_id = ?)
       ${fts ? `AND s.rowid IN (${fts.sql})` : ""} AND ${page.where}
     ORDER BY ${page.orderBy} LIMIT ?`,
    filter.accountId,
    filter.status,
    filter.status,
    filter.customerId,
    filter.customerId,
    ...(fts ? fts.params : []),
    ...page.params,
    page.limit,
  );
  return pageOf(rows, page, (r) => [r.created_at, r.id], toSession);
}

export async function findSession(db: Db, id: string): Promise<FcSession | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM fc_sessions s ${joins} WHERE s.id = ?`, id);
  return row ? toSession(row) : null;
}

export async function sessionRadios(db: Db, sessionId: string): Promise<{ uid: string; name: string; status: string }[]> {
  return all(
    db,
    `SELECT d.uid, d.name, d.status FROM fc_session_devices sd JOIN devices d ON d.uid = sd.uid
     WHERE sd.session_id = ? ORDER BY d.uid`,
    sessionId,
  );
}

export type TimelineKind = "opened" | "note" | "status" | "assignee" | "command" | "redeploy" | "closed";

export type TimelineEntry = {
  id: string;
  kind: TimelineKind;
  actorEmail: string;
  body: string;
  createdAt: string;
  /** A command sent from the session, read live from the commands table. */
  command: Command | null;
};

/** The timeline, oldest first (a session's life is short: at most `limit` entries). */
export async function sessionTimeline(db: Db, sessionId: string, limit = 500): Promise<TimelineEntry[]> {
  const rows = await all<{
    id: string;
    kind: TimelineKind;
    actor_email: string;
    body: string;
    created_at: string;
    command_id: string | null;
  }>(
    db,
    `SELECT id, kind, actor_email, body, created_at, command_id FROM fc_timeline WHERE session_id = ?
     ORDER BY created_at, rowid LIMIT ?`,
    sessionId,
    limit,
  );
  const commands = await findCommands(
    db,
    rows.flatMap((r) => (r.command_id ? [r.command_id] : [])),
  );
  const byId = new Map(commands.map((c) => [c.id, c]));
  return rows.map((r) => ({
    id: r.id,
    kind: r.kind,
    actorEmail: r.actor_email,
    body: r.body,
    createdAt: r.created_at,
    command: r.command_id ? (byId.get(r.command_id) ?? null) : null,
  }));
}

export function timelineStatement(
  db: Db,
  entry: { sessionId: string; kind: TimelineKind; actorEmail: string; body: string; commandId?: string | null; at: string },
) {
  return statement(
    db,
    "INSERT INTO fc_timeline (id, session_id, kind, actor_email, body, command_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
    crypto.randomUUID(),
    entry.sessionId,
    entry.kind,
    entry.actorEmail,
    entry.body,
    entry.commandId ?? null,
    entry.at,
  );
}

export type NewSession = {
  id: string;
  accountId: string;
  customerId: string | null;
  subject: string;
  category: string;
  priority: FcPriority;
  assigneeId: string | null;
  openedBy: string;
  uids: string[];
  at: string;
};

export function insertSessionStatements(db: Db, s: NewSession) {
  return [
    statement(
      db,
      `INSERT INTO fc_sessions (id, account_id, customer_id, subject, category, priority, assignee_id, opened_by, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      s.id,
      s.accountId,
      s.customerId,
      s.subject,
      s.category,
      s.priority,
      s.assigneeId,
      s.openedBy,
      s.at,
      s.at,
    ),
    ...s.uids.map((uid) => statement(db, "INSERT OR IGNORE INTO fc_session_devices (session_id, uid) VALUES (?, ?)", s.id, uid)),
    timelineStatement(db, { sessionId: s.id, kind: "opened", actorEmail: s.openedBy, body: s.subject, at: s.at }),
  ];
}

/** Status, priority and assignee, version-checked: no row changed means stale (or gone). */
export function updateSessionStatement(
  db: Db,
  s: { id: string; version: number; status: FcStatus; priority: FcPriority; assigneeId: string | null; at: string },
) {
  return statement(
    db,
    `UPDATE fc_sessions SET status = ?, priority = ?, assignee_id = ?, version = version + 1, updated_at = ?,
       closed_at = CASE WHEN ? = 'closed' THEN coalesce(closed_at, ?) ELSE NULL END
     WHERE id = ? AND version = ?`,
    s.status,
    s.priority,
    s.assigneeId,
    s.at,
    s.status,
    s.at,
    s.id,
    s.version,
  );
}

/** The timeline entry of a command sent from a session, written only if the command row was. */
export function commandTimelineStatement(
  db: Db,
  entry: { sessionId: string; kind: "command" | "redeploy"; actorEmail: string; body: string; commandId: string; at: string },
) {
  return statement(
    db,
    `INSERT INTO fc_timeline (id, session_id, kind, actor_email, body, command_id, created_at)
     SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM commands WHERE id = ?)`,
    crypto.randomUUID(),
    entry.sessionId,
    entry.kind,
    entry.actorEmail,
    entry.body,
    entry.commandId,
    entry.at,
    entry.commandId,
  );
}

/** Touches a session (a note or a command) so its version moves and a stale form notices. */
export function touchSessionStatement(db: Db, id: string, version: number, at: string) {
  return statement(
    db,
    "UPDATE fc_sessions SET version = version + 1, updated_at = ? WHERE id = ? AND version = ?",
    at,
    id,
    version,
  );
}

export type Dashboard = {
  byStatus: { key: string; count: number }[];
  byPriority: { key: string; count: number }[];
  byAssignee: { key: string | null; name: string | null; count: number }[];
  perDay: { day: string; opened: number; closed: number }[];
  oldestOpen: FcSession[];
  repeatedRadios: { uid: string; name: string; count: number }[];
};

/**
 * The desk's dashboard in one batch: open sessions by status, priority and assignee (the
 * status index holds them), opened and closed per day over `days`, the five oldest open
 * sessions, and radios with two or more sessions in 90 days.
 */
export async function dashboard(db: Db, accountId: string, days: number, today: Date): Promise<Dashboard> {
  const since = new Date(today.getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const since90 = new Date(today.getTime() - 90 * 86_400_000).toISOString();
  const open = "s.account_id = ?1 AND s.status IN ('open','in-progress','waiting')";
  const [status, priority, assignee, opened, closed, oldest, repeated] = await db.batch([
    statement(db, `SELECT s.status AS key, count(*) AS count FROM fc_sessions s WHERE ${open} GROUP BY s.status`, accountId),
    statement(db, `SELECT s.priority AS key, count(*) AS count FROM fc_sessions s WHERE ${open} GROUP BY s.priority`, accountId),
    statement(
      db,
      `SELECT s.assignee_id AS key, u.name AS name, count(*) AS count FROM fc_sessions s LEFT JOIN users u ON u.id = s.assignee_id
       WHERE ${open} GROUP BY s.assignee_id ORDER BY count DESC LIMIT 20`,
      accountId,
    ),
    statement(
      db,
      `SELECT substr(s.created_at, 1, 10) AS day, count(*) AS count FROM fc_sessions s
       WHERE s.account_id = ?1 AND s.created_at >= ?2 GROUP BY day`,
      accountId,
      since,
    ),
    statement(
      db,
      `SELECT substr(s.closed_at, 1, 10) AS day, count(*) AS count FROM fc_sessions s
       WHERE s.account_id = ?1 AND s.status = 'closed' AND s.closed_at >= ?2 GROUP BY day`,
      accountId,
      since,
    ),
    statement(db, `SELECT ${columns} FROM fc_sessions s ${joins} WHERE ${open} ORDER BY s.created_at LIMIT 5`, accountId),
    statement(
      db,
      `SELECT sd.uid, d.name, count(*) AS count FROM fc_sessions s JOIN fc_session_devices sd ON sd.session_id = s.id
       JOIN devices d ON d.uid = sd.uid WHERE s.account_id = ?1 AND s.created_at >= ?2
       GROUP BY sd.uid HAVING count(*) >= 2 ORDER BY count DESC, sd.uid LIMIT 10`,
      accountId,
      since90,
    ),
  ]);
  const rows = <T>(r: { results: unknown[] } | undefined) => (r?.results ?? []) as T[];
  const openedBy = new Map(rows<{ day: string; count: number }>(opened).map((r) => [r.day, r.count]));
  const closedBy = new Map(rows<{ day: string; count: number }>(closed).map((r) => [r.day, r.count]));
  const perDay = Array.from({ length: days }, (_, i) => {
    const day = new Date(today.getTime() - (days - 1 - i) * 86_400_000).toISOString().slice(0, 10);
    return { day, opened: openedBy.get(day) ?? 0, closed: closedBy.get(day) ?? 0 };
  });
  return {
    byStatus: rows(status),
    byPriority: rows(priority),
    byAssignee: rows(assignee),
    perDay,
    oldestOpen: rows<Row>(oldest).map(toSession),
    repeatedRadios: rows(repeated),
  };
}

/**
 * The desk's housekeeping (fc-settings): waiting sessions untouched for the account's
 * auto-close days are closed (0 = never), with a timeline entry each; closed sessions past the
 * retention days are deleted with their radios and timeline (ON DELETE CASCADE). One batch.
 */
export async function sweepDesk(db: Db, at: Date): Promise<{ closed: number; deleted: number }> {
  const now = at.toISOString();
  const autoClose = `coalesce((SELECT f.auto_close_days FROM fc_settings f WHERE f.account_id = s.account_id), 14)`;
  const retention = `coalesce((SELECT f.retention_days FROM fc_settings f WHERE f.account_id = s.account_id), 365)`;
  const due = `s.status = 'waiting' AND ${autoClose} > 0
    AND s.updated_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, '-' || ${autoClose} || ' days')`;
  const expired = `s.status = 'closed'
    AND s.closed_at < strftime('%Y-%m-%dT%H:%M:%fZ', ?1, '-' || ${retention} || ' days')`;
  // Every change is an activity entry (issue 15), the desk's own ones too: written by "system",
  // in the batch that makes the change, as the procedures' entries are.
  const logged = (action: "update" | "delete", diff: string, where: string) =>
    statement(
      db,
      `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
       SELECT 'log_' || lower(hex(randomblob(10))), a.org_id, s.account_id, NULL, 'system', '${action}', 'fc-session', s.id, s.subject, ${diff}, 0, ?1
       FROM fc_sessions s JOIN accounts a ON a.id = s.account_id WHERE ${where}`,
      now,
    );
  const [, , closed, , deleted] = await db.batch([
    statement(
      db,
      `INSERT INTO fc_timeline (id, session_id, kind, actor_email, body, created_at)
       SELECT lower(hex(randomblob(16))), s.id, 'closed', 'system', 'waiting → closed', ?1 FROM fc_sessions s WHERE ${due}`,
      now,
    ),
    logged("update", `json_object('status', json_object('before', 'waiting', 'after', 'closed'))`, due),
    statement(
      db,
      `UPDATE fc_sessions AS s SET status = 'closed', closed_at = ?1, updated_at = ?1, version = version + 1 WHERE ${due}`,
      now,
    ),
    logged("delete", `json_object('subject', json_object('before', s.subject))`, expired),
    statement(db, `DELETE FROM fc_sessions AS s WHERE ${expired}`, now),
  ]);
  return { closed: closed?.meta.changes ?? 0, deleted: deleted?.meta.changes ?? 0 };
}
