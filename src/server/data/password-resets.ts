import { type Db, first, statement } from "./db";

/** A password reset link: only the SHA-256 of its code is stored; it works once, until it expires. */
export type PasswordReset = { codeHash: string; userId: string; expiresAt: string; usedAt: string | null };

export async function findReset(db: Db, codeHash: string): Promise<PasswordReset | null> {
  const row = await first<{ code_hash: string; user_id: string; expires_at: string; used_at: string | null }>(
    db,
    "SELECT code_hash, user_id, expires_at, used_at FROM password_resets WHERE code_hash = ?",
    codeHash,
  );
  return row ? { codeHash: row.code_hash, userId: row.user_id, expiresAt: row.expires_at, usedAt: row.used_at } : null;
}

export function insertResetStatement(db: Db, reset: Omit<PasswordReset, "usedAt">) {
  return statement(
    db,
    "INSERT INTO password_resets (code_hash, user_id, expires_at) VALUES (?, ?, ?)",
    reset.codeHash,
    reset.userId,
    reset.expiresAt,
  );
}

/**
 * Sets the new password only while the code is still open (unused, unexpired, the user's,
 * the user active): two requests racing with one code cannot both change the password.
 * `changes` is 1 when it did.
 */
export function setPasswordWithCodeStatement(
  db: Db,
  input: { codeHash: string; userId: string; passwordHash: string; at: string },
) {
  return statement(
    db,
    `UPDATE users SET password_hash = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND status = 'active' AND EXISTS (
       SELECT 1 FROM password_resets WHERE code_hash = ? AND user_id = ? AND used_at IS NULL AND expires_at > ?)`,
    input.passwordHash,
    input.at,
    input.userId,
    input.codeHash,
    input.userId,
    input.at,
  );
}

/**
 * Uses up every open code of the user, the one just used and any older one, but only if the
 * statement before it in the batch stored this new password (its hash has a fresh salt, so
 * finding it proves that).
 */
export function spendCodesStatement(db: Db, input: { userId: string; passwordHash: string; at: string }) {
  return statement(
    db,
    `UPDATE password_resets SET used_at = ?
     WHERE user_id = ? AND used_at IS NULL AND EXISTS (SELECT 1 FROM users WHERE id = ? AND password_hash = ?)`,
    input.at,
    input.userId,
    input.userId,
    input.passwordHash,
  );
}
