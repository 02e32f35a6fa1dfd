import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createOrganization, createUser, sessionCookie } from "./fixtures";
import { cookieFrom, ORIGIN, request } from "./helpers";

// Single sign-on in workerd. The identity provider is played by the test: global fetch is
// stubbed (the Worker's code runs in this isolate) to serve the provider's discovery document,
// its token endpoint and its userinfo endpoint for ISSUER. The ID tokens it issues carry a
// dummy signature: oauth4webapi trusts a token endpoint's ID token by TLS and checks its
// claims (issuer, audience, nonce, expiry), which is what these tests exercise.

const ISSUER = "https://idp.test";
const CLIENT_ID = "configuration-tool";
const CLIENT_SECRET = "s3cret-value-never-shown";
const SESSION = "__Host-session";

type Claims = Record<string, unknown>;

/** What the fake provider puts in the next ID token (sub, email, email_verified, nonce…). */
let nextClaims: (request: { nonce: string }) => Claims = () => ({});
/** The nonce the authorization request carried, by code. */
const codes = new Map<string, string>();
let tokenRequests: Request[] = [];

function base64url(value: string): string {
  return btoa(value).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

function idToken(claims: Claims): string {
  const now = Math.floor(Date.now() / 1000);
  const payload = { iss: ISSUER, aud: CLIENT_ID, iat: now, exp: now + 300, ...claims };
  return `${base64url(JSON.stringify({ alg: "RS256", typ: "JWT" }))}.${base64url(JSON.stringify(payload))}.c2ln`;
}

const discovery = {
  issuer: ISSUER,
  authorization_endpoint: `${ISSUER}/auth`,
  token_endpoint: `${ISSUER}/token`,
  userinfo_endpoint: `${ISSUER}/me`,
  jwks_uri: `${ISSUER}/jwks`,
  response_types_supported: ["code"],
  subject_types_supported: ["public"],
  id_token_signing_alg_values_supported: ["RS256"],
  token_endpoint_auth_methods_supported: ["client_secret_basic", "client_secret_post"],
};

async function fakeProvider(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
  const req = new Request(input, init);
  const url = new URL(req.url);
  if (url.origin !== ISSUER) return new Response("not the provider", { status: 599 });
  if (url.pathname === "/.well-known/openid-configuration") return Response.json(discovery);
  if (url.pathname === "/token") {
    tokenRequests.push(req.clone());
    const form = await req.formData();
    const nonce = codes.get(String(form.get("code") ?? ""));
    if (nonce === undefined) return Response.json({ error: "invalid_grant" }, { status: 400 });
    const claims = { nonce, ...nextClaims({ nonce }) };
    return Response.json({ access_token: "at", token_type: "Bearer", expires_in: 60, id_token: idToken(claims) });
  }
  return new Response("not found", { status: 404 });
}

function cookieHeader(cookie?: string): Record<string, string> {
  return cookie ? { Cookie: cookie } : {};
}

async function callProcedure(path: string, input: unknown, cookie?: string) {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", ...cookieHeader(cookie) },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function query(path: string, input: unknown, cookie?: string) {
  const search = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  const response = await request(`/api/${path}${search}`, {
    headers: cookieHeader(cookie),
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function emailStep(username: string) {
  const response = await request("/api/sign-in", {
    method: "POST",
    body: JSON.stringify({ username }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json" },
  });
  return (await response.json()) as Record<string, unknown>;
}

/** A page's HTML with React's entity escapes undone, to look for sentences in it. */
async function pageText(response: Response): Promise<string> {
  return (await response.text()).replaceAll("&#x27;", "'").replaceAll("&quot;", '"').replaceAll("&amp;", "&");
}

function errorCode(body: Record<string, unknown>): string | undefined {
  return (body.error as { data?: { code?: string } } | undefined)?.data?.code;
}

/** Starts a sign-in at our app: the redirect to the provider, with its parameters. */
async function startSignIn(providerId: string, next?: string) {
  const response = await request(`/api/auth/signin/${providerId}${next ? `?next=${encodeURIComponent(next)}` : ""}`, {
    redirect: "manual",
  });
  const location = response.headers.get("Location");
  return { response, location: location ? new URL(location) : null };
}

/** The provider's side: the person signed in, the provider sends the browser back with a code. */
async function comeBack(providerId: string, authorization: URL, extra: Record<string, string> = {}) {
  const code = crypto.randomUUID();
  codes.set(code, authorization.searchParams.get("nonce") ?? "");
  const params = new URLSearchParams({ code, state: authorization.searchParams.get("state") ?? "", ...extra });
  return request(`/api/auth/callback/${providerId}?${params}`, { redirect: "manual" });
}

async function me(sessionCookieValue: string | undefined) {
  const response = await request("/api/me", { headers: cookieHeader(sessionCookieValue && `${SESSION}=${sessionCookieValue}`) });
  return (await response.json()) as { ok: boolean; user?: string };
}

let harborOrg: string;
let metroOrg: string;
let outsiderOrg: string;
let owner: { id: string; email: string; orgId: string };
let ownerCookie: string;
let providerId: string;
let providerVersion: number;

beforeAll(async () => {
  harborOrg = await createOrganization("Harbor");
  metroOrg = await createOrganization("Metro", harborOrg);
  outsiderOrg = await createOrganization("Outsider");
  owner = await createUser({ email: "owner@harbor.test", role: "owner", orgId: harborOrg });
  ownerCookie = await sessionCookie(owner.email);
  const added = await callProcedure(
    "identityProviders.add",
    {
      orgId: harborOrg,
      name: "Harbor SSO",
      issuer: ISSUER,
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      emailDomains: ["Harbor-SSO.test", "metro-sso.test"],
    },
    ownerCookie,
  );
  expect(added.status).toBe(200);
  const provider = (added.body.result as { data: { id: string; version: number } }).data;
  providerId = provider.id;
  providerVersion = provider.version;
  // Its domains are proven as a vendor would approve them (the proof itself is tested below).
  await env.DB.prepare(
    "UPDATE identity_provider_domains SET proven_at = '2026-01-01T00:00:00.000Z', proven_by = 'vendor' WHERE provider_id = ?",
  )
    .bind(providerId)
    .run();
});

afterEach(() => {
  vi.restoreAllMocks();
  nextClaims = () => ({});
  tokenRequests = [];
});

describe("the sign-in email step", () => {
  it("names the provider whose domain the address has, in any letter case", async () => {
    for (const username of ["someone@harbor-sso.test", "Someone@HARBOR-SSO.TEST", "x@metro-sso.test"]) {
      expect(await emailStep(username)).toEqual({ ok: true, identityProviderId: providerId, identityProviderName: "Harbor SSO" });
    }
  });

  it("answers exactly {ok:true} for other domains, also ones that merely end alike", async () => {
    for (const username of ["someone@example.com", "someone@sub.harbor-sso.test", "someone@harbor-sso.test.evil"]) {
      expect(await emailStep(username)).toEqual({ ok: true });
    }
  });

  it("does not send a user of another tenant to the provider that claims their domain", async () => {
    await createUser({ email: "stranger@harbor-sso.test", orgId: outsiderOrg });
    expect(await emailStep("stranger@harbor-sso.test")).toEqual({ ok: true });
  });

  it("shows the single sign-on step without JavaScript too", async () => {
    const response = await request("/sign-in", {
      method: "POST",
      body: new URLSearchParams({ step: "email", email: "pat@harbor-sso.test" }),
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    });
    const html = await response.text();
    expect(response.status).toBe(200);
    expect(html).toContain("Continue with Harbor SSO");
    expect(html).toContain(`href="/api/auth/signin/${providerId}"`);
    // The live page (not the script's inert templates) asks for no password at this step.
    const live = html.replace(/<template[\s\S]*?<\/template>/g, "");
    expect(live).toMatch(/<h2[^>]*>Single sign-on<\/h2>/);
    expect(live).toContain(">pat@harbor-sso.test<");
    expect(live).not.toContain('name="password"');
  });
});

describe("identityProviders procedures", () => {
  it("never return the client secret, only whether one is set", async () => {
    const list = await query("identityProviders.list", {}, ownerCookie);
    const details = await query("identityProviders.details", { id: providerId }, ownerCookie);
    for (const text of [JSON.stringify(list.body), JSON.stringify(details.body)]) {
      expect(text).not.toContain(CLIENT_SECRET);
      expect(text).not.toContain("clientSecret");
    }
    const provider = (details.body.result as { data: Record<string, unknown> }).data;
    expect(provider).toMatchObject({
      id: providerId,
      name: "Harbor SSO",
      issuer: ISSUER,
      clientId: CLIENT_ID,
      hasClientSecret: true,
      emailDomains: ["harbor-sso.test", "metro-sso.test"],
    });
    const logged = await env.DB.prepare("SELECT diff FROM activity_logs WHERE entity_id = ?").bind(providerId).all();
    expect(JSON.stringify(logged.results)).not.toContain(CLIENT_SECRET);
  });

  it("refuse callers without edit-users (FORBIDDEN), signed-out callers (UNAUTHORIZED)", async () => {
    const viewer = await createUser({ role: "viewer", orgId: harborOrg });
    const viewerCookie = await sessionCookie(viewer.email);
    expect(errorCode((await query("identityProviders.list", {}, viewerCookie)).body)).toBe("FORBIDDEN");
    expect(errorCode((await query("identityProviders.details", { id: providerId }, viewerCookie)).body)).toBe("FORBIDDEN");
    const add = await callProcedure(
      "identityProviders.add",
      { orgId: harborOrg, name: "Mine", issuer: ISSUER, clientId: "x", emailDomains: ["viewer.test"] },
      viewerCookie,
    );
    expect(errorCode(add.body)).toBe("FORBIDDEN");
    expect(errorCode((await callProcedure("identityProviders.delete", { id: providerId, version: 1 }, viewerCookie)).body)).toBe(
      "FORBIDDEN",
    );
    expect(errorCode((await query("identityProviders.list", {}, undefined)).body)).toBe("UNAUTHORIZED");
  });

  it("answer NOT_FOUND for another organization's provider, and refuse adding one there", async () => {
    const outsider = await createUser({ role: "owner", orgId: outsiderOrg });
    const outsiderCookie = await sessionCookie(outsider.email);
    expect(errorCode((await query("identityProviders.details", { id: providerId }, outsiderCookie)).body)).toBe("NOT_FOUND");
    const update = await callProcedure(
      "identityProviders.update",
      { id: providerId, version: providerVersion, name: "Taken", issuer: ISSUER, clientId: "x", emailDomains: ["a.test"] },
      outsiderCookie,
    );
    expect(errorCode(update.body)).toBe("NOT_FOUND");
    expect(
      errorCode((await callProcedure("identityProviders.delete", { id: providerId, version: 1 }, outsiderCookie)).body),
    ).toBe("NOT_FOUND");
    const list = (await query("identityProviders.list", {}, outsiderCookie)).body.result as { data: unknown[] };
    expect(list.data).toEqual([]);
    const add = await callProcedure(
      "identityProviders.add",
      { orgId: harborOrg, name: "Sneaky", issuer: ISSUER, clientId: "x", emailDomains: ["sneaky.test"] },
      outsiderCookie,
    );
    expect(errorCode(add.body)).toBe("NOT_FOUND");
  });

  it("validate fields, refuse a domain another provider has, and answer CONFLICT on a stale version", async () => {
    const bad = await callProcedure(
      "identityProviders.add",
      { orgId: harborOrg, name: "", issuer: "http://idp.example.com", clientId: "x", emailDomains: ["not a domain"] },
      ownerCookie,
    );
    expect(errorCode(bad.body)).toBe("BAD_REQUEST");
    const fieldErrors = (bad.body.error as { data: { fieldErrors: Record<string, string[]> } }).data.fieldErrors;
    expect(Object.keys(fieldErrors).sort()).toEqual(["emailDomains", "issuer", "name"]);

    const taken = await callProcedure(
      "identityProviders.add",
      { orgId: metroOrg, name: "Metro SSO", issuer: ISSUER, clientId: "x", emailDomains: ["METRO-SSO.test"] },
      ownerCookie,
    );
    expect(errorCode(taken.body)).toBe("BAD_REQUEST");
    expect((taken.body.error as { message: string }).message).toBe("Another identity provider already has one of these domains.");

    const added = await callProcedure(
      "identityProviders.add",
      { orgId: metroOrg, name: "Metro SSO", issuer: ISSUER, clientId: "metro", emailDomains: ["metro-only.test"] },
      ownerCookie,
    );
    const metro = (added.body.result as { data: { id: string; version: number; hasClientSecret: boolean } }).data;
    expect(metro.hasClientSecret).toBe(false);
    const fields = { name: "Metro SSO 2", issuer: ISSUER, clientId: "metro", emailDomains: ["metro-only.test"] };
    const first = await callProcedure(
      "identityProviders.update",
      { id: metro.id, version: metro.version, ...fields, clientSecret: "new-secret" },
      ownerCookie,
    );
    expect((first.body.result as { data: { hasClientSecret: boolean; version: number } }).data).toMatchObject({
      hasClientSecret: true,
      version: metro.version + 1,
    });
    // An empty secret keeps the stored one.
    const kept = await callProcedure(
      "identityProviders.update",
      { id: metro.id, version: metro.version + 1, ...fields, clientSecret: "" },
      ownerCookie,
    );
    expect((kept.body.result as { data: { hasClientSecret: boolean } }).data.hasClientSecret).toBe(true);
    const stored = await env.DB.prepare("SELECT client_secret FROM identity_providers WHERE id = ?").bind(metro.id).first();
    expect(stored).toEqual({ client_secret: "new-secret" });

    const stale = await callProcedure(
      "identityProviders.update",
      { id: metro.id, version: metro.version, ...fields },
      ownerCookie,
    );
    expect(errorCode(stale.body)).toBe("CONFLICT");
    expect(errorCode((await callProcedure("identityProviders.delete", { id: metro.id, version: 1 }, ownerCookie)).body)).toBe(
      "CONFLICT",
    );
    const deleted = await callProcedure("identityProviders.delete", { id: metro.id, version: metro.version + 2 }, ownerCookie);
    expect(deleted.body.result).toEqual({ data: { ok: true } });
  });
});

describe("proving a claimed domain (no squatting)", () => {
  const RESOLVER = "https://cloudflare-dns.com/dns-query";
  type Claim = { domain: string; token: string; provenAt: string | null; provenBy: string | null };
  type Provider = { id: string; version: number; domainClaims: Claim[] };

  /** A DNS-over-HTTPS resolver played by the test: TXT records by name. */
  function fakeResolver(records: Record<string, string[]>, seen: URL[] = []) {
    return async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      const url = new URL(new Request(input, init).url);
      seen.push(url);
      if (`${url.origin}${url.pathname}` !== RESOLVER) return new Response("not the resolver", { status: 599 });
      const name = url.searchParams.get("name") ?? "";
      const data = records[name];
      if (!data) return Response.json({ Status: 3, Question: [{ name, type: 16 }] });
      return Response.json({ Status: 0, Answer: data.map((value) => ({ name, type: 16, TTL: 300, data: `"${value}"` })) });
    };
  }

  async function addProvider(orgId: string, cookie: string, domains: string[], name = "Claim SSO"): Promise<Provider> {
    const added = await callProcedure(
      "identityProviders.add",
      { orgId, name, issuer: ISSUER, clientId: "claims", emailDomains: domains },
      cookie,
    );
    return (added.body.result as { data: Provider }).data;
  }

  it("routes no one through an unproven claim, and does not let it keep the rightful owner out", async () => {
    const squatterOrg = await createOrganization("Squatter");
    const squatter = await createUser({ role: "owner", orgId: squatterOrg });
    const squatterCookie = await sessionCookie(squatter.email);
    const squat = await addProvider(squatterOrg, squatterCookie, ["victim-corp.test"], "Squat SSO");
    expect(squat.domainClaims).toEqual([
      { domain: "victim-corp.test", token: expect.stringMatching(/^[0-9a-f]{32}$/), provenAt: null, provenBy: null },
    ]);
    expect(await emailStep("new.person@victim-corp.test")).toEqual({ ok: true });
    // The rightful owner may still claim it, and proves it by DNS.
    const rightful = await addProvider(harborOrg, ownerCookie, ["victim-corp.test"], "Victim SSO");
    const token = rightful.domainClaims[0]?.token ?? "";
    expect(token).not.toBe(squat.domainClaims[0]?.token);
    const seen: URL[] = [];
    vi.spyOn(globalThis, "fetch").mockImplementation(
      fakeResolver({ "_configuration-tool.victim-corp.test": [`configuration-tool-verification=${token}`] }, seen),
    );
    const proven = await callProcedure(
      "identityProviders.verifyDomain",
      { id: rightful.id, domain: "victim-corp.test" },
      ownerCookie,
    );
    expect(errorCode(proven.body)).toBeUndefined();
    expect((proven.body.result as { data: Provider }).data.domainClaims[0]).toMatchObject({ provenBy: "dns" });
    expect(seen[0]?.searchParams.get("type")).toBe("TXT");
    expect(await emailStep("new.person@victim-corp.test")).toEqual({
      ok: true,
      identityProviderId: rightful.id,
      identityProviderName: "Victim SSO",
    });
    // The squatter can never prove it now, even with a record of its own token.
    vi.spyOn(globalThis, "fetch").mockImplementation(
      fakeResolver({
        "_configuration-tool.victim-corp.test": [`configuration-tool-verification=${squat.domainClaims[0]?.token}`],
      }),
    );
    const refused = await callProcedure(
      "identityProviders.verifyDomain",
      { id: squat.id, domain: "victim-corp.test" },
      squatterCookie,
    );
    expect(errorCode(refused.body)).toBe("CONFLICT");
    expect((refused.body.error as { message: string }).message).toBe("Another identity provider has already proven this domain.");
  });

  it("refuses a proof when the record is missing or the resolver fails, and proves nothing", async () => {
    const provider = await addProvider(harborOrg, ownerCookie, ["no-record.test"], "No Record SSO");
    vi.spyOn(globalThis, "fetch").mockImplementation(
      fakeResolver({ "_configuration-tool.no-record.test": ["configuration-tool-verification=someone-elses"] }),
    );
    const missing = await callProcedure(
      "identityProviders.verifyDomain",
      { id: provider.id, domain: "no-record.test" },
      ownerCookie,
    );
    expect(errorCode(missing.body)).toBe("PRECONDITION_FAILED");
    expect((missing.body.error as { message: string }).message).toContain("_configuration-tool.no-record.test");
    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network down"));
    const down = await callProcedure(
      "identityProviders.verifyDomain",
      { id: provider.id, domain: "no-record.test" },
      ownerCookie,
    );
    expect(errorCode(down.body)).toBe("PRECONDITION_FAILED");
    const unknown = await callProcedure("identityProviders.verifyDomain", { id: provider.id, domain: "other.test" }, ownerCookie);
    expect(errorCode(unknown.body)).toBe("NOT_FOUND");
    expect(await emailStep("a@no-record.test")).toEqual({ ok: true });
  });

  it("lets the vendor organization approve a claim, and nobody else", async () => {
    const vendorOrg = `org_vendor_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO organizations (id, name, kind) VALUES (?, 'Vendor', 'vendor')").bind(vendorOrg).run();
    const dealerOrg = await createOrganization("Vendor's dealer", vendorOrg);
    await env.DB.prepare("UPDATE organizations SET kind = 'dealer' WHERE id = ?").bind(dealerOrg).run();
    const dealerOwner = await createUser({ role: "owner", orgId: dealerOrg });
    const dealerCookie = await sessionCookie(dealerOwner.email);
    const vendorAdmin = await createUser({ role: "admin", orgId: vendorOrg });
    const vendorCookie = await sessionCookie(vendorAdmin.email);
    const provider = await addProvider(dealerOrg, dealerCookie, ["approved-by-vendor.test"], "Dealer SSO");
    const self = await callProcedure(
      "identityProviders.approveDomain",
      { id: provider.id, domain: "approved-by-vendor.test" },
      dealerCookie,
    );
    expect(errorCode(self.body)).toBe("FORBIDDEN");
    const approved = await callProcedure(
      "identityProviders.approveDomain",
      { id: provider.id, domain: "approved-by-vendor.test" },
      vendorCookie,
    );
    expect((approved.body.result as { data: Provider }).data.domainClaims[0]).toMatchObject({ provenBy: "vendor" });
    expect(await emailStep("x@approved-by-vendor.test")).toMatchObject({ identityProviderId: provider.id });
    // Another tenant's vendor-less owner cannot even see it.
    const outsider = await createUser({ role: "owner", orgId: outsiderOrg });
    const foreign = await callProcedure(
      "identityProviders.approveDomain",
      { id: provider.id, domain: "approved-by-vendor.test" },
      await sessionCookie(outsider.email),
    );
    expect(errorCode(foreign.body)).toBe("NOT_FOUND");
  });

  it("shows each claim's state and the TXT record to publish on the provider's page", async () => {
    const provider = await addProvider(harborOrg, ownerCookie, ["page-claim.test"], "Page SSO");
    const html = await pageText(
      await request(`/settings/identity-providers/edit/${provider.id}`, { headers: { Cookie: ownerCookie } }),
    );
    expect(html).toContain("_configuration-tool.page-claim.test");
    expect(html).toContain(`configuration-tool-verification=${provider.domainClaims[0]?.token}`);
    expect(html).toContain("Not proven yet");
    // Checking without JavaScript: a plain form post, answered on the page.
    vi.spyOn(globalThis, "fetch").mockImplementation(
      fakeResolver({
        "_configuration-tool.page-claim.test": [`configuration-tool-verification=${provider.domainClaims[0]?.token}`],
      }),
    );
    const posted = await request(`/settings/identity-providers/edit/${provider.id}/domains`, {
      method: "POST",
      body: new URLSearchParams({ domain: "page-claim.test", intent: "verify" }),
      headers: { Cookie: ownerCookie, Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
      redirect: "manual",
    });
    expect(posted.status).toBe(303);
    const after = await pageText(
      await request(`/settings/identity-providers/edit/${provider.id}`, { headers: { Cookie: ownerCookie } }),
    );
    expect(after).toContain("Proven by its DNS record");
  });
});

describe("GET /api/auth/signin/{identityProviderId}", () => {
  it("redirects to the provider with PKCE (S256), state, nonce and our callback as redirect_uri", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const { response, location } = await startSignIn(providerId, "/security");
    expect(response.status).toBe(302);
    expect(location?.origin + (location?.pathname ?? "")).toBe(`${ISSUER}/auth`);
    const params = location?.searchParams ?? new URLSearchParams();
    expect(params.get("response_type")).toBe("code");
    expect(params.get("client_id")).toBe(CLIENT_ID);
    expect(params.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/callback/${providerId}`);
    expect(params.get("code_challenge_method")).toBe("S256");
    expect(params.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(params.get("state")).toMatch(/^[\w-]{20,}$/);
    expect(params.get("nonce")).toMatch(/^[\w-]{20,}$/);
    expect(params.get("scope")).toBe("openid email profile");
    expect(params.toString()).not.toContain(CLIENT_SECRET);
    // The verifier stays on the server: the challenge is its SHA-256.
    const login = await env.DB.prepare("SELECT code_verifier, nonce, next FROM oidc_logins WHERE state = ?")
      .bind(params.get("state"))
      .first<{ code_verifier: string; nonce: string; next: string }>();
    expect(login?.nonce).toBe(params.get("nonce"));
    expect(login?.next).toBe("/security");
    const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(login?.code_verifier));
    const challenge = base64url(String.fromCharCode(...new Uint8Array(digest)));
    expect(params.get("code_challenge")).toBe(challenge);
  });

  it("keeps ?next= on this site only", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const { location } = await startSignIn(providerId, "https://evil.example/steal");
    const next = await env.DB.prepare("SELECT next FROM oidc_logins WHERE state = ?")
      .bind(location?.searchParams.get("state"))
      .first<{ next: string }>();
    expect(next?.next).toBe("/");
  });

  it("shows a clear page for an unknown provider, an unreachable one, and the default one when it is not set up", async () => {
    const unknown = await startSignIn("idp_nope");
    expect(unknown.response.status).toBe(404);
    expect(await pageText(unknown.response)).toContain("We don't know this single sign-on provider.");

    const notSetUp = await startSignIn("northwind");
    expect(notSetUp.response.status).toBe(404);
    expect(await pageText(notSetUp.response)).toContain("Single sign-on with Northwind ID is not set up here.");

    vi.spyOn(globalThis, "fetch").mockRejectedValue(new TypeError("network down"));
    const down = await startSignIn(providerId);
    expect(down.response.status).toBe(502);
    expect(await pageText(down.response)).toContain("We couldn't reach Harbor SSO.");
  });
});

describe("GET /api/auth/callback/{identityProviderId}", () => {
  it("refuses an unknown, a reused, an expired state or one of another provider with a clear page, not a 500", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const unknown = await request(`/api/auth/callback/${providerId}?code=x&state=made-up`);
    expect(unknown.status).toBe(400);
    const text = await unknown.text();
    expect(text).toContain("This sign-in link has expired or was already used.");
    expect(text).toContain('href="/sign-in"');

    const missing = await request(`/api/auth/callback/${providerId}?code=x`);
    expect(missing.status).toBe(400);

    const { location } = await startSignIn(providerId);
    const state = location?.searchParams.get("state") ?? "";
    await env.DB.prepare("UPDATE oidc_logins SET expires_at = ? WHERE state = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), state)
      .run();
    const expired = await request(`/api/auth/callback/${providerId}?code=x&state=${state}`);
    expect(expired.status).toBe(400);
    expect(await pageText(expired)).toContain("This sign-in link has expired or was already used.");

    const other = await startSignIn(providerId);
    const wrongProvider = await request(`/api/auth/callback/northwind?code=x&state=${other.location?.searchParams.get("state")}`);
    expect(wrongProvider.status).toBe(400);
    expect(cookieFrom(wrongProvider, SESSION)).toBeUndefined();
  });

  it("signs a linked or verified-email user in with a new session, links the identity, and goes to next", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const user = await createUser({ email: "casey@harbor-sso.test", role: "configurator", orgId: metroOrg });
    nextClaims = () => ({ sub: "casey-sub", email: "Casey@Harbor-SSO.test", email_verified: true });
    const { location } = await startSignIn(providerId, "/security");
    const back = await comeBack(providerId, location as URL);
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/security");
    const token = cookieFrom(back, SESSION);
    expect(await me(token)).toMatchObject({ ok: true, user: "casey@harbor-sso.test" });
    // The code was exchanged with the verifier and the client's secret (HTTP Basic).
    const exchange = tokenRequests[0];
    const form = (await exchange?.formData()) ?? new FormData();
    expect(form.get("code_verifier")).toMatch(/^[\w-]{43}$/);
    expect(form.get("redirect_uri")).toBe(`${ORIGIN}/api/auth/callback/${providerId}`);
    const basic = exchange?.headers.get("Authorization") ?? "";
    expect(basic.startsWith("Basic ")).toBe(true);
    // RFC 6749 §2.3.1: both parts form-encoded, then base64.
    expect(atob(basic.slice(6)).split(":").map(decodeURIComponent)).toEqual([CLIENT_ID, CLIENT_SECRET]);
    expect(form.get("client_secret")).toBeNull();
    const link = await env.DB.prepare("SELECT user_id, email FROM external_identities WHERE provider_id = ? AND subject = ?")
      .bind(providerId, "casey-sub")
      .first();
    expect(link).toEqual({ user_id: user.id, email: "casey@harbor-sso.test" });

    // Next time the link decides, whatever email the provider gives now.
    nextClaims = () => ({ sub: "casey-sub", email: "casey.new@elsewhere.test", email_verified: false });
    const again = await startSignIn(providerId);
    const second = await comeBack(providerId, again.location as URL, {});
    expect(second.status).toBe(302);
    const secondToken = cookieFrom(second, SESSION);
    expect(secondToken).not.toBe(token);
    expect(await me(secondToken)).toMatchObject({ ok: true, user: "casey@harbor-sso.test" });
  });

  it("accepts an open invitation for a verified email in the provider's tree, with the invited role", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    await env.DB.prepare(
      "INSERT INTO invitations (id, org_id, email, role, code_hash, invited_by, expires_at) VALUES ('inv_sso', ?, 'newbie@harbor-sso.test', 'technician', 'hash-sso', ?, ?)",
    )
      .bind(metroOrg, owner.id, new Date(Date.now() + 86_400_000).toISOString())
      .run();
    nextClaims = () => ({ sub: "newbie-sub", email: "newbie@harbor-sso.test", email_verified: true, name: "Nia Newbie" });
    const { location } = await startSignIn(providerId);
    const back = await comeBack(providerId, location as URL);
    expect(back.status).toBe(302);
    expect(back.headers.get("Location")).toBe("/");
    const user = await env.DB.prepare(
      "SELECT org_id, role, name, password_hash FROM users WHERE email = 'newbie@harbor-sso.test'",
    ).first();
    expect(user).toEqual({ org_id: metroOrg, role: "technician", name: "Nia Newbie", password_hash: null });
    const invitation = await env.DB.prepare("SELECT accepted_at FROM invitations WHERE id = 'inv_sso'").first<{
      accepted_at: string;
    }>();
    expect(invitation?.accepted_at).toBeTruthy();
    expect(await me(cookieFrom(back, SESSION))).toMatchObject({ ok: true, user: "newbie@harbor-sso.test" });
  });

  it("refuses unknown people, unverified emails, users outside the provider's tree, and other domains", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    await createUser({ email: "far@harbor-sso.test", orgId: outsiderOrg });
    await createUser({ email: "plain@harbor.test", orgId: harborOrg });
    const cases: [Claims, string][] = [
      [{ sub: "a", email: "nobody@harbor-sso.test", email_verified: true }, "No account here matches your Harbor SSO sign-in"],
      [{ sub: "b", email: "owner@harbor.test", email_verified: true }, "No account here matches your Harbor SSO sign-in"],
      [{ sub: "c", email: "far@harbor-sso.test", email_verified: true }, "No account here matches your Harbor SSO sign-in"],
      [{ sub: "d", email: "plain@harbor.test", email_verified: false }, "Harbor SSO has not confirmed your email address"],
    ];
    for (const [claims, message] of cases) {
      nextClaims = () => claims;
      const { location } = await startSignIn(providerId);
      const back = await comeBack(providerId, location as URL);
      expect(back.status).toBe(403);
      expect(await pageText(back)).toContain(message);
      expect(cookieFrom(back, SESSION)).toBeUndefined();
    }
    const links = await env.DB.prepare(
      "SELECT count(*) AS n FROM external_identities WHERE subject IN ('a','b','c','d')",
    ).first();
    expect(links).toEqual({ n: 0 });
  });

  it("refuses an ID token with another nonce, and a provider error such as access_denied", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    await createUser({ email: "nonce@harbor-sso.test", orgId: harborOrg });
    nextClaims = () => ({ sub: "n", email: "nonce@harbor-sso.test", email_verified: true, nonce: "someone-elses-nonce" });
    const first = await startSignIn(providerId);
    const wrongNonce = await comeBack(providerId, first.location as URL);
    expect(wrongNonce.status).toBe(400);
    expect(await pageText(wrongNonce)).toContain("We couldn't verify the answer from Harbor SSO");
    expect(cookieFrom(wrongNonce, SESSION)).toBeUndefined();

    const second = await startSignIn(providerId);
    const state = second.location?.searchParams.get("state") ?? "";
    const denied = await request(`/api/auth/callback/${providerId}?error=access_denied&state=${state}`);
    expect(denied.status).toBe(403);
    expect(await pageText(denied)).toContain("Harbor SSO did not sign you in");
  });
});

