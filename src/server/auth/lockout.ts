import type { Db } from "../data/db";
import { clearLockout, findLockout, saveLockout } from "../data/sign-in-guards";

/**
 * Per-account lockout (DESIGN.md §5): 4 wrong passwords in a row cost nothing; the 5th
 * locks the address for 1 minute, and each further failure doubles the wait, up to 1 hour.
 * A correct password resets the count. Counted per email, whether or not it has an account.
 */
export const FREE_FAILURES = 4;
export const FIRST_WAIT_MS = 60_000;
export const LONGEST_WAIT_MS = 60 * 60_000;

export function lockoutWait(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(LONGEST_WAIT_MS, FIRST_WAIT_MS * 2 ** (failures - FREE_FAILURES - 1));
}

export async function isLocked(db: Db, email: string, at = Date.now()): Promise<boolean> {
  const { lockedUntil } = await findLockout(db, email);
  return lockedUntil !== null && Date.parse(lockedUntil) > at;
}

/** Records a wrong password; true when the address is now locked. */
export async function recordFailure(db: Db, email: string, at = Date.now()): Promise<boolean> {
  const { failures } = await findLockout(db, email);
  const next = failures + 1;
  const wait = lockoutWait(next);
  await saveLockout(db, email, { failures: next, lockedUntil: wait ? new Date(at + wait).toISOString() : null });
  return wait > 0;
}

export function recordSuccess(db: Db, email: string): Promise<void> {
  return clearLockout(db, email);
}
