import { env } from "cloudflare:test";
import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/server/auth/crypto";
import { createInvitation } from "@/server/auth/invitations";
import type { Role } from "@/server/auth/roles";
import { acceptInvitationStatements } from "@/server/data/invitations";
import type { AppEnv } from "@/server/env";
import { translatorFor } from "@/server/i18n/i18n";
import { resolveSettings } from "@/server/settings";
import { createOrganization, createUser } from "./fixtures";
import { cookieFrom, ORIGIN, postForm, request } from "./helpers";

const PASSWORD = "a-long-enough-passphrase";
const DAY = 86_400_000;

let counter = 0;
function uniqueEmail(): string {
  counter += 1;
  return `invitee${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
}

/** An invitation row with a code the test knows, in any state. */
async function insertInvitation(
  options: { orgId?: string; email?: string; role?: Role; expiresAt?: string; acceptedAt?: string; revokedAt?: string } = {},
) {
  const code = `test-code-${crypto.randomUUID()}`;
  const orgId = options.orgId ?? (await createOrganization("Lakeside Dispatch"));
  const email = options.email ?? uniqueEmail();
  await env.DB.prepare(
    `INSERT INTO invitations (id, org_id, email, role, code_hash, expires_at, accepted_at, revoked_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  )
    .bind(
      `inv_${crypto.randomUUID().slice(0, 12)}`,
      orgId,
      email,
      options.role ?? "viewer",
      await sha256Hex(code),
      options.expiresAt ?? new Date(Date.now() + DAY).toISOString(),
      options.acceptedAt ?? null,
      options.revokedAt ?? null,
    )
    .run();
  return { code, orgId, email };
}

function accept(code: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return postForm(`/accept/${code}`, fields, headers);
}

const goodFields = { name: "Nina Newcomer", password: PASSWORD, passwordConfirmation: PASSWORD };

async function userByEmail(email: string) {
  return env.DB.prepare("SELECT id, org_id, email, name, role, status FROM users WHERE email = ?").bind(email).first<{
    id: string;
    org_id: string;
    email: string;
    name: string;
    role: string;
    status: string;
  }>();
}

async function usersWithEmail(email: string): Promise<number> {
  return (await env.DB.prepare("SELECT count(*) AS n FROM users WHERE email = ?").bind(email).first<{ n: number }>())?.n ?? 0;
}

describe("createInvitation", () => {
  /** createInvitation as the users screen calls it: from a request, in the inviter's language. */
  function invite(input: { orgId: string; email: string; role: Role; invitedBy: string }) {
    const app = new Hono<AppEnv>().post("/invite", async (c) => {
      const sender = { env: c.env, origin: ORIGIN, t: translatorFor("en", resolveSettings(c.env).brandNamespace) };
      return c.json(await createInvitation(sender, input));
    });
    return app.request(new Request(`${ORIGIN}/invite`, { method: "POST" }), undefined, env);
  }

  it("stores only the code's hash and mails the link, naming the organization and the inviter", async () => {
    const orgId = await createOrganization("Harbor Tugboats");
    const inviter = await createUser({ orgId, role: "admin" });
    await env.DB.prepare("UPDATE users SET name = 'Ines Inviter' WHERE id = ?").bind(inviter.id).run();
    const email = uniqueEmail();

    const response = await invite({ orgId, email: email.toUpperCase(), role: "technician", invitedBy: inviter.id });
    const { id, expiresAt } = (await response.json()) as { id: string; expiresAt: string };
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(7 * DAY - 60_000);

    const mail = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE to_address = ?")
      .bind(email)
      .first<{ subject: string; body: string }>();
    expect(mail?.subject).toBe("You're invited to join Harbor Tugboats");
    expect(mail?.body).toContain("Ines Inviter invited you to join Harbor Tugboats.");
    const code = new RegExp(`${ORIGIN}/accept/([A-Za-z0-9_-]{43})\\n`).exec(mail?.body ?? "")?.[1] ?? "";
    expect(code).not.toBe("");

    const row = await env.DB.prepare("SELECT email, role, code_hash, invited_by FROM invitations WHERE id = ?").bind(id).first();
    expect(row).toEqual({ email, role: "technician", code_hash: await sha256Hex(code), invited_by: inviter.id });

    const page = await (await request(`/accept/${code}`)).text();
    expect(page).toContain("You&#x27;ve been invited to join Harbor Tugboats.");
    expect(page).toContain(`value="${email}"`);
  });

  it("replaces an open invitation for the same address: only the newest link works", async () => {
    const orgId = await createOrganization();
    const inviter = await createUser({ orgId });
    const email = uniqueEmail();
    await invite({ orgId, email, role: "viewer", invitedBy: inviter.id });
    await invite({ orgId, email, role: "viewer", invitedBy: inviter.id });
    const { results } = await env.DB.prepare("SELECT body FROM mail_outbox WHERE to_address = ? ORDER BY rowid")
      .bind(email)
      .all<{ body: string }>();
    const [older, newer] = results.map((mail) => /\/accept\/([A-Za-z0-9_-]+)/.exec(mail.body)?.[1] ?? "");
    expect(await (await request(`/accept/${older}`)).text()).toContain("This invitation has been withdrawn.");
    expect(await (await request(`/accept/${newer}`)).text()).toContain('name="password"');
  });
});

