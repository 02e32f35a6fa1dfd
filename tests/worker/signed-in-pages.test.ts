import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import type { Role } from "@/server/auth/roles";
import { createUser, PASSWORD, sessionCookie } from "./fixtures";
import { cookieFrom, ORIGIN, postForm, request } from "./helpers";

// The signed-in pages (/welcome, /getting-started, /security), changing the password,
// signing out with a plain form, and the server's idle and absolute session limits.

const NEW_PASSWORD = "quiet-river-lantern-42";

async function signedIn(role: Role = "owner") {
  const user = await createUser({ role });
  return { user, cookie: await sessionCookie(user.email) };
}

function get(path: string, cookie?: string, headers: Record<string, string> = {}) {
  return request(path, { headers: { ...(cookie ? { Cookie: cookie } : {}), ...headers } });
}

/** A request to an app whose wrangler vars differ from the defaults (settings.ts). */
function getWithVars(path: string, cookie: string, vars: Record<string, string>) {
  return Promise.resolve(
    createApp().request(new Request(new URL(path, ORIGIN), { headers: { Cookie: cookie } }), undefined, { ...env, ...vars }),
  );
}

async function me(cookie: string): Promise<{ ok: boolean; user?: string }> {
  return (await get("/api/me", cookie)).json();
}

/** The areas the welcome page offers, by their data-area marker. */
function areasOf(html: string): string[] {
  return [...html.matchAll(/data-area="([^"]+)"/g)].map((m) => m[1] ?? "");
}

/** The opening tag of the form that posts to `action`. */
function formTag(html: string, action: string): string {
  return [...html.matchAll(/<form[^>]*>/g)].map((m) => m[0]).find((tag) => tag.includes(`action="${action}"`)) ?? "";
}

function changePassword(cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return postForm("/security", fields, { Cookie: cookie, ...headers });
}

async function sessionsOf(userId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM sessions WHERE user_id = ?").bind(userId).first<{ n: number }>();
  return row?.n ?? 0;
}

async function setSessionTimes(userId: string, fields: { last_seen_at?: number; expires_at?: number }) {
  for (const [column, offset] of Object.entries(fields)) {
    await env.DB.prepare(`UPDATE sessions SET ${column} = ? WHERE user_id = ?`)
      .bind(new Date(Date.now() + offset).toISOString(), userId)
      .run();
  }
}

