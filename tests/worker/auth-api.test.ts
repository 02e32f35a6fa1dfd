import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { permissions } from "@/schema/permissions";
import { createUser, PASSWORD } from "./fixtures";
import { cookieFrom, ORIGIN, request } from "./helpers";

const SESSION = "__Host-session";

function postJson(path: string, body: unknown, cookie?: string, headers: Record<string, string> = {}) {
  return request(path, {
    method: "POST",
    body: body === undefined ? undefined : JSON.stringify(body),
    headers: {
      Origin: ORIGIN,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...(cookie ? { Cookie: `${SESSION}=${cookie}` } : {}),
      ...headers,
    },
  });
}

function me(cookie?: string) {
  return request("/api/me", { headers: cookie ? { Cookie: `${SESSION}=${cookie}` } : {} });
}

async function signIn(username: string, password = PASSWORD) {
  const response = await postJson("/api/sign-in", { username, password });
  return { response, body: await response.json(), cookie: cookieFrom(response, SESSION) };
}

async function latestCodeFor(email: string): Promise<string> {
  const mail = await env.DB.prepare("SELECT body FROM mail_outbox WHERE to_address = ? ORDER BY rowid DESC LIMIT 1")
    .bind(email)
    .first<{ body: string }>();
  const code = /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

describe("GET /api/me", () => {
  it("answers exactly {ok:false} when signed out", async () => {
    const response = await me();
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: false });
  });

  it("answers the user, organization and every permission flag when signed in", async () => {
    const user = await createUser({ role: "viewer" });
    const { cookie } = await signIn(user.email);
    const body = (await (await me(cookie)).json()) as {
      ok: boolean;
      user: string;
      orgId: string;
      permissions: Record<string, boolean>;
    };
    expect(body).toMatchObject({ ok: true, user: user.email, orgId: user.orgId });
    expect(Object.keys(body.permissions).sort()).toEqual([...permissions].sort());
    expect(body.permissions["view-devices-in-accounts"]).toBe(true);
    expect(body.permissions["edit-users"]).toBe(false);
  });

  it("treats a made-up token as signed out", async () => {
    expect(await (await me("not-a-real-token")).json()).toEqual({ ok: false });
  });
});