describe("/accept/:invitationCode", () => {
  it("shows the organization, the invited address and the fields", async () => {
    const { code, email } = await insertInvitation();
    const response = await request(`/accept/${code}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Lakeside Dispatch");
    expect(html).toContain(`value="${email}"`);
    for (const field of ["name", "password", "passwordConfirmation"]) expect(html).toContain(`name="${field}"`);
  });

  it("creates the user in the invitation's organization with its role, signs them in, and works once", async () => {
    const { code, orgId, email } = await insertInvitation({ role: "viewer" });
    const response = await accept(code, goodFields);
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe("/welcome");
    expect(decodeURIComponent(cookieFrom(response, "flash") ?? "")).toContain("invitation.welcome");

    expect(await userByEmail(email)).toMatchObject({ org_id: orgId, name: "Nina Newcomer", role: "viewer", status: "active" });
    const session = cookieFrom(response, "__Host-session");
    const me = (await (await request("/api/me", { headers: { Cookie: `__Host-session=${session}` } })).json()) as {
      ok: boolean;
      user: string;
      orgId: string;
      permissions: Record<string, boolean>;
    };
    expect(me).toMatchObject({ ok: true, user: email, orgId });
    expect(me.permissions["view-devices-in-accounts"]).toBe(true);
    expect(me.permissions["edit-users"]).toBe(false);

    // The welcome page greets them with the flash.
    const welcome = await request("/welcome", {
      headers: { Cookie: `__Host-session=${session}; flash=${cookieFrom(response, "flash")}` },
    });
    expect(welcome.status).toBe(200);
    expect(await welcome.text()).toContain("Your account at Lakeside Dispatch is ready. Welcome!");

    // The code is spent.
    const again = await (await request(`/accept/${code}`)).text();
    expect(again).toContain("This invitation has already been accepted.");
    expect(again).not.toContain('name="password"');
    const reuse = await accept(code, { ...goodFields, name: "Someone Else" });
    expect(reuse.status).toBe(409);
    expect(await usersWithEmail(email)).toBe(1);

    // They sign in with the password they chose.
    const signIn = await request("/api/sign-in", {
      method: "POST",
      body: JSON.stringify({ username: email, password: PASSWORD }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json" },
    });
    expect(await signIn.json()).toEqual({ ok: true });
  });

  it("answers an island with JSON and signs in all the same", async () => {
    const { code } = await insertInvitation();
    const response = await accept(code, goodFields, { Accept: "application/json" });
    // The reply carries the redirect only; the welcome waits in the flash cookie for the next page.
    expect(await response.json()).toEqual({ ok: true, redirect: "/welcome" });
    expect(decodeURIComponent(cookieFrom(response, "flash") ?? "")).toContain("invitation.welcome");
    expect(cookieFrom(response, "__Host-session")).toBeTruthy();
  });

  it.each([
    ["expired", { expiresAt: new Date(Date.now() - 1000).toISOString() }, "This invitation has expired.", 409],
    ["revoked", { revokedAt: new Date().toISOString() }, "This invitation has been withdrawn.", 409],
  ] as const)("refuses an %s invitation", async (_, state, message, status) => {
    const { code, email } = await insertInvitation(state);
    const html = await (await request(`/accept/${code}`)).text();
    expect(html).toContain(message);
    expect(html).not.toContain('name="password"');
    const response = await accept(code, goodFields);
    expect(response.status).toBe(status);
    expect(cookieFrom(response, "__Host-session")).toBeUndefined();
    expect(await usersWithEmail(email)).toBe(0);
  });

  it("refuses an unknown code", async () => {
    const html = await (await request("/accept/not-a-real-code")).text();
    expect(html).toContain("We can&#x27;t find this invitation.");
    expect((await accept("not-a-real-code", goodFields)).status).toBe(404);
  });

  it("sends an address that already has an account to sign in, without a 500 or a duplicate", async () => {
    const existing = await createUser();
    const { code } = await insertInvitation({ email: existing.email.toUpperCase() });

    const html = await (await request(`/accept/${code}`)).text();
    expect(html).toContain("An account already exists for this email address.");
    expect(html).toContain('href="/sign-in"');
    expect(html).not.toContain('name="password"');

    const response = await accept(code, goodFields, { Accept: "application/json" });
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      errors: { form: "An account already exists for this email address. Sign in with it instead." },
    });
    expect(await usersWithEmail(existing.email)).toBe(1);
  });

  it("keeps the invitation open when the batch fails on the unique address (all or nothing)", async () => {
    const existing = await createUser();
    const { code } = await insertInvitation({ email: existing.email });
    const { statements } = acceptInvitationStatements(env.DB, {
      codeHash: await sha256Hex(code),
      name: "Racer",
      passwordHash: "x",
      language: null,
      at: new Date().toISOString(),
    });
    await expect(env.DB.batch(statements)).rejects.toThrow(/UNIQUE/);
    const row = await env.DB.prepare("SELECT accepted_at FROM invitations WHERE code_hash = ?")
      .bind(await sha256Hex(code))
      .first();
    expect(row).toEqual({ accepted_at: null });
  });

  it.each([
    [{ ...goodFields, name: "  " }, { name: "Enter your name." }],
    [{ ...goodFields, name: "n".repeat(121) }, { name: "Your name must be 120 characters or fewer." }],
    [
      { ...goodFields, password: "short", passwordConfirmation: "short" },
      { password: "The password must be at least 8 characters." },
    ],
    [
      { ...goodFields, password: "iloveyou1", passwordConfirmation: "iloveyou1" },
      { password: "This password is too common. Choose one that is harder to guess." },
    ],
    [{ ...goodFields, passwordConfirmation: "something else" }, { passwordConfirmation: "The passwords do not match." }],
  ])("refuses %j with its message and creates nothing", async (fields, errors) => {
    const { code, email } = await insertInvitation();
    const json = await accept(code, fields, { Accept: "application/json" });
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ ok: false, errors });

    // Without JavaScript: the form again, the name kept, no password echoed back.
    const page = await accept(code, fields);
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('aria-invalid="true"');
    if (fields.name.trim() && fields.name.length <= 120) expect(html).toContain(`value="${fields.name}"`);
    expect(html).not.toContain(`value="${fields.password}"`);
    expect(await usersWithEmail(email)).toBe(0);
  });
});
