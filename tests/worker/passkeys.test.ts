import { env } from "cloudflare:test";
import type { PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON } from "@simplewebauthn/server";
import { beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "@/server/app";
import { base64url } from "@/server/auth/crypto";
import type { Env } from "@/server/env";
import { createUser, sessionCookie } from "./fixtures";
import { cookieFrom, ORIGIN, postForm, request } from "./helpers";
import { SoftAuthenticator } from "./soft-authenticator";

// Passkeys against the real verification of @simplewebauthn/server: a software authenticator
// (soft-authenticator.ts) makes real attestations and signed assertions, so registration,
// sign-in, replay, expiry, ceremony mix-ups and a cloned authenticator's counter are all tested
// end to end in workerd. The browser half (virtual authenticator) is tests/e2e/passkeys.spec.ts.

type AuthStart = { options: PublicKeyCredentialRequestOptionsJSON; uniqueId: string };
type Answer = { result?: { data: unknown }; error?: { data: { code: string; httpStatus: number } } };

/** A call with the test bindings, optionally overridden (another APP_ENV, configured origins …). */
function call(path: string, body: unknown, { cookie, ip, vars }: { cookie?: string; ip?: string; vars?: Partial<Env> } = {}) {
  const headers: Record<string, string> = { "Content-Type": "application/json", Origin: ORIGIN };
  if (cookie) headers.Cookie = cookie;
  if (ip) headers["CF-Connecting-IP"] = ip;
  const init = { method: "POST", headers, body: typeof body === "string" ? body : JSON.stringify(body) };
  return Promise.resolve(createApp().request(new Request(new URL(path, ORIGIN), init), undefined, { ...env, ...vars }));
}

async function registrationOptions(cookie: string): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const response = await call("/api/passkey/register/start", {}, { cookie });
  expect(response.status).toBe(200);
  return response.json();
}

/** Registers a new software passkey for the session's user; returns it and its authenticatorId. */
async function registered(cookie: string, name?: string) {
  const authenticator = await SoftAuthenticator.create();
  const credential = await authenticator.register(await registrationOptions(cookie));
  const response = await call("/api/passkey/register/verify", { ...credential, name }, { cookie });
  expect(response.status).toBe(200);
  const { authenticatorId } = (await response.json()) as { authenticatorId: string };
  return { authenticator, authenticatorId };
}

async function authStart(body: unknown = {}, vars?: Partial<Env>): Promise<AuthStart> {
  const response = await call("/api/passkey/auth/start", body, { vars });
  expect(response.status).toBe(200);
  return response.json();
}

async function me(cookie: string): Promise<string | null> {
  const body = (await (await request("/api/me", { headers: { Cookie: cookie } })).json()) as { ok: boolean; user?: string };
  return body.ok ? (body.user ?? null) : null;
}

function rpc(path: string, input: unknown, cookie: string) {
  return request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
}

async function listed(cookie: string) {
  const body = (await (await request("/api/users.listPasskeysForUser", { headers: { Cookie: cookie } })).json()) as Answer;
  return body.result?.data as { id: string; name: string; lastUsedAt: string | null; backedUp: boolean; deviceType: string }[];
}

async function challengeRow(challenge: string) {
  return env.DB.prepare("SELECT id, ceremony, user_id, used_at FROM webauthn_challenges WHERE challenge = ?")
    .bind(challenge)
    .first<{ id: string; ceremony: string; user_id: string | null; used_at: string | null }>();
}

let alice: { id: string; email: string };
let aliceCookie: string;
let bob: { id: string; email: string };
let bobCookie: string;

beforeAll(async () => {
  alice = await createUser({ role: "viewer" });
  aliceCookie = await sessionCookie(alice.email);
  bob = await createUser({ role: "owner", twoFactor: "email" });
  // Bob has email two-factor: a signed-in cookie for him is made directly, not through the code.
  const token = crypto.randomUUID();
  const hash = [...new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token)))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  const now = new Date().toISOString();
  await env.DB.prepare(
    "INSERT INTO sessions (id, user_id, stage, created_at, last_seen_at, expires_at) VALUES (?, ?, 'signed-in', ?, ?, ?)",
  )
    .bind(hash, bob.id, now, now, new Date(Date.now() + 3_600_000).toISOString())
    .run();
  bobCookie = `__Host-session=${token}`;
});

