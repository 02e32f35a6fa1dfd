import { type Db, first, statement } from "./db";

/** Failed passwords per email address, and the per-address throttle counters. */

export type Lockout = { failures: number; lockedUntil: string | null };

export async function findLockout(db: Db, email: string): Promise<Lockout> {
  const row = await first<{ failures: number; locked_until: string | null }>(
    db,
    "SELECT failures, locked_until FROM sign_in_lockouts WHERE email = ?",
    email,
  );
  return { failures: row?.failures ?? 0, lockedUntil: row?.locked_until ?? null };
}

export async function saveLockout(db: Db, email: string, lockout: Lockout): Promise<void> {
  await statement(
    db,
    `INSERT INTO sign_in_lockouts (email, failures, locked_until) VALUES (?, ?, ?)
     ON CONFLICT(email) DO UPDATE SET failures = excluded.failures, locked_until = excluded.locked_until`,
    email,
    lockout.failures,
    lockout.lockedUntil,
  ).run();
}

export async function clearLockout(db: Db, email: string): Promise<void> {
  await statement(db, "DELETE FROM sign_in_lockouts WHERE email = ?", email).run();
}

/**
 * Counts one more hit for the key at `at` (ms) and returns the hits of the last `windowSeconds`,
 * as a sliding window estimates them (atomic upsert, migration 0044): the current fixed window's
 * hits plus the previous window's, weighted by the part of it still inside the sliding one. So a
 * burst across a window's edge counts whole, never as two half-empty windows.
 */
export async function countHit(db: Db, key: string, at: number, windowSeconds: number): Promise<number> {
  const windowStart = Math.floor(at / 1000 / windowSeconds) * windowSeconds;
  const row = await first<{ count: number; previous_count: number }>(
    db,
    `INSERT INTO throttles (key, window_start, count, previous_count) VALUES (?1, ?2, 1, 0)
     ON CONFLICT(key) DO UPDATE SET
       previous_count = CASE throttles.window_start WHEN excluded.window_start THEN throttles.previous_count
         WHEN excluded.window_start - ?3 THEN throttles.count ELSE 0 END,
       count = CASE WHEN throttles.window_start = excluded.window_start THEN throttles.count + 1 ELSE 1 END,
       window_start = excluded.window_start
     RETURNING count, previous_count`,
    key,
    windowStart,
    windowSeconds,
  );
  const overlap = 1 - (at / 1000 - windowStart) / windowSeconds;
  return (row?.count ?? 1) + (row?.previous_count ?? 0) * overlap;
}

/**
 * Clears the lockout of a user whose password was just reset (they proved they own the
 * address), only if the statement before it in the batch stored this new password hash.
 */
export function clearLockoutAfterResetStatement(db: Db, userId: string, passwordHash: string) {
  return statement(
    db,
    "DELETE FROM sign_in_lockouts WHERE email = (SELECT email FROM users WHERE id = ? AND password_hash = ?)",
    userId,
    passwordHash,
  );
}