describe("linked identities on the user", () => {
  it("lists the caller's identities and refuses to unlink the last way to sign in", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const user = await createUser({ email: "solo@harbor-sso.test", orgId: harborOrg });
    // An SSO-only user: no password.
    await env.DB.prepare("UPDATE users SET password_hash = NULL WHERE id = ?").bind(user.id).run();
    nextClaims = () => ({ sub: "solo-sub", email: "solo@harbor-sso.test", email_verified: true });
    const { location } = await startSignIn(providerId);
    const cookie = `${SESSION}=${cookieFrom(await comeBack(providerId, location as URL), SESSION)}`;

    const listed = await query("users.listIdentityProvidersForUser", undefined, cookie);
    const identities = (listed.body.result as { data: { id: string; providerName: string; email: string }[] }).data;
    expect(identities).toEqual([
      expect.objectContaining({
        providerId,
        providerName: "Harbor SSO",
        email: "solo@harbor-sso.test",
        lastUsedAt: expect.any(String),
      }),
    ]);
    const identityId = identities[0]?.id ?? "";

    const refused = await callProcedure("users.unlinkExternalIdentity", { id: identityId }, cookie);
    expect(errorCode(refused.body)).toBe("PRECONDITION_FAILED");
    expect((refused.body.error as { message: string }).message).toContain("Set a password");
    // Someone else's identity is not found.
    expect(errorCode((await callProcedure("users.unlinkExternalIdentity", { id: identityId }, ownerCookie)).body)).toBe(
      "NOT_FOUND",
    );

    await env.DB.prepare("UPDATE users SET password_hash = 'pbkdf2-sha256$1$x$y' WHERE id = ?").bind(user.id).run();
    const unlinked = await callProcedure("users.unlinkExternalIdentity", { id: identityId }, cookie);
    expect(unlinked.body.result).toEqual({ data: { ok: true } });
    const after = await query("users.listIdentityProvidersForUser", undefined, cookie);
    expect((after.body.result as { data: unknown[] }).data).toEqual([]);
  });

  it("shows the identities on /security with an Unlink form that works without JavaScript", async () => {
    vi.spyOn(globalThis, "fetch").mockImplementation(fakeProvider);
    const user = await createUser({ email: "formy@harbor-sso.test", orgId: harborOrg });
    await env.DB.prepare("UPDATE users SET password_hash = NULL WHERE id = ?").bind(user.id).run();
    nextClaims = () => ({ sub: "formy-sub", email: "formy@harbor-sso.test", email_verified: true });
    const { location } = await startSignIn(providerId);
    const cookie = `${SESSION}=${cookieFrom(await comeBack(providerId, location as URL), SESSION)}`;
    const page = await (await request("/security", { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Harbor SSO");
    expect(page).toContain("formy@harbor-sso.test");
    const action = /action="(\/security\/identities\/[^"]+\/unlink)"/.exec(page)?.[1];
    expect(action).toBeTruthy();

    const post = (path: string) =>
      request(path, {
        method: "POST",
        body: new URLSearchParams({}),
        headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded", Cookie: cookie },
        redirect: "manual",
      });
    const refused = await post(action as string);
    expect(refused.status).toBe(409);
    expect(await pageText(refused)).toContain("Set a password");

    await env.DB.prepare("UPDATE users SET password_hash = 'pbkdf2-sha256$1$x$y' WHERE id = ?").bind(user.id).run();
    const done = await post(action as string);
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/security");
    const count = await env.DB.prepare("SELECT count(*) AS n FROM external_identities WHERE user_id = ?").bind(user.id).first();
    expect(count).toEqual({ n: 0 });
  });
});