describe("without a session", () => {
  it.each(["/welcome", "/getting-started", "/security"])("%s shows the sign-in page at the same URL with 401", async (path) => {
    const response = await get(path);
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain("<title>Sign in · Configuration Tool</title>");
    // Nothing of the signed-in shell: no sign-out, no idle timer.
    expect(html).not.toContain('action="/sign-out"');
    expect(html).not.toContain('id="idle-warning"');
  });

  it("cannot change anyone's password: the form post answers 401 too", async () => {
    const response = await postForm("/security", {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(401);
    const json = await postForm(
      "/security",
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { Accept: "application/json" },
    );
    expect(json.status).toBe(401);
    expect(await json.json()).toEqual({ ok: false, errors: { form: "Sign in to continue." } });
  });
});

describe("/welcome", () => {
  it("greets the user and offers the areas their role opens", async () => {
    const { cookie } = await signedIn("owner");
    const response = await get("/welcome", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Welcome · Configuration Tool</title>");
    expect(html).toContain("Good to see you, Test User.");
    expect(areasOf(html)).toEqual([
      "accounts",
      "organizations",
      "users",
      "subscriptions",
      "devices",
      "gettingStarted",
      "security",
    ]);
    for (const href of ["/accounts", "/settings/organizations", "/settings/users", "/settings/subscriptions", "/devices"]) {
      expect(html).toContain(`href="${href}"`);
    }
  });

  it.each<[Role, string[]]>([
    ["viewer", ["accounts", "organizations", "gettingStarted", "security"]],
    ["technician", ["accounts", "organizations", "devices", "gettingStarted", "security"]],
    ["configurator", ["accounts", "organizations", "devices", "gettingStarted", "security"]],
    ["admin", ["accounts", "organizations", "users", "subscriptions", "devices", "gettingStarted", "security"]],
    ["case-agent", ["accounts", "organizations", "gettingStarted", "security"]],
  ])("offers a %s exactly %j", async (role, expected) => {
    const { cookie } = await signedIn(role);
    expect(areasOf(await (await get("/welcome", cookie)).text())).toEqual(expected);
  });

  it("leaves out the guide when documentation is switched off, and can be a plain list", async () => {
    const { cookie } = await signedIn("viewer");
    const html = await (await getWithVars("/welcome", cookie, { SHOW_DOCUMENTATION: "false", WELCOME_MODE: "list" })).text();
    expect(areasOf(html)).toEqual(["accounts", "organizations", "security"]);
    expect(html).toContain("divide-y");
  });

  it("speaks the user's language", async () => {
    const { cookie } = await signedIn("technician");
    const html = await (await get("/welcome", `${cookie}; lang=es-MX`)).text();
    expect(html).toContain("Qué gusto verte, Test User.");
    expect(html).toContain(">Dispositivos</a>");
    expect(html).toContain(">Cerrar sesión</button>");
  });

  it("shows who is signed in, the sign-out form and the idle timer in the header", async () => {
    const { cookie, user } = await signedIn("viewer");
    const html = await (await get("/welcome", cookie)).text();
    expect(html).toContain(user.email);
    expect(formTag(html, "/sign-out")).toContain('method="post"');
    expect(html).toMatch(/action="\/sign-out"[^>]*><button type="submit"[^>]*>Sign out<\/button><\/form>/);
    // The idle warning is rendered for the shell script to open (WCAG 2.2.1), with its server action.
    expect(html).toMatch(/<dialog id="idle-warning" role="alertdialog"/);
    expect(formTag(html, "/api/session/extend")).toContain('method="post"');
    expect(html).toContain(">Stay signed in</button>");
    // No React in the shell: no island on a page without a form.
    expect(html).not.toContain("data-island=");
  });

  it("sends a signed-in visitor of / to /welcome", async () => {
    const { cookie } = await signedIn("viewer");
    const response = await get("/", cookie);
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/welcome");
  });
});

describe("/getting-started", () => {
  it("is a guide with a table of contents linking to each section", async () => {
    const { cookie } = await signedIn("viewer");
    const response = await get("/getting-started", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    for (const id of ["accounts", "network", "profiles", "deploy", "devices", "commands", "roles"]) {
      expect(html).toContain(`href="#${id}"`);
      expect(html).toContain(`id="${id}"`);
    }
    expect(html).toContain("Network settings: account, site, location");
    for (const role of ["Owner", "Administrator", "Configurator", "Technician", "Viewer", "Case agent"]) {
      expect(html).toContain(`>${role}</th>`);
    }
  });

  it.each([
    ["es-MX", "Perfiles de configuración y reglas"],
    ["fr-CA", "Profils de configuration et règles"],
    ["pt-BR", "Perfis de configuração e regras"],
  ])("is written in %s too", async (language, heading) => {
    const { cookie } = await signedIn("viewer");
    const html = await (await get("/getting-started", `${cookie}; lang=${language}`)).text();
    expect(html).toContain(heading);
    expect(html).not.toContain("gettingStarted.");
  });

  it("does not exist when documentation is switched off", async () => {
    const { cookie } = await signedIn("owner");
    const response = await getWithVars("/getting-started", cookie, { SHOW_DOCUMENTATION: "false" });
    expect(response.status).toBe(404);
    expect(await response.text()).toContain("We can&#x27;t find what you&#x27;re looking for.");
  });
});

describe("/security", () => {
  it("shows the password form and the sign-in methods, with empty passkey and identity lists", async () => {
    const { cookie } = await signedIn("viewer");
    const response = await get("/security", cookie);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(formTag(html, "/security")).toContain('method="post"');
    for (const name of ["currentPassword", "newPassword", "confirmPassword"]) expect(html).toContain(`name="${name}"`);
    expect(html).toContain("Last signed in: ");
    expect(html).toContain("Two-factor authentication by email");
    expect(html).toMatch(/<p class="[^"]*">Off<\/p>/);
    expect(html).toContain("No passkeys yet.");
    expect(html).toContain("No linked identities yet.");
  });

  it("says when two-factor by email is on", async () => {
    const { cookie, user } = await signedIn("viewer");
    await env.DB.prepare("UPDATE users SET two_factor = 'email' WHERE id = ?").bind(user.id).run();
    expect(await (await get("/security", cookie)).text()).toMatch(/<p class="[^"]*">On<\/p>/);
  });

  it("formats the last sign-in in the user's language", async () => {
    const { cookie, user } = await signedIn("viewer");
    await env.DB.prepare("UPDATE users SET last_sign_in_at = '2025-03-04T05:06:07.000Z' WHERE id = ?").bind(user.id).run();
    expect(await (await get("/security", cookie)).text()).toContain("Last signed in: March 4, 2025 at 5:06:07 AM UTC");
    expect(await (await get("/security", `${cookie}; lang=es-MX`)).text()).toContain(
      "Último inicio de sesión: 4 de marzo de 2025",
    );
  });
});

describe("changing the password", () => {
  it("refuses a wrong current password, keeping the old one", async () => {
    const { cookie, user } = await signedIn("viewer");
    const response = await changePassword(cookie, {
      currentPassword: "not-my-password",
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(html).toContain("That is not your current password.");
    expect(html).toContain('aria-invalid="true"');
    // Passwords are never written back into the page.
    expect(html).not.toContain("not-my-password");
    expect(html).not.toContain(NEW_PASSWORD);
    expect((await sessionCookie(user.email, PASSWORD)).length).toBeGreaterThan(0);
  });

  it.each([
    [
      "too short",
      { newPassword: "short", confirmPassword: "short" },
      "newPassword",
      "The password must be at least 8 characters.",
    ],
    ["too common", { newPassword: "password123", confirmPassword: "password123" }, "newPassword", "too common"],
    ["not confirmed", { newPassword: NEW_PASSWORD, confirmPassword: "" }, "confirmPassword", "Type the password again."],
    ["confirmed wrongly", { newPassword: NEW_PASSWORD, confirmPassword: `${NEW_PASSWORD}x` }, "confirmPassword", "do not match"],
    [
      "missing the current one",
      { currentPassword: "", newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      "currentPassword",
      "Enter your current password.",
    ],
    [
      "the same as before",
      { newPassword: PASSWORD, confirmPassword: PASSWORD },
      "newPassword",
      "different from your current one",
    ],
  ])("refuses a new password that is %s, field by field for the island", async (_, fields, field, message) => {
    const { cookie } = await signedIn("viewer");
    const response = await changePassword(cookie, { currentPassword: PASSWORD, ...fields }, { Accept: "application/json" });
    expect(response.status).toBe(400);
    const body = (await response.json()) as { ok: boolean; errors: Record<string, string> };
    expect(body.ok).toBe(false);
    expect(Object.keys(body.errors)).toEqual([field]);
    expect(body.errors[field]).toContain(message);
  });

  it("sets the new password, ends the user's other sessions and keeps this one", async () => {
    const { cookie, user } = await signedIn("viewer");
    const other = await sessionCookie(user.email);
    const stranger = await signedIn("viewer");
    expect(await sessionsOf(user.id)).toBe(2);

    const response = await changePassword(cookie, {
      currentPassword: PASSWORD,
      newPassword: NEW_PASSWORD,
      confirmPassword: NEW_PASSWORD,
    });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/security");
    expect(cookieFrom(response, "flash")).toBeDefined();

    expect(await me(cookie)).toMatchObject({ ok: true, user: user.email });
    expect(await me(other)).toEqual({ ok: false });
    expect(await sessionsOf(user.id)).toBe(1);
    // Someone else's session is not touched.
    expect(await me(stranger.cookie)).toMatchObject({ ok: true });

    await expect(sessionCookie(user.email, PASSWORD)).rejects.toThrow(/could not sign in/);
    expect(await sessionCookie(user.email, NEW_PASSWORD)).toMatch(/^__Host-session=/);

    // The page it lands on says so, once.
    const page = await get("/security", `${cookie}; flash=${cookieFrom(response, "flash")}`);
    expect(await page.text()).toContain("Your password was changed. You were signed out everywhere else.");
  });

  it("answers the island with JSON and leaves the flash for the page it goes to", async () => {
    const { cookie, user } = await signedIn("technician");
    const response = await changePassword(
      cookie,
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { Accept: "application/json" },
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toMatchObject({ ok: true, redirect: "/security" });
    expect(cookieFrom(response, "flash")).toBeDefined();
    expect(await sessionCookie(user.email, NEW_PASSWORD)).toMatch(/^__Host-session=/);
  });

  it("refuses a form posted from another site", async () => {
    const { cookie, user } = await signedIn("viewer");
    const response = await changePassword(
      cookie,
      { currentPassword: PASSWORD, newPassword: NEW_PASSWORD, confirmPassword: NEW_PASSWORD },
      { Origin: "https://evil.example" },
    );
    expect(response.status).toBe(403);
    expect(await sessionCookie(user.email, PASSWORD)).toMatch(/^__Host-session=/);
  });
});

describe("signing out with the plain form", () => {
  it("ends the session and goes home; the same cookie is then worth nothing", async () => {
    const { cookie, user } = await signedIn("viewer");
    const response = await postForm("/sign-out", {}, { Cookie: cookie });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
    expect(response.headers.getSetCookie().some((c) => c.startsWith("__Host-session=;"))).toBe(true);
    expect(await me(cookie)).toEqual({ ok: false });
    expect(await sessionsOf(user.id)).toBe(0);
    expect((await get("/welcome", cookie)).status).toBe(401);
  });

  it("goes home harmlessly without a session", async () => {
    const response = await postForm("/sign-out", {});
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/");
  });

  it("refuses a sign-out posted from another site (CSRF)", async () => {
    const { cookie } = await signedIn("viewer");
    const response = await postForm("/sign-out", {}, { Cookie: cookie, Origin: "https://evil.example" });
    expect(response.status).toBe(403);
    expect(await me(cookie)).toMatchObject({ ok: true });
  });
});

describe("session limits, as the pages see them", () => {
  it("a session idle for 16 minutes gets the sign-in page and {ok:false}", async () => {
    const { cookie, user } = await signedIn("owner");
    await setSessionTimes(user.id, { last_seen_at: -16 * 60_000 });
    const page = await get("/welcome", cookie);
    expect(page.status).toBe(401);
    expect(await page.text()).toContain("<title>Sign in · Configuration Tool</title>");
    expect(await me(cookie)).toEqual({ ok: false });
  });

  it("a session idle for 14 minutes still works, and the visit resets its idle clock", async () => {
    const { cookie, user } = await signedIn("owner");
    await setSessionTimes(user.id, { last_seen_at: -14 * 60_000 });
    expect((await get("/welcome", cookie)).status).toBe(200);
    const row = await env.DB.prepare("SELECT last_seen_at FROM sessions WHERE user_id = ?")
      .bind(user.id)
      .first<{ last_seen_at: string }>();
    expect(Date.now() - Date.parse(row?.last_seen_at ?? "")).toBeLessThan(60_000);
    // The idle timer's GET /api/me keeps it alive the same way.
    await setSessionTimes(user.id, { last_seen_at: -14 * 60_000 });
    expect(await me(cookie)).toMatchObject({ ok: true });
    expect((await get("/security", cookie)).status).toBe(200);
  });

  it("a session past its 12-hour lifetime gets the sign-in page however active it is", async () => {
    const { cookie, user } = await signedIn("owner");
    await setSessionTimes(user.id, { expires_at: -1000, last_seen_at: 0 });
    expect((await get("/security", cookie)).status).toBe(401);
    expect(await me(cookie)).toEqual({ ok: false });
  });
});
