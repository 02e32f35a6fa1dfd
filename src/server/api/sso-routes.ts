import { type Context, Hono } from "hono";
import { startSession } from "../auth/sessions";
import { withinLimit } from "../auth/throttle";
import { batch } from "../data/db";
import { saveOidcLoginStatements, takeOidcLogin } from "../data/oidc-logins";
import { deleteSessionStatement } from "../data/sessions";
import { recordSignIn } from "../data/users";
import type { AppEnv } from "../env";
import { setFlash } from "../render/flash";
import { localPath } from "../safe-redirect";
import { matchAccount } from "../sso/account-match";
import { authorizationUrl, completeLogin, discover, newLoginSecrets, SingleSignOnError } from "../sso/oidc-client";
import { problemPage } from "../sso/problem-page";
import { allowsInsecureIssuer, lookUpProvider } from "../sso/providers";

/** A sign-in at the provider must come back within 10 minutes. */
export const LOGIN_LIFETIME_MS = 10 * 60_000;

function redirectUri(c: Context<AppEnv>, providerId: string): string {
  return `${new URL(c.req.url).origin}/api/auth/callback/${encodeURIComponent(providerId)}`;
}

/** Where to go once signed in: a path on this site, never the sign-in page itself. */
function nextPath(value: string | undefined): string {
  const next = localPath(value ?? "/");
  return new URL(next, "http://local.invalid").pathname === "/sign-in" ? "/" : next;
}

/**
 * Single sign-on with OpenID Connect (spec §7: GET /api/auth/signin/{identityProviderId} by
 * browser redirect): the authorization code flow with PKCE, state and nonce, and the callback
 * that signs the person in. Whatever goes wrong ends on a translated page, never a 500.
 */
export const ssoRoutes = new Hono<AppEnv>()
  .get("/api/auth/signin/:identityProviderId", async (c) => {
    const found = await lookUpProvider(c, c.req.param("identityProviderId"));
    if (found.state === "unknown") return problemPage(c, "unknown-provider");
    if (found.state === "not-configured") return problemPage(c, "not-configured", found.name);
    const { provider } = found;
    if (!(await withinLimit(c, "single-sign-on"))) return problemPage(c, "too-many-attempts", provider.name);

    const options = { allowInsecure: allowsInsecureIssuer(c.env) };
    let target: URL;
    const secrets = newLoginSecrets();
    try {
      const metadata = await discover(provider, options);
      target = await authorizationUrl(metadata, provider, secrets, redirectUri(c, provider.id));
    } catch (error) {
      console.error("single sign-on: discovery failed", provider.id, error);
      return problemPage(c, error instanceof SingleSignOnError ? error.reason : "provider-unreachable", provider.name);
    }
    const at = Date.now();
    await batch(
      c.env.DB,
      saveOidcLoginStatements(
        c.env.DB,
        {
          ...secrets,
          providerId: provider.id,
          next: nextPath(c.req.query("next")),
          expiresAt: new Date(at + LOGIN_LIFETIME_MS).toISOString(),
        },
        new Date(at).toISOString(),
      ),
    );
    c.header("Cache-Control", "no-store");
    return c.redirect(target.href, 302);
  })
  .get("/api/auth/callback/:identityProviderId", async (c) => {
    const providerId = c.req.param("identityProviderId");
    const state = c.req.query("state") ?? "";
    // The state is single use: taken (deleted) whatever happens next.
    const login = state && state.length <= 200 ? await takeOidcLogin(c.env.DB, state) : null;
    if (!login || login.providerId !== providerId || Date.parse(login.expiresAt) <= Date.now()) {
      return problemPage(c, "invalid-state");
    }
    const found = await lookUpProvider(c, providerId);
    if (found.state === "unknown") return problemPage(c, "unknown-provider");
    if (found.state === "not-configured") return problemPage(c, "not-configured", found.name);
    const { provider } = found;

    const options = { allowInsecure: allowsInsecureIssuer(c.env) };
    let claims: Awaited<ReturnType<typeof completeLogin>>;
    try {
      const metadata = await discover(provider, options);
      claims = await completeLogin(
        metadata,
        provider,
        new URL(c.req.url),
        { state: login.state, nonce: login.nonce, codeVerifier: login.codeVerifier, redirectUri: redirectUri(c, provider.id) },
        options,
      );
    } catch (error) {
      if (!(error instanceof SingleSignOnError)) throw error;
      if (error.reason !== "provider-refused") console.error("single sign-on: callback refused", provider.id, error.cause);
      return problemPage(c, error.reason, provider.name);
    }

    const match = await matchAccount(c, provider, claims);
    if (!match.ok) return problemPage(c, match.reason, provider.name);
    // Whoever was signed in in this browser before is signed out; a new token as at every sign-in.
    const previous = c.get("session");
    const replaced = previous ? [deleteSessionStatement(c.env.DB, previous.record.id)] : [];
    try {
      await startSession(c, match.userId, "signed-in", [...match.statements, ...replaced]);
    } catch (error) {
      // Only an invitation accepted at the same moment elsewhere gets here: nobody is signed in.
      if (!match.created) throw error;
      return problemPage(c, "no-account", provider.name);
    }
    await recordSignIn(c.env.DB, match.userId);
    setFlash(c, { type: "success", key: "signIn.signedIn" });
    c.header("Cache-Control", "no-store");
    return c.redirect(login.next, 302);
  });