describe("POST /api/sign-in", () => {
  it("answers the email step alike for known and unknown addresses", async () => {
    const user = await createUser();
    const known = await postJson("/api/sign-in", { username: user.email });
    const unknown = await postJson("/api/sign-in", { username: "nobody-here@example.com" });
    expect(await known.json()).toEqual({ ok: true });
    expect(await unknown.json()).toEqual({ ok: true });
  });

  it.each([
    ["a missing username", {}],
    ["an address with a space", { username: "a b@example.com" }],
    ["an empty password", { username: "a@example.com", password: "" }],
    ["an unknown field", { username: "a@example.com", role: "owner" }],
  ])("refuses %s with a clear 400", async (_, body) => {
    const response = await postJson("/api/sign-in", body);
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ ok: false, error: "BAD_REQUEST" });
  });

  it("accepts only JSON", async () => {
    const response = await request("/api/sign-in", {
      method: "POST",
      body: "username=a@example.com",
      headers: { Origin: ORIGIN, "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(response.status).toBe(400);
  });

  it("signs in with a new HttpOnly, Secure, __Host- session cookie", async () => {
    const user = await createUser();
    const { body, response } = await signIn(user.email.toUpperCase());
    expect(body).toEqual({ ok: true });
    const header = response.headers.getSetCookie().find((c) => c.startsWith(`${SESSION}=`)) ?? "";
    expect(header).toMatch(/HttpOnly/);
    expect(header).toMatch(/Secure/);
    expect(header).toMatch(/SameSite=Lax/);
    expect(header).toMatch(/Path=\//);
    const token = cookieFrom(response, SESSION) ?? "";
    expect(token.length).toBeGreaterThanOrEqual(22); // 128 bits, base64url
    // Only the hash is stored.
    const stored = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE id = ?").bind(token).first<{ n: number }>();
    expect(stored?.n).toBe(0);
  });

  it("answers a wrong password and an unknown address identically", async () => {
    const user = await createUser();
    const wrong = await postJson("/api/sign-in", { username: user.email, password: "not-the-password" });
    const unknown = await postJson("/api/sign-in", { username: "ghost@example.com", password: "not-the-password" });
    expect(wrong.status).toBe(unknown.status);
    expect(await wrong.json()).toEqual({ ok: false });
    expect(await unknown.json()).toEqual({ ok: false });
    expect(cookieFrom(wrong, SESSION)).toBeUndefined();
    expect(cookieFrom(unknown, SESSION)).toBeUndefined();
  });

  it("gives a new token at every sign-in and ends the session it replaces", async () => {
    const user = await createUser();
    const first = await signIn(user.email);
    const second = await postJson("/api/sign-in", { username: user.email, password: PASSWORD }, first.cookie);
    const secondCookie = cookieFrom(second, SESSION);
    expect(secondCookie).toBeDefined();
    expect(secondCookie).not.toBe(first.cookie);
    expect(await (await me(first.cookie)).json()).toEqual({ ok: false });
    expect(await (await me(secondCookie)).json()).toMatchObject({ ok: true });
  });

  it("refuses a disabled user like a wrong password, and ends their sessions", async () => {
    const user = await createUser();
    const { cookie } = await signIn(user.email);
    await env.DB.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(user.id).run();
    expect(await (await me(cookie)).json()).toEqual({ ok: false });
    expect((await signIn(user.email)).body).toEqual({ ok: false });
  });
});

describe("lockout", () => {
  it("blocks an address after 5 wrong passwords, even the right one, until the wait is over", async () => {
    const user = await createUser();
    for (let i = 1; i <= 4; i++) expect((await signIn(user.email, `wrong-${i}-password`)).body).toEqual({ ok: false });
    expect((await signIn(user.email, "wrong-5-password")).body).toEqual({ ok: false, blocked: true });
    expect((await signIn(user.email)).body).toEqual({ ok: false, blocked: true });

    const lock = await env.DB.prepare("SELECT failures, locked_until FROM sign_in_lockouts WHERE email = ?")
      .bind(user.email)
      .first<{ failures: number; locked_until: string }>();
    expect(lock?.failures).toBe(5);
    const waitMs = Date.parse(lock?.locked_until ?? "") - Date.now();
    expect(waitMs).toBeGreaterThan(50_000);
    expect(waitMs).toBeLessThanOrEqual(60_000);

    // The wait is over: the right password works and the count starts again.
    await env.DB.prepare("UPDATE sign_in_lockouts SET locked_until = ? WHERE email = ?")
      .bind(new Date(Date.now() - 1000).toISOString(), user.email)
      .run();
    expect((await signIn(user.email)).body).toEqual({ ok: true });
    expect(await env.DB.prepare("SELECT * FROM sign_in_lockouts WHERE email = ?").bind(user.email).first()).toBeNull();
  });

  it("doubles the wait with each further failure", async () => {
    const { lockoutWait } = await import("@/server/auth/lockout");
    expect([4, 5, 6, 7, 8, 20].map((n) => lockoutWait(n) / 60_000)).toEqual([0, 1, 2, 4, 8, 60]);
  });

  it("locks unknown addresses the same way, so the answers tell nothing", async () => {
    for (let i = 1; i <= 4; i++) await signIn("nobody-at-all@example.com", `guess-${i}-password`);
    expect((await signIn("nobody-at-all@example.com", "guess-5-password")).body).toEqual({ ok: false, blocked: true });
  });
});

describe("email two-factor", () => {
  it("needs the emailed code before the session counts, and the code works once", async () => {
    const user = await createUser({ twoFactor: "email" });
    const step = await signIn(user.email);
    expect(step.body).toEqual({ ok: true, twoFactorAuth: { required: true } });
    const attempt = step.cookie;
    // The attempt grants nothing by itself.
    expect(await (await me(attempt)).json()).toEqual({ ok: false });

    expect(await (await postJson("/api/auth/2fa/email/send", undefined, attempt)).json()).toEqual({ ok: true });
    const code = await latestCodeFor(user.email);
    expect(code).toMatch(/^\d{6}$/);
    const stored = await env.DB.prepare("SELECT code_hash FROM one_time_codes").all<{ code_hash: string }>();
    expect(stored.results.map((r) => r.code_hash)).not.toContain(code);

    const wrongCode = code === "000000" ? "111111" : "000000";
    expect(await (await postJson("/api/auth/2fa/email/verify", { otp: wrongCode }, attempt)).json()).toEqual({ ok: false });
    const verified = await postJson("/api/auth/2fa/email/verify", { otp: code }, attempt);
    expect(await verified.json()).toEqual({ ok: true });
    const session = cookieFrom(verified, SESSION);
    expect(session).toBeDefined();
    expect(session).not.toBe(attempt);
    expect(await (await me(session)).json()).toMatchObject({ ok: true, user: user.email });
    // The attempt and its code are spent.
    expect(await (await postJson("/api/auth/2fa/email/verify", { otp: code }, attempt)).json()).toEqual({ ok: false });
  });

  it("allows at most 5 tries per code", async () => {
    const user = await createUser({ twoFactor: "email" });
    const { cookie } = await signIn(user.email);
    await postJson("/api/auth/2fa/email/send", undefined, cookie);
    const code = await latestCodeFor(user.email);
    const wrong = code === "999999" ? "888888" : "999999";
    for (let i = 0; i < 5; i++) await postJson("/api/auth/2fa/email/verify", { otp: wrong }, cookie);
    expect(await (await postJson("/api/auth/2fa/email/verify", { otp: code }, cookie)).json()).toEqual({ ok: false });
  });

  it("refuses a code older than 10 minutes", async () => {
    const user = await createUser({ twoFactor: "email" });
    const { cookie } = await signIn(user.email);
    await postJson("/api/auth/2fa/email/send", undefined, cookie);
    const code = await latestCodeFor(user.email);
    await env.DB.prepare("UPDATE one_time_codes SET expires_at = ?")
      .bind(new Date(Date.now() - 1).toISOString())
      .run();
    expect(await (await postJson("/api/auth/2fa/email/verify", { otp: code }, cookie)).json()).toEqual({ ok: false });
  });

  it("sends and verifies nothing without a sign-in attempt", async () => {
    expect(await (await postJson("/api/auth/2fa/email/send", undefined)).json()).toEqual({ ok: false });
    expect(await (await postJson("/api/auth/2fa/email/verify", { otp: "123456" })).json()).toEqual({ ok: false });
  });

  it("refuses a code that is not a short string", async () => {
    const response = await postJson("/api/auth/2fa/email/verify", { otp: 123456 });
    expect(response.status).toBe(400);
  });
});

describe("sessions", () => {
  async function signedInCookie() {
    const user = await createUser();
    const { cookie } = await signIn(user.email);
    return { user, cookie: cookie ?? "" };
  }

  async function setSessionTimes(userId: string, fields: { last_seen_at?: number; expires_at?: number }) {
    for (const [column, offset] of Object.entries(fields)) {
      await env.DB.prepare(`UPDATE sessions SET ${column} = ? WHERE user_id = ?`)
        .bind(new Date(Date.now() + offset).toISOString(), userId)
        .run();
    }
  }

  it("ends after 15 minutes idle, on the server", async () => {
    const idle = await signedInCookie();
    await setSessionTimes(idle.user.id, { last_seen_at: -16 * 60_000 });
    expect(await (await me(idle.cookie)).json()).toEqual({ ok: false });
    // …and stays ended: the row is gone.
    const rows = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?")
      .bind(idle.user.id)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);

    const active = await signedInCookie();
    await setSessionTimes(active.user.id, { last_seen_at: -14 * 60_000 });
    expect(await (await me(active.cookie)).json()).toMatchObject({ ok: true });
  });

  it("'Stay signed in' restarts the idle clock on the server, even within the read's once-a-minute touch", async () => {
    const { user, cookie } = await signedInCookie();
    const lastSeen = async () =>
      Date.parse(
        (
          await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE user_id = ?")
            .bind(user.id)
            .first<{ last_seen_at: string }>()
        )?.last_seen_at ?? "",
      );
    await setSessionTimes(user.id, { last_seen_at: -30_000 });
    const before = await lastSeen();
    const response = await postJson("/api/session/extend", undefined, cookie);
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ ok: true });
    expect(await lastSeen()).toBeGreaterThanOrEqual(before + 29_000);
  });

  it("'Stay signed in' without a session answers 401 and extends nothing", async () => {
    const response = await postJson("/api/session/extend", undefined);
    expect(response.status).toBe(401);
    expect(await response.json()).toEqual({ ok: false });
    const idle = await signedInCookie();
    await setSessionTimes(idle.user.id, { last_seen_at: -16 * 60_000 });
    const late = await postJson("/api/session/extend", undefined, idle.cookie);
    expect(late.status).toBe(401);
    expect(await (await me(idle.cookie)).json()).toEqual({ ok: false });
  });

  it("ends at its absolute lifetime however active it is", async () => {
    const { user, cookie } = await signedInCookie();
    const session = await env.DB.prepare("SELECT created_at, expires_at FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ created_at: string; expires_at: string }>();
    expect(Date.parse(session?.expires_at ?? "") - Date.parse(session?.created_at ?? "")).toBe(12 * 60 * 60_000);
    await setSessionTimes(user.id, { expires_at: -1000, last_seen_at: 0 });
    expect(await (await me(cookie)).json()).toEqual({ ok: false });
  });

  it("signs out on the server: the same cookie is worthless afterwards", async () => {
    const { cookie } = await signedInCookie();
    const response = await postJson("/api/sign-out", undefined, cookie);
    expect(response.status).toBe(204);
    expect(response.headers.getSetCookie().some((c) => c.startsWith(`${SESSION}=;`))).toBe(true);
    expect(await (await me(cookie)).json()).toEqual({ ok: false });
  });
});

