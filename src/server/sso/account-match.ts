import type { Context } from "hono";
import type { D1PreparedStatement } from "../cloudflare";
import { findExternalIdentity, linkExternalIdentityStatement, touchExternalIdentityStatement } from "../data/external-identities";
import type { ProviderSignInConfig } from "../data/identity-providers";
import { acceptInvitationWithoutPasswordStatements, findOpenInvitationForEmail } from "../data/invitations";
import { isWithinOrganization } from "../data/organizations";
import { findUserByEmail, findUserById } from "../data/users";
import type { AppEnv } from "../env";
import type { VerifiedClaims } from "./oidc-client";

/**
 * Who a provider's sign-in is here, and the writes that go with it (in the session's batch):
 * `userId` signs in; otherwise `reason` says why nobody does.
 */
export type AccountMatch =
  | { ok: true; userId: string; statements: D1PreparedStatement[]; created: boolean }
  | { ok: false; reason: "no-account" | "email-not-verified" };

function domainOf(email: string): string {
  return email.slice(email.lastIndexOf("@") + 1);
}

/**
 * Finds the user for a provider's verified claims, in this order:
 * 1. an identity linked before (provider + subject), whatever the email says today;
 * 2. else the user with the token's email, when the provider marks it verified, the email's
 *    domain is one of the provider's, and the user belongs to the provider's organization or
 *    one of its descendants: then the identity is linked;
 * 3. else an open invitation for that email in that tree: accepted (the user is created with
 *    the invited role and no password), and the identity linked.
 * The default identity provider (no organization) is trusted for every organization and domain.
 */
export async function matchAccount(
  c: Context<AppEnv>,
  provider: ProviderSignInConfig,
  claims: VerifiedClaims,
): Promise<AccountMatch> {
  const db = c.env.DB;
  const linked = await findExternalIdentity(db, provider.id, claims.subject);
  if (linked) {
    const user = await findUserById(db, linked.userId);
    if (user?.status !== "active") return { ok: false, reason: "no-account" };
    return {
      ok: true,
      userId: user.id,
      created: false,
      statements: [touchExternalIdentityStatement(db, linked.id, claims.email ?? linked.email)],
    };
  }

  if (!claims.email) return { ok: false, reason: "no-account" };
  if (!claims.emailVerified) return { ok: false, reason: "email-not-verified" };
  const email = claims.email;
  if (provider.orgId && !provider.emailDomains.includes(domainOf(email))) return { ok: false, reason: "no-account" };
  const link = (userId: string) =>
    linkExternalIdentityStatement(db, { userId, providerId: provider.id, subject: claims.subject, email });

  const user = await findUserByEmail(db, email);
  if (user) {
    const inScope = !provider.orgId || (await isWithinOrganization(db, provider.orgId, user.orgId));
    if (!inScope || user.status !== "active") return { ok: false, reason: "no-account" };
    return { ok: true, userId: user.id, created: false, statements: [link(user.id)] };
  }

  const at = new Date().toISOString();
  const invitation = await findOpenInvitationForEmail(db, email, provider.orgId, at);
  if (!invitation) return { ok: false, reason: "no-account" };
  const { userId, statements } = acceptInvitationWithoutPasswordStatements(db, {
    invitationId: invitation.id,
    name: claims.name,
    language: c.get("language"),
    at,
  });
  return { ok: true, userId, created: true, statements: [...statements, link(userId)] };
}