describe("registration start", () => {
  it("needs a signed-in session (401)", async () => {
    const response = await call("/api/passkey/register/start", {});
    expect(response.status).toBe(401);
  });

  it("answers options for the user: user id as bytes, resident key and user verification required, RP from configuration", async () => {
    const options = await registrationOptions(aliceCookie);
    expect(options.rp).toEqual({ id: "localhost", name: "Configuration Tool" });
    expect(options.user.id).toBe(base64url(new TextEncoder().encode(alice.id)));
    expect(options.user.name).toBe(alice.email);
    expect(options.authenticatorSelection).toMatchObject({ residentKey: "required", userVerification: "required" });
    expect(options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(options.timeout).toBe(300_000);
    const row = await challengeRow(options.challenge);
    expect(row).toMatchObject({ ceremony: "registration", user_id: alice.id, used_at: null });
  });

  it("excludes the passkeys the user already has", async () => {
    const { authenticator } = await registered(bobCookie);
    const options = await registrationOptions(bobCookie);
    expect(options.excludeCredentials?.map((c) => c.id)).toContain(authenticator.id);
  });
});

describe("registration verify", () => {
  it("stores a verified passkey and answers {authenticatorId}; the list shows it with its name", async () => {
    const { authenticatorId } = await registered(aliceCookie, "Work laptop");
    expect(authenticatorId).toMatch(/^pk_/);
    const passkeys = await listed(aliceCookie);
    expect(passkeys).toContainEqual(
      expect.objectContaining({ id: authenticatorId, name: "Work laptop", lastUsedAt: null, deviceType: "singleDevice" }),
    );
  });

  it("names a passkey sent without a name with a number, in the user's language", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.email);
    const { authenticatorId } = await registered(cookie);
    expect((await listed(cookie)).find((p) => p.id === authenticatorId)?.name).toBe("Passkey 1");
  });

  it("uses a challenge once: the same credential sent twice is refused the second time", async () => {
    const authenticator = await SoftAuthenticator.create();
    const credential = await authenticator.register(await registrationOptions(aliceCookie));
    expect((await call("/api/passkey/register/verify", credential, { cookie: aliceCookie })).status).toBe(200);
    const again = await call("/api/passkey/register/verify", credential, { cookie: aliceCookie });
    expect(again.status).toBe(400);
    expect(await again.json()).toMatchObject({ ok: false, error: "challenge" });
  });

  it("refuses a credential that is already registered (409)", async () => {
    const authenticator = await SoftAuthenticator.create();
    const first = await authenticator.register(await registrationOptions(aliceCookie));
    expect((await call("/api/passkey/register/verify", first, { cookie: aliceCookie })).status).toBe(200);
    const second = await authenticator.register(await registrationOptions(aliceCookie));
    expect((await call("/api/passkey/register/verify", second, { cookie: aliceCookie })).status).toBe(409);
  });

  it("refuses another user's registration challenge, an authentication challenge, and missing user verification", async () => {
    const authenticator = await SoftAuthenticator.create();
    const bobsOptions = await registrationOptions(bobCookie);
    const forBob = await authenticator.register(bobsOptions);
    expect((await call("/api/passkey/register/verify", forBob, { cookie: aliceCookie })).status).toBe(400);
    // Bob's challenge was not used up by Alice's attempt.
    expect((await challengeRow(bobsOptions.challenge))?.used_at).toBeNull();

    const { options } = await authStart();
    const asRegistration = await authenticator.register({
      ...(await registrationOptions(aliceCookie)),
      challenge: options.challenge,
    });
    expect((await call("/api/passkey/register/verify", asRegistration, { cookie: aliceCookie })).status).toBe(400);
    expect((await challengeRow(options.challenge))?.used_at).toBeNull();

    const unverified = await authenticator.register(await registrationOptions(aliceCookie), { userVerified: false });
    expect((await call("/api/passkey/register/verify", unverified, { cookie: aliceCookie })).status).toBe(400);
  });

  it("answers 400 to bad bodies", async () => {
    for (const body of ["not json", {}, { id: "x", rawId: "x", type: "public-key", response: {} }, { name: 3 }]) {
      const response = await call("/api/passkey/register/verify", body, { cookie: aliceCookie });
      expect(response.status, JSON.stringify(body)).toBe(400);
    }
    const authenticator = await SoftAuthenticator.create();
    const credential = await authenticator.register(await registrationOptions(aliceCookie));
    const tooLong = await call("/api/passkey/register/verify", { ...credential, name: "x".repeat(61) }, { cookie: aliceCookie });
    expect(tooLong.status).toBe(400);
  });
});

