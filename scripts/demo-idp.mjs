// `npm run demo:idp`: a real OpenID Connect provider on http://localhost:9400 (IDP_PORT
// overrides) for trying single sign-on locally, with the `oidc-provider` package. The demo seed
// (scripts/demo-data.mjs) registers it as "Harbor SSO" for harbor-sso.example; sign in there as
// alice@harbor-sso.example with the demo password. The browser tests start their own instance
// with startDemoIdp() on a port of their own. Never use this anywhere but on your machine:
// its signing keys are generated at start and its accounts are in memory.
import { randomBytes } from "node:crypto";
import { createServer } from "node:http";
import Provider from "oidc-provider";
import { DEMO_PASSWORD, identityProviders } from "./demo-data.mjs";

/** The demo provider's people: sub → email (verified), name and password. */
export function demoAccounts() {
  return new Map([
    ["alice", { email: "alice@harbor-sso.example", emailVerified: true, name: "Alice Harbor", password: DEMO_PASSWORD }],
  ]);
}

const escapeHtml = (text) =>
  String(text).replace(/[&<>"']/g, (ch) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[ch]);

function page(title, body) {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width">
<title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:24rem;margin:3rem auto;padding:0 1rem}
label{display:block;margin-top:1rem}input{display:block;width:100%;padding:.5rem;margin-top:.25rem;box-sizing:border-box}
button{margin-top:1.25rem;padding:.5rem 1rem}.error{color:#b91c1c}</style></head><body>${body}</body></html>`;
}

function loginPage(uid, name, { error = "", login = "" } = {}) {
  return page(
    `Sign in · ${name}`,
    `<h1>${escapeHtml(name)}</h1><p>Demo identity provider. Sign in to continue.</p>
${error ? `<p class="error" role="alert">${escapeHtml(error)}</p>` : ""}
<form method="post" action="/interaction/${uid}/login">
<label>Email<input name="login" type="email" autocomplete="username" value="${escapeHtml(login)}" required></label>
<label>Password<input name="password" type="password" autocomplete="current-password" required></label>
<button type="submit">Sign in</button></form>
<form method="post" action="/interaction/${uid}/abort"><button type="submit">Cancel</button></form>`,
  );
}

async function formBody(req) {
  let text = "";
  for await (const chunk of req) text += chunk;
  return new URLSearchParams(text);
}

/**
 * Starts the provider: `clients` are [{clientId, clientSecret, redirectUris}], `accounts` a
 * Map that may be changed while it runs (claims are read at every sign-in). `hooks` lets a test
 * play a man in the middle: `request(url)` may change an incoming request's URL, `redirect(url)`
 * the Location of a redirect the provider sends (both edit the URL in place).
 */
export async function startDemoIdp({ port, clients, accounts = demoAccounts(), name = "Harbor SSO", hooks = {} }) {
  const issuer = `http://localhost:${port}`;
  const provider = new Provider(issuer, {
    clients: clients.map((client) => ({
      client_id: client.clientId,
      client_secret: client.clientSecret,
      redirect_uris: client.redirectUris,
      grant_types: ["authorization_code"],
      response_types: ["code"],
      token_endpoint_auth_method: "client_secret_basic",
    })),
    async findAccount(_ctx, sub) {
      const account = accounts.get(sub);
      if (!account) return undefined;
      return {
        accountId: sub,
        claims: async () => ({ sub, email: account.email, email_verified: account.emailVerified, name: account.name }),
      };
    },
    claims: { openid: ["sub"], email: ["email", "email_verified"], profile: ["name"] },
    // The ID token carries the email claims (the app also asks userinfo when it does not).
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    pkce: { required: () => true },
    cookies: { keys: [randomBytes(32).toString("base64url")] },
  });

  async function interaction(req, res, url) {
    const [, , uid, action] = url.pathname.split("/");
    const details = await provider.interactionDetails(req, res);
    if (details.uid !== uid) throw new Error("interaction mismatch");
    if (req.method === "POST" && action === "abort") {
      return provider.interactionFinished(req, res, { error: "access_denied", error_description: "The user cancelled." });
    }
    if (details.prompt.name === "login") {
      if (req.method === "POST" && action === "login") {
        const form = await formBody(req);
        const login = (form.get("login") ?? "").trim().toLowerCase();
        const found = [...accounts].find(([, account]) => account.email === login);
        if (!found || found[1].password !== form.get("password")) {
          res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
          return res.end(loginPage(uid, name, { error: "Wrong email or password.", login }));
        }
        return provider.interactionFinished(req, res, { login: { accountId: found[0] } }, { mergeWithLastSubmission: false });
      }
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      return res.end(loginPage(uid, name));
    }
    // Consent: the app is this provider's own client, so what it asks for is granted at once.
    const { prompt, params, session, grantId } = details;
    const grant = grantId
      ? await provider.Grant.find(grantId)
      : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
    if (prompt.details.missingOIDCScope) grant.addOIDCScope(prompt.details.missingOIDCScope.join(" "));
    if (prompt.details.missingOIDCClaims) grant.addOIDCClaims(prompt.details.missingOIDCClaims);
    const saved = await grant.save();
    return provider.interactionFinished(req, res, { consent: { grantId: saved } }, { mergeWithLastSubmission: true });
  }

  const callback = provider.callback();
  const server = createServer((req, res) => {
    const url = new URL(req.url ?? "/", issuer);
    if (hooks.request) {
      hooks.request(url);
      req.url = url.pathname + url.search;
    }
    if (hooks.redirect) {
      const setHeader = res.setHeader.bind(res);
      res.setHeader = (header, value) => {
        if (String(header).toLowerCase() !== "location") return setHeader(header, value);
        const location = new URL(String(value), issuer);
        hooks.redirect(location);
        return setHeader(header, location.href);
      };
    }
    if (!url.pathname.startsWith("/interaction/")) return callback(req, res);
    interaction(req, res, url).catch((error) => {
      res.writeHead(400, { "content-type": "text/html; charset=utf-8" });
      res.end(page("Sign-in failed", `<h1>Sign-in failed</h1><p>${escapeHtml(error.message)}</p>`));
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "localhost", resolve);
  });
  return {
    issuer,
    accounts,
    hooks,
    close: () => new Promise((resolve) => server.close(() => resolve(undefined))),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const port = Number(process.env.IDP_PORT ?? 9400);
  const appOrigin = process.env.APP_ORIGIN ?? `http://localhost:${process.env.PORT ?? 8787}`;
  const demo = identityProviders[0];
  const idp = await startDemoIdp({
    port,
    name: demo.name,
    clients: [
      {
        clientId: demo.clientId,
        clientSecret: demo.clientSecret,
        redirectUris: [
          `${appOrigin}/api/auth/callback/${demo.id}`,
          `http://127.0.0.1:${new URL(appOrigin).port}/api/auth/callback/${demo.id}`,
        ],
      },
    ],
  });
  console.log(`Demo identity provider at ${idp.issuer} (the app at ${appOrigin} uses it as "${demo.name}").`);
  console.log(`Sign in at ${appOrigin}/sign-in as alice@harbor-sso.example, password ${DEMO_PASSWORD}. Ctrl+C stops it.`);
  for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => idp.close().then(() => process.exit(0)));
}