describe("cross-site requests", () => {
  it("refuses a form-encoded post from another site", async () => {
    const { cookie } = await (async () => {
      const user = await createUser();
      return signIn(user.email);
    })();
    const response = await request("/api/sign-out", {
      method: "POST",
      body: "x=1",
      headers: {
        Origin: "https://evil.example",
        "Content-Type": "application/x-www-form-urlencoded",
        Cookie: `${SESSION}=${cookie}`,
      },
    });
    expect(response.status).toBe(403);
    expect(await (await me(cookie)).json()).toMatchObject({ ok: true });
  });

  it("grants no cross-origin access to the API (no CORS headers on preflight or answer)", async () => {
    const preflight = await request("/api/sign-in", {
      method: "OPTIONS",
      headers: {
        Origin: "https://evil.example",
        "Access-Control-Request-Method": "POST",
        "Access-Control-Request-Headers": "content-type",
      },
    });
    expect(preflight.headers.get("access-control-allow-origin")).toBeNull();
    const answer = await request("/api/me", { headers: { Origin: "https://evil.example" } });
    expect(answer.headers.get("access-control-allow-origin")).toBeNull();
  });
});

describe("throttling per address", () => {
  it("answers 429 once an address has used its sign-in attempts", async () => {
    const windowStart = Math.floor(Date.now() / 1000 / 600) * 600;
    await env.DB.prepare("INSERT OR REPLACE INTO throttles (key, window_start, count) VALUES (?, ?, 100)")
      .bind("sign-in:203.0.113.9", windowStart)
      .run();
    const user = await createUser();
    const blocked = await postJson("/api/sign-in", { username: user.email, password: PASSWORD }, undefined, {
      "CF-Connecting-IP": "203.0.113.9",
    });
    expect(blocked.status).toBe(429);
    // Another address is unaffected.
    const other = await postJson("/api/sign-in", { username: user.email, password: PASSWORD }, undefined, {
      "CF-Connecting-IP": "203.0.113.10",
    });
    expect(await other.json()).toEqual({ ok: true });
  });

  it("limits how often codes are sent from one address", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 21; i++) {
      statuses.push(
        (await postJson("/api/auth/2fa/email/send", undefined, undefined, { "CF-Connecting-IP": "198.51.100.7" })).status,
      );
    }
    expect(statuses.slice(0, 20).every((s) => s === 200)).toBe(true);
    expect(statuses[20]).toBe(429);
  });
});
