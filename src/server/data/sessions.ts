import { type Db, first, statement } from "./db";

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

export async function findSession(db: Db, id: string): Promise<SessionRecord | null> {
  const row = await first<Row>(
    db,
    "SELECT id, user_id, stage, created_at, last_seen_at, expires_at FROM sessions WHERE id = ?",
    id,
  );
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
