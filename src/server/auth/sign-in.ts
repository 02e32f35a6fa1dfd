import type { Context } from "hono";
import { countTry, deleteCodeStatement, findCode, saveCode } from "../data/one-time-codes";
import { deleteSessionStatement } from "../data/sessions";
import { findUserByEmail, normalizeEmail, recordSignIn } from "../data/users";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { sendMail } from "../mail/mailer";
import { providerForEmail } from "../sso/email-domain";
import { constantTimeEqual, randomDigits, sha256Hex } from "./crypto";
import { isLocked, recordFailure, recordSuccess } from "./lockout";
import { verifyPassword } from "./passwords";
import { type CurrentSession, readSession, startSession } from "./sessions";
import { withinLimit } from "./throttle";

/**
 * The sign-in steps of spec §4, shared by the JSON calls (§7) and the no-JavaScript form.
 * Each answer has exactly the shape of spec §3.
 */

export const CODE_LIFETIME_MS = 10 * 60_000;
export const CODE_MAX_TRIES = 5;

export type EmailStepAnswer = { ok: boolean; identityProviderId?: string; identityProviderName?: string };
export type PasswordStepAnswer = { ok: boolean; blocked?: boolean; twoFactorAuth?: { required?: boolean } };

export class Throttled extends Error {
  constructor() {
    super("TOO_MANY_REQUESTS");
  }
}

/**
 * The email step. It answers alike for every address (no enumeration); only an address whose
 * domain belongs to an identity provider is sent to single sign-on (src/server/sso/email-domain.ts).
 */
export async function emailStep(c: Context<AppEnv>, email: string): Promise<EmailStepAnswer> {
  const provider = await providerForEmail(c.env.DB, email);
  return provider ? { ok: true, identityProviderId: provider.id, identityProviderName: provider.name } : { ok: true };
}

/**
 * The password step: lockout first, then the password (always hashed, known address or not,
 * so both answer in the same time), then either a session or a sign-in attempt awaiting the
 * email code.
 */
export async function passwordStep(c: Context<AppEnv>, rawEmail: string, password: string): Promise<PasswordStepAnswer> {
  if (!(await withinLimit(c, "sign-in"))) throw new Throttled();
  const db = c.env.DB;
  const email = normalizeEmail(rawEmail);
  const [locked, user] = await Promise.all([isLocked(db, email), findUserByEmail(db, email)]);
  const matches = await verifyPassword(password, user?.passwordHash ?? null);
  if (locked) return { ok: false, blocked: true };
  if (!user || !matches || user.status !== "active") {
    return (await recordFailure(db, email)) ? { ok: false, blocked: true } : { ok: false };
  }
  await recordSuccess(db, email);
  const previous = await readSession(c);
  const replaced = previous ? [deleteSessionStatement(db, previous.record.id)] : [];
  if (user.twoFactor === "email") {
    await startSession(c, user.id, "needs-2fa", replaced);
    return { ok: true, twoFactorAuth: { required: true } };
  }
  await startSession(c, user, "signed-in", replaced);
  await recordSignIn(db, user.id);
  return { ok: true };
}

/** The sign-in attempt waiting for its email code, if the cookie names one. */
export async function pendingAttempt(c: Context<AppEnv>): Promise<CurrentSession | null> {
  const session = await readSession(c);
  return session?.record.stage === "needs-2fa" ? session : null;
}

/** Sends a new 6-digit code to the attempt's user; it replaces any earlier one. */
export async function sendEmailCode(c: Context<AppEnv>): Promise<{ ok: boolean }> {
  if (!(await withinLimit(c, "code-send"))) throw new Throttled();
  const attempt = await pendingAttempt(c);
  if (!attempt) return { ok: false };
  const code = randomDigits(6);
  await saveCode(c.env.DB, {
    sessionId: attempt.record.id,
    codeHash: await sha256Hex(code),
    expiresAt: new Date(Date.now() + CODE_LIFETIME_MS).toISOString(),
  });
  const t = translatorFor(attempt.user.language ?? c.get("language"), c.get("settings").brandNamespace);
  await sendMail(c.env, {
    to: attempt.user.email,
    subject: String(t("mail.code.subject", { title: c.get("settings").appTitle })),
    body: String(t("mail.code.body", { code, minutes: CODE_LIFETIME_MS / 60_000 })),
  });
  return { ok: true };
}

/**
 * Checks the code: at most 5 tries per code, within 10 minutes, once. Success turns the
 * attempt into a signed-in session with a new token, in one batch.
 */
export async function verifyEmailCode(c: Context<AppEnv>, otp: string): Promise<{ ok: boolean }> {
  if (!(await withinLimit(c, "code-verify"))) throw new Throttled();
  const attempt = await pendingAttempt(c);
  if (!attempt) return { ok: false };
  const db = c.env.DB;
  const code = await findCode(db, attempt.record.id);
  if (!code || Date.parse(code.expiresAt) <= Date.now()) return { ok: false };
  const tries = await countTry(db, attempt.record.id);
  if (tries > CODE_MAX_TRIES) {
    await deleteCodeStatement(db, attempt.record.id).run();
    return { ok: false };
  }
  if (!constantTimeEqual(await sha256Hex(otp.trim()), code.codeHash)) return { ok: false };
  await startSession(c, attempt.user, "signed-in", [
    deleteCodeStatement(db, attempt.record.id),
    deleteSessionStatement(db, attempt.record.id),
  ]);
  await recordSignIn(db, attempt.user.id);
  return { ok: true };
}
