import type { Context } from "hono";
import type { D1PreparedStatement } from "../cloudflare";
import { batch, type Db } from "../data/db";
import {
  acceptInvitationStatements,
  findInvitationByCodeHash,
  type Invitation,
  insertInvitationStatements,
} from "../data/invitations";
import { findOrganization } from "../data/organizations";
import { deleteSessionStatement } from "../data/sessions";
import { findUserByEmail, findUserById, normalizeEmail, recordSignIn } from "../data/users";
import type { AppEnv, Env } from "../env";
import type { Translate } from "../i18n/i18n";
import { sendMail } from "../mail/mailer";
import { randomToken, sha256Hex } from "./crypto";
import { hashPassword, passwordProblem } from "./passwords";
import type { Role } from "./roles";
import { startSession } from "./sessions";

/** An invitation link works once, for a week. */
export const INVITATION_LIFETIME_MS = 7 * 24 * 60 * 60_000;

export type ClosedInvitationState = "accepted" | "revoked" | "expired" | "unknown";

/** What an invitation link leads to: the open invitation, or why it no longer works. */
export type InvitationLookup = { state: "open"; invitation: Invitation } | { state: ClosedInvitationState };

export type AcceptOutcome =
  | { ok: true; userId: string; organizationName: string }
  | { ok: false; reason: ClosedInvitationState | "account-exists" }
  | { ok: false; reason: "weak-password"; problem: string };

/** What sending an invitation needs: the bindings, this site's origin for the link, the mail's language. */
export type InvitationSender = { env: Env; origin: string; t: Translate };

/**
 * Invites an address to an organization with a role and mails it the link. Only the code's
 * hash is kept; a newer invitation for the same address and organization replaces the older.
 * `alongside` adds statements to the same batch, after the new invitation's row (its log entry).
 */
export async function createInvitation(
  sender: InvitationSender,
  input: { orgId: string; email: string; role: Role; invitedBy: string },
  alongside: (invitation: { id: string; expiresAt: string }) => D1PreparedStatement[] = () => [],
): Promise<{ id: string; expiresAt: string }> {
  const db = sender.env.DB;
  const [organization, inviter] = await Promise.all([findOrganization(db, input.orgId), findUserById(db, input.invitedBy)]);
  if (!organization) throw new Error(`no organization ${input.orgId}`);

  const code = randomToken(32);
  const at = Date.now();
  const expiresAt = new Date(at + INVITATION_LIFETIME_MS).toISOString();
  const { id, statements } = insertInvitationStatements(db, {
    orgId: input.orgId,
    email: input.email,
    role: input.role,
    codeHash: await sha256Hex(code),
    invitedBy: input.invitedBy,
    expiresAt,
    at: new Date(at).toISOString(),
  });
  await batch(db, [...statements, ...alongside({ id, expiresAt })]);

  // The invitee's language is unknown: the mail uses the inviter's page language.
  const { t } = sender;
  await sendMail(sender.env, {
    to: normalizeEmail(input.email),
    subject: String(t("mail.invitation.subject", { organization: organization.name })),
    body: String(
      t("mail.invitation.body", {
        inviter: inviter?.name || inviter?.email || organization.name,
        organization: organization.name,
        link: `${sender.origin}/accept/${code}`,
        days: INVITATION_LIFETIME_MS / 86_400_000,
      }),
    ),
  });
  return { id, expiresAt };
}

/** The invitation a link's code names and whether it can still be accepted. */
export async function lookUpInvitation(db: Db, code: string): Promise<InvitationLookup> {
  if (!code || code.length > 100) return { state: "unknown" };
  const invitation = await findInvitationByCodeHash(db, await sha256Hex(code));
  if (!invitation) return { state: "unknown" };
  if (invitation.acceptedAt) return { state: "accepted" };
  if (invitation.revokedAt) return { state: "revoked" };
  if (Date.parse(invitation.expiresAt) <= Date.now()) return { state: "expired" };
  return { state: "open", invitation };
}

/** The invitation a code names if it can still be accepted, else null. */
export async function findOpenInvitation(db: Db, code: string): Promise<Invitation | null> {
  const lookup = await lookUpInvitation(db, code);
  return lookup.state === "open" ? lookup.invitation : null;
}

/**
 * Accepts an invitation: creates the user in the invitation's organization with its role
 * and marks it accepted (one batch, only while it is open), then signs the person in. An
 * address that already has an account is refused, also when two tabs race for it.
 */
export async function acceptInvitation(
  c: Context<AppEnv>,
  code: string,
  input: { name: string; password: string },
): Promise<AcceptOutcome> {
  const db = c.env.DB;
  const lookup = await lookUpInvitation(db, code);
  if (lookup.state !== "open") return { ok: false, reason: lookup.state };
  const { invitation } = lookup;
  if (await findUserByEmail(db, invitation.email)) return { ok: false, reason: "account-exists" };
  const problem = passwordProblem(input.password);
  if (problem) return { ok: false, reason: "weak-password", problem };

  const { userId, statements } = acceptInvitationStatements(db, {
    codeHash: await sha256Hex(code),
    name: input.name,
    passwordHash: await hashPassword(input.password),
    language: c.get("language"),
    at: new Date().toISOString(),
  });
  try {
    const [inserted] = await db.batch(statements);
    // Whether a row was inserted, not how many changes: D1 counts the rows the users triggers
    // write too (user_scopes, users_fts: migration 0020).
    if (!inserted?.meta.changes) {
      // Accepted, revoked or expired since the lookup above.
      const now = await lookUpInvitation(db, code);
      return { ok: false, reason: now.state === "open" ? "unknown" : now.state };
    }
  } catch (error) {
    // The unique address: an account was created for it since the check above.
    if (await findUserByEmail(db, invitation.email)) return { ok: false, reason: "account-exists" };
    throw error;
  }

  // Whoever was signed in in this browser before is signed out.
  const previous = c.get("session");
  await startSession(c, userId, "signed-in", previous ? [deleteSessionStatement(db, previous.record.id)] : []);
  await recordSignIn(db, userId);
  return { ok: true, userId, organizationName: invitation.organizationName };
}