describe("authentication", () => {
  let authenticator: SoftAuthenticator;

  beforeAll(async () => {
    ({ authenticator } = await registered(aliceCookie, "Phone"));
  });

  it("start answers {options, uniqueId}: challenge, RP ID from configuration whatever the Host, user verification required", async () => {
    const response = await call("/api/passkey/auth/start", "", {});
    expect(response.status).toBe(200);
    const body = (await response.json()) as AuthStart;
    expect(body.uniqueId).toMatch(/^wac_/);
    expect(body.options).toMatchObject({ rpId: "localhost", userVerification: "required", timeout: 300_000 });
    expect(body.options.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(body.options.allowCredentials ?? []).toEqual([]);
    // The request names another host: the RP ID stays the configured one.
    const spoofed = await createApp().request(
      new Request("http://evil.example/api/passkey/auth/start", {
        method: "POST",
        headers: { Host: "evil.example", "Content-Type": "application/json" },
        body: "{}",
      }),
      undefined,
      env,
    );
    expect(((await spoofed.json()) as AuthStart).options.rpId).toBe("localhost");
    const configured = await authStart({}, { WEBAUTHN_RP_ID: "config.example.com" });
    expect(configured.options.rpId).toBe("config.example.com");
  });

  it("start with a username tells nothing about the address: the same discoverable options for all", async () => {
    const known = await authStart({ username: alice.email.toUpperCase() });
    const unknown = await authStart({ username: "nobody@example.com" });
    expect(known.options.allowCredentials ?? []).toEqual([]);
    expect(unknown.options.allowCredentials ?? []).toEqual([]);
    expect(Object.keys(known.options).sort()).toEqual(Object.keys(unknown.options).sort());
  });

  it("verify signs in with a NEW session token, counts as both factors, records the use and the counter", async () => {
    const { options, uniqueId } = await authStart();
    const response = await call(
      "/api/passkey/auth/verify",
      { uniqueId, response: await authenticator.authenticate(options) },
      {
        cookie: aliceCookie,
      },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    const token = cookieFrom(response, "__Host-session");
    expect(token).toBeTruthy();
    expect(`__Host-session=${token}`).not.toBe(aliceCookie);
    expect(await me(`__Host-session=${token}`)).toBe(alice.email);
    // The session it replaced is over.
    expect(await me(aliceCookie)).toBeNull();
    aliceCookie = `__Host-session=${token}`;
    const passkey = (await listed(aliceCookie)).find((p) => p.name === "Phone");
    expect(passkey?.lastUsedAt).not.toBeNull();
    const row = await env.DB.prepare("SELECT counter FROM passkeys WHERE credential_id = ?")
      .bind(authenticator.id)
      .first<{ counter: number }>();
    expect(row?.counter).toBe(authenticator.signCount);
  });

  it("a user with email two-factor is fully signed in by a passkey", async () => {
    const { authenticator: bobs } = await registered(bobCookie, "Bob's key");
    const { options, uniqueId } = await authStart({ username: bob.email });
    const response = await call("/api/passkey/auth/verify", { uniqueId, response: await bobs.authenticate(options) });
    expect(response.status).toBe(200);
    expect(await me(`__Host-session=${cookieFrom(response, "__Host-session")}`)).toBe(bob.email);
  });

  it("a used challenge cannot be replayed: the same body again is refused, with no session", async () => {
    const { options, uniqueId } = await authStart();
    const body = { uniqueId, response: await authenticator.authenticate(options) };
    expect((await call("/api/passkey/auth/verify", body)).status).toBe(200);
    const replay = await call("/api/passkey/auth/verify", body);
    expect(replay.status).toBe(401);
    expect(await replay.json()).toEqual({ ok: false });
    expect(cookieFrom(replay, "__Host-session")).toBeUndefined();
  });

  it("refuses an unknown or expired uniqueId", async () => {
    const { options, uniqueId } = await authStart();
    const response = await authenticator.authenticate(options);
    expect((await call("/api/passkey/auth/verify", { uniqueId: "wac_unknown", response })).status).toBe(401);
    await env.DB.prepare("UPDATE webauthn_challenges SET expires_at = ? WHERE id = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), uniqueId)
      .run();
    const expired = await call("/api/passkey/auth/verify", { uniqueId, response });
    expect(expired.status).toBe(401);
    expect(cookieFrom(expired, "__Host-session")).toBeUndefined();
  });

  it("refuses a registration challenge as a uniqueId, and leaves that challenge usable for registering", async () => {
    const fresh = await SoftAuthenticator.create();
    const registration = await registrationOptions(aliceCookie);
    const row = await challengeRow(registration.challenge);
    const assertion = await authenticator.authenticate({ challenge: registration.challenge, rpId: "localhost" });
    expect((await call("/api/passkey/auth/verify", { uniqueId: row?.id, response: assertion })).status).toBe(401);
    expect((await challengeRow(registration.challenge))?.used_at).toBeNull();
    const credential = await fresh.register(registration);
    expect((await call("/api/passkey/register/verify", credential, { cookie: aliceCookie })).status).toBe(200);
  });

  it("refuses a counter that goes back (a cloned authenticator), and one that stays the same", async () => {
    const { options, uniqueId } = await authStart();
    const stale = await authenticator.authenticate(options, { signCount: 1 });
    const refused = await call("/api/passkey/auth/verify", { uniqueId, response: stale });
    expect(refused.status).toBe(401);
    expect(cookieFrom(refused, "__Host-session")).toBeUndefined();
    const stored = await env.DB.prepare("SELECT counter FROM passkeys WHERE credential_id = ?")
      .bind(authenticator.id)
      .first<{ counter: number }>();
    const same = await authStart();
    const repeated = await authenticator.authenticate(same.options, { signCount: stored?.counter ?? 0 });
    expect((await call("/api/passkey/auth/verify", { uniqueId: same.uniqueId, response: repeated })).status).toBe(401);
    // The genuine authenticator, whose counter moves on, still signs in.
    const next = await authStart();
    const genuine = await authenticator.authenticate(next.options, { signCount: (stored?.counter ?? 0) + 5 });
    expect((await call("/api/passkey/auth/verify", { uniqueId: next.uniqueId, response: genuine })).status).toBe(200);
  });

  it("refuses an assertion without user verification, for another user's challenge, or with a wrong user handle", async () => {
    const a = await authStart();
    const unverified = await authenticator.authenticate(a.options, { userVerified: false });
    expect((await call("/api/passkey/auth/verify", { uniqueId: a.uniqueId, response: unverified })).status).toBe(401);
    const forBob = await authStart({ username: bob.email });
    const asAlice = await authenticator.authenticate(forBob.options);
    expect((await call("/api/passkey/auth/verify", { uniqueId: forBob.uniqueId, response: asAlice })).status).toBe(401);
    const b = await authStart();
    const otherHandle = await authenticator.authenticate(b.options, { userHandle: base64url(new TextEncoder().encode(bob.id)) });
    expect((await call("/api/passkey/auth/verify", { uniqueId: b.uniqueId, response: otherHandle })).status).toBe(401);
  });

  it("takes the expected origin from configuration, never from the request", async () => {
    // The request's own origin (http://config.test) is not a configured one.
    const a = await authStart();
    const fromRequestOrigin = await authenticator.authenticate(a.options, { origin: ORIGIN });
    expect((await call("/api/passkey/auth/verify", { uniqueId: a.uniqueId, response: fromRequestOrigin })).status).toBe(401);
    // The local demo accepts any localhost port (the e2e servers) …
    const b = await authStart();
    const otherPort = await authenticator.authenticate(b.options, { origin: "http://localhost:9999" });
    expect((await call("/api/passkey/auth/verify", { uniqueId: b.uniqueId, response: otherPort })).status).toBe(200);
    // … production does not, and neither does a demo with origins configured.
    for (const vars of [{ APP_ENV: "production" }, { WEBAUTHN_ORIGINS: "https://config.example.com" }]) {
      const c = await authStart({}, vars);
      const refused = await authenticator.authenticate(c.options, { origin: "http://localhost:9999" });
      expect((await call("/api/passkey/auth/verify", { uniqueId: c.uniqueId, response: refused }, { vars })).status).toBe(401);
    }
    const d = await authStart({}, { WEBAUTHN_ORIGINS: "https://config.example.com" });
    const configured = await authenticator.authenticate(d.options, { origin: "https://config.example.com" });
    const vars = { WEBAUTHN_ORIGINS: "https://config.example.com" };
    expect((await call("/api/passkey/auth/verify", { uniqueId: d.uniqueId, response: configured }, { vars })).status).toBe(200);
  });

  it("answers 400 to bad bodies and does not use up the challenge", async () => {
    const { options, uniqueId } = await authStart();
    const response = await authenticator.authenticate(options);
    const bodies: unknown[] = [
      "{",
      {},
      { uniqueId },
      { uniqueId: 5, response },
      { uniqueId, response: { ...response, type: "password" } },
      { uniqueId, response: { ...response, response: { ...response.response, signature: "not base64url!" } } },
      { uniqueId, response, extra: true },
    ];
    for (const body of bodies) {
      expect((await call("/api/passkey/auth/verify", body)).status, JSON.stringify(body).slice(0, 60)).toBe(400);
    }
    expect((await call("/api/passkey/auth/start", { username: "not an address" })).status).toBe(400);
    expect((await call("/api/passkey/auth/start", "{")).status).toBe(400);
    expect((await call("/api/passkey/auth/verify", { uniqueId, response })).status).toBe(200);
  });

  it("throttles the sign-in calls per address (429)", async () => {
    const ip = "203.0.113.77";
    const statuses: number[] = [];
    // Straddling a window's edge on purpose: 100 calls just before it, 101 after.
    const edge = Math.ceil(Date.now() / 600_000) * 600_000;
    vi.useFakeTimers({ toFake: ["Date"] });
    try {
      vi.setSystemTime(edge - 1_000);
      for (let i = 0; i < 100; i++) statuses.push((await call("/api/passkey/auth/start", {}, { ip })).status);
      vi.setSystemTime(edge + 1_000);
      for (let i = 0; i < 101; i++) statuses.push((await call("/api/passkey/auth/start", {}, { ip })).status);
      statuses.push((await call("/api/passkey/auth/verify", { uniqueId: "x", response: {} }, { ip })).status);
      // Another address is not affected.
      statuses.push((await call("/api/passkey/auth/start", {}, { ip: "203.0.113.78" })).status);
    } finally {
      vi.useRealTimers();
    }
    // 200 in the sliding 10 minutes: the window's edge does not reset the count (a fixed window let 400 through).
    expect(statuses.slice(0, 200).every((status) => status === 200)).toBe(true);
    expect(statuses.slice(200)).toEqual([429, 429, 200]);
  }, 30_000); // 203 calls in a row: more than the default 5 s on a busy 2-core machine

  it("does not exist while the passkey flag is off", async () => {
    const vars = { PASSKEYS_ENABLED: "false" };
    expect((await call("/api/passkey/auth/start", {}, { vars })).status).toBe(404);
    expect((await call("/api/passkey/register/start", {}, { cookie: aliceCookie, vars })).status).toBe(404);
  });
});

describe("users.listPasskeysForUser, renamePasskey, removePasskey", () => {
  let bobsPasskey: string;

  beforeAll(async () => {
    ({ authenticatorId: bobsPasskey } = await registered(bobCookie, "Bob's laptop"));
  });

  it("lists only the caller's passkeys", async () => {
    const ids = (await listed(aliceCookie)).map((p) => p.id);
    expect(ids).not.toContain(bobsPasskey);
    expect((await listed(bobCookie)).map((p) => p.id)).toContain(bobsPasskey);
  });

  it("another user's passkey is NOT_FOUND for rename and remove, and stays as it was", async () => {
    for (const [path, input] of [
      ["users.renamePasskey", { id: bobsPasskey, name: "Mine now" }],
      ["users.removePasskey", { id: bobsPasskey }],
    ] as const) {
      const body = (await (await rpc(path, input, aliceCookie)).json()) as Answer;
      expect(body.error?.data).toMatchObject({ code: "NOT_FOUND", httpStatus: 404 });
    }
    expect((await listed(bobCookie)).find((p) => p.id === bobsPasskey)?.name).toBe("Bob's laptop");
  });

  it("renames and removes the caller's own; an empty name is BAD_REQUEST", async () => {
    const { authenticator, authenticatorId } = await registered(aliceCookie, "Old name");
    const empty = (await (await rpc("users.renamePasskey", { id: authenticatorId, name: "  " }, aliceCookie)).json()) as Answer;
    expect(empty.error?.data.code).toBe("BAD_REQUEST");
    await rpc("users.renamePasskey", { id: authenticatorId, name: " New name " }, aliceCookie);
    expect((await listed(aliceCookie)).find((p) => p.id === authenticatorId)?.name).toBe("New name");
    const removed = (await (await rpc("users.removePasskey", { id: authenticatorId }, aliceCookie)).json()) as Answer;
    expect(removed.result?.data).toEqual({ id: authenticatorId });
    expect((await listed(aliceCookie)).map((p) => p.id)).not.toContain(authenticatorId);
    // A removed passkey no longer signs in.
    const { options, uniqueId } = await authStart();
    expect(
      (await call("/api/passkey/auth/verify", { uniqueId, response: await authenticator.authenticate(options) })).status,
    ).toBe(401);
  });

  it("needs a session", async () => {
    const response = await request("/api/users.listPasskeysForUser");
    expect(response.status).toBe(401);
  });
});

describe("the passkeys on /security, without JavaScript", () => {
  it("lists each passkey with when it was added and last used, and says adding one needs JavaScript", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.email);
    const empty = await (await request("/security", { headers: { Cookie: cookie } })).text();
    expect(empty).toContain("No passkeys yet.");
    expect(empty).toContain("<noscript>");
    expect(empty).toContain("Adding a passkey needs JavaScript.");
    await registered(cookie, "Desk key");
    const html = await (await request("/security", { headers: { Cookie: cookie } })).text();
    expect(html).toContain("Desk key");
    expect(html).toMatch(/Added [A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(html).toContain("Not used to sign in yet");
  });

  it("renames with a plain form: an empty name shows the error, a good one redirects with a flash", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.email);
    const { authenticatorId } = await registered(cookie, "Before");
    const path = `/security/passkeys/${authenticatorId}/rename`;
    const refused = await postForm(path, { name: " " }, { Cookie: cookie });
    expect(refused.status).toBe(400);
    expect(await refused.text()).toContain("Enter a name for the passkey.");
    const renamed = await postForm(path, { name: "After" }, { Cookie: cookie });
    expect(renamed.status).toBe(303);
    expect(renamed.headers.get("Location")).toBe("/security");
    expect(decodeURIComponent(cookieFrom(renamed, "flash") ?? "")).toContain("passkeys.renamed");
    expect((await listed(cookie)).find((p) => p.id === authenticatorId)?.name).toBe("After");
  });

  it("removes after a confirmation page; another user's passkey is not found", async () => {
    const user = await createUser();
    const cookie = await sessionCookie(user.email);
    const { authenticatorId } = await registered(cookie, "To remove");
    const path = `/security/passkeys/${authenticatorId}/remove`;
    const confirm = await request(path, { headers: { Cookie: cookie } });
    expect(confirm.status).toBe(200);
    expect(await confirm.text()).toContain("Remove the passkey “To remove”?");
    const other = await createUser();
    const otherCookie = await sessionCookie(other.email);
    expect((await request(path, { headers: { Cookie: otherCookie } })).status).toBe(404);
    expect((await postForm(path, {}, { Cookie: otherCookie })).status).toBe(404);
    const removed = await postForm(path, {}, { Cookie: cookie });
    expect(removed.status).toBe(303);
    expect(await listed(cookie)).toEqual([]);
  });
});
