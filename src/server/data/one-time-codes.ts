import { type Db, first, statement } from "./db";

export type OneTimeCode = { sessionId: string; codeHash: string; expiresAt: string; tries: number };

export async function findCode(db: Db, sessionId: string): Promise<OneTimeCode | null> {
  const row = await first<{ session_id: string; code_hash: string; expires_at: string; tries: number }>(
    db,
    "SELECT session_id, code_hash, expires_at, tries FROM one_time_codes WHERE session_id = ?",
    sessionId,
  );
  return row ? { sessionId: row.session_id, codeHash: row.code_hash, expiresAt: row.expires_at, tries: row.tries } : null;
}

/** A new code replaces the attempt's previous one (and its tries). */
export async function saveCode(db: Db, code: Omit<OneTimeCode, "tries">): Promise<void> {
  await statement(
    db,
    `INSERT INTO one_time_codes (session_id, code_hash, expires_at, tries) VALUES (?, ?, ?, 0)
     ON CONFLICT(session_id) DO UPDATE SET code_hash = excluded.code_hash, expires_at = excluded.expires_at, tries = 0`,
    code.sessionId,
    code.codeHash,
    code.expiresAt,
  ).run();
}

/** Counts a try atomically and returns the tries so far. */
export async function countTry(db: Db, sessionId: string): Promise<number> {
  const row = await first<{ tries: number }>(
    db,
    "UPDATE one_time_codes SET tries = tries + 1 WHERE session_id = ? RETURNING tries",
    sessionId,
  );
  return row?.tries ?? Number.POSITIVE_INFINITY;
}

export function deleteCodeStatement(db: Db, sessionId: string) {
  return statement(db, "DELETE FROM one_time_codes WHERE session_id = ?", sessionId);
}
