import { type Db, first, statement } from "./db";
import { type User, type UserRow, userFromRow, userOfSessionStatement } from "./users";

export type SessionStage = "signed-in" | "needs-2fa";

export type SessionRecord = {
  id: string;
  userId: string;
  stage: SessionStage;
  createdAt: string;
  lastSeenAt: string;
  expiresAt: string;
};

type Row = { id: string; user_id: string; stage: SessionStage; created_at: string; last_seen_at: string; expires_at: string };

const sessionSql = "SELECT id, user_id, stage, created_at, last_seen_at, expires_at FROM sessions WHERE id = ?";

function toSession(row: Row | null | undefined): SessionRecord | null {
  return row
    ? {
        id: row.id,
        userId: row.user_id,
        stage: row.stage,
        createdAt: row.created_at,
        lastSeenAt: row.last_seen_at,
        expiresAt: row.expires_at,
      }
    : null;
}

export async function findSession(db: Db, id: string): Promise<SessionRecord | null> {
  return toSession(await first<Row>(db, sessionSql, id));
}

/**
 * The session and its user in one D1 round trip (a batch of two reads): every signed-in
 * request starts with this, so it costs one call, not two (DESIGN.md §8).
 */
export async function findSessionAndUser(db: Db, id: string): Promise<{ session: SessionRecord | null; user: User | null }> {
  const [sessions, users] = await db.batch<Row | UserRow>([statement(db, sessionSql, id), userOfSessionStatement(db, id)]);
  return {
    session: toSession(sessions?.results[0] as Row | undefined),
    user: userFromRow(users?.results[0] as UserRow | undefined),
  };
}

export function insertSessionStatement(db: Db, session: SessionRecord & { ip: string | null; userAgent: string | null }) {
  return statement(
    db,
    "INSERT INTO sessions (id, user_id, stage, created_at, last_seen_at, expires_at, ip, user_agent) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
    session.id,
    session.userId,
    session.stage,
    session.createdAt,
    session.lastSeenAt,
    session.expiresAt,
    session.ip,
    session.userAgent,
  );
}

export function deleteSessionStatement(db: Db, id: string) {
  return statement(db, "DELETE FROM sessions WHERE id = ?", id);
}

/** Ends every session of a user (disabled, password changed). */
export function deleteUserSessionsStatement(db: Db, userId: string) {
  return statement(db, "DELETE FROM sessions WHERE user_id = ?", userId);
}

/** Ends every session of a user but one (the password was changed in that one). */
export function deleteOtherSessionsStatement(db: Db, userId: string, keepSessionId: string) {
  return statement(db, "DELETE FROM sessions WHERE user_id = ? AND id <> ?", userId, keepSessionId);
}

export async function touchSession(db: Db, id: string, at: string): Promise<void> {
  await statement(db, "UPDATE sessions SET last_seen_at = ? WHERE id = ?", at, id).run();
}

/**
 * Ends every session of a user once they are disabled: put right after the statement that
 * disables them in the same batch; if that one was stale and the user is still active, their
 * sessions stay.
 */
export function deleteDisabledUserSessionsStatement(db: Db, userId: string) {
  return statement(
    db,
    "DELETE FROM sessions WHERE user_id = ? AND EXISTS (SELECT 1 FROM users WHERE id = ? AND status = 'disabled')",
    userId,
    userId,
  );
}
