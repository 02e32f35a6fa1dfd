import type { Context } from "hono";
import {
  findReset,
  insertResetStatement,
  type PasswordReset,
  setPasswordWithCodeStatement,
  spendCodesStatement,
} from "../data/password-resets";
import { deleteUserSessionsStatement } from "../data/sessions";
import { clearLockoutAfterResetStatement } from "../data/sign-in-guards";
import { findUserByEmail, findUserById, normalizeEmail } from "../data/users";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { sendMail } from "../mail/mailer";
import { randomToken, sha256Hex } from "./crypto";
import { hashPassword, passwordProblem } from "./passwords";
import { withinLimit } from "./throttle";

/** A reset link works once, for an hour (DESIGN.md §5). */
export const RESET_LIFETIME_MS = 60 * 60_000;

export type ResetRequestOutcome = { ok: true } | { ok: false; reason: "throttled" };

export type ResetOutcome =
  | { ok: true }
  | { ok: false; reason: "invalid-link" }
  | { ok: false; reason: "weak-password"; problem: string };

/**
 * Work the answer must not wait for, so that it comes as fast for an unknown address as for
 * a known one whatever the database and the mail service cost. Awaited where there is no
 * execution context (the workerd tests call the app directly).
 */
async function afterResponse(c: Context<AppEnv>, task: () => Promise<void>): Promise<void> {
  let context: Context<AppEnv>["executionCtx"] | undefined;
  try {
    context = c.executionCtx;
  } catch {
    context = undefined; // Hono throws when the request came without one
  }
  if (!context) return task();
  context.waitUntil(task().catch((error: unknown) => console.error("password reset mail failed", error)));
}

/**
 * Asks for a reset link. Every address gets the same answer after the same work (a code, its
 * hash, the mail's text): only an active user's code is then stored and mailed, so neither the
 * answer nor its timing tells which addresses have an account.
 */
export async function requestReset(c: Context<AppEnv>, rawEmail: string): Promise<ResetRequestOutcome> {
  if (!(await withinLimit(c, "password-reset"))) return { ok: false, reason: "throttled" };
  const email = normalizeEmail(rawEmail);
  const found = await findUserByEmail(c.env.DB, email);
  const user = found?.status === "active" ? found : null;

  const code = randomToken(32);
  const codeHash = await sha256Hex(code);
  const settings = c.get("settings");
  const t = translatorFor(user?.language ?? c.get("language"), settings.brandNamespace);
  const mail = {
    to: user?.email ?? email,
    subject: String(t("mail.passwordReset.subject", { title: settings.appTitle })),
    body: String(
      t("mail.passwordReset.body", {
        link: `${new URL(c.req.url).origin}/reset-password/${code}`,
        minutes: RESET_LIFETIME_MS / 60_000,
      }),
    ),
  };
  if (!user) return { ok: true };

  await afterResponse(c, async () => {
    const expiresAt = new Date(Date.now() + RESET_LIFETIME_MS).toISOString();
    await insertResetStatement(c.env.DB, { codeHash, userId: user.id, expiresAt }).run();
    await sendMail(c.env, mail);
  });
  return { ok: true };
}

/** The reset a link's code names, if it is unused, unexpired and its user still active. */
export async function findOpenReset(c: Context<AppEnv>, code: string): Promise<PasswordReset | null> {
  if (!code || code.length > 100) return null;
  const reset = await findReset(c.env.DB, await sha256Hex(code));
  if (!reset || reset.usedAt || Date.parse(reset.expiresAt) <= Date.now()) return null;
  const user = await findUserById(c.env.DB, reset.userId);
  return user?.status === "active" ? reset : null;
}

/**
 * Sets a new password with a reset code. One batch sets the password (only while the code is
 * open), uses up the user's codes, lifts a sign-in lockout (they proved they own the address)
 * and ends all of the user's sessions, so whoever knew the old password is signed out everywhere.
 */
export async function resetPassword(c: Context<AppEnv>, code: string, password: string): Promise<ResetOutcome> {
  const reset = await findOpenReset(c, code);
  if (!reset) return { ok: false, reason: "invalid-link" };
  const problem = passwordProblem(password);
  if (problem) return { ok: false, reason: "weak-password", problem };

  const db = c.env.DB;
  const passwordHash = await hashPassword(password);
  const at = new Date().toISOString();
  const [changed] = await db.batch([
    setPasswordWithCodeStatement(db, { codeHash: reset.codeHash, userId: reset.userId, passwordHash, at }),
    spendCodesStatement(db, { userId: reset.userId, passwordHash, at }),
    clearLockoutAfterResetStatement(db, reset.userId, passwordHash),
    deleteUserSessionsStatement(db, reset.userId),
  ]);
  // Another request used the code between the check above and this batch.
  // Whether it changed, not how many rows: D1's count includes rows written by triggers.
  if (!changed?.meta.changes) return { ok: false, reason: "invalid-link" };
  return { ok: true };
}
