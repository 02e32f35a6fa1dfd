import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { sha256Hex } from "@/server/auth/crypto";
import { createUser, PASSWORD, sessionCookie } from "./fixtures";
import { ORIGIN, postForm, request } from "./helpers";

const NEW_PASSWORD = "a-long-new-passphrase";

let addressCounter = 0;
/** A client address of its own per test, so the per-address throttle of one test never meets another's. */
function clientAddress(): Record<string, string> {
  addressCounter += 1;
  return { "CF-Connecting-IP": `198.51.100.${addressCounter}` };
}

async function mailsTo(email: string): Promise<{ subject: string; body: string }[]> {
  const { results } = await env.DB.prepare("SELECT subject, body FROM mail_outbox WHERE to_address = ? ORDER BY rowid DESC")
    .bind(email)
    .all<{ subject: string; body: string }>();
  return results;
}

/** Asks for a reset link as a browser without JavaScript does and returns the code the mail carries. */
async function requestCode(email: string, headers = clientAddress()): Promise<string> {
  const response = await postForm("/forgot-password", { email }, headers);
  expect(response.status).toBe(303);
  const [mail] = await mailsTo(email);
  const code = /\/reset-password\/([A-Za-z0-9_-]+)/.exec(mail?.body ?? "")?.[1];
  if (!code) throw new Error(`no reset link mailed to ${email}`);
  return code;
}

function postJson(path: string, fields: Record<string, string>, headers: Record<string, string> = {}) {
  return postForm(path, fields, { Accept: "application/json", ...headers });
}

async function signInAnswer(email: string, password: string) {
  const response = await request("/api/sign-in", {
    method: "POST",
    body: JSON.stringify({ username: email, password }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", ...clientAddress() },
  });
  return (await response.json()) as { ok: boolean };
}

async function me(cookie: string) {
  return (await (await request("/api/me", { headers: { Cookie: cookie } })).json()) as { ok: boolean };
}

describe("/forgot-password", () => {
  it("shows the email form", async () => {
    const response = await request("/forgot-password");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain('data-island="identity-form"');
    expect(html).toMatch(/<form [^>]*method="post"/);
    expect(html).toContain('name="email"');
  });

  it("answers a known and an unknown address identically, and only the known one gets mail", async () => {
    const user = await createUser();
    const unknown = "nobody-at-all@example.com";
    const known = await postForm("/forgot-password", { email: user.email }, clientAddress());
    const stranger = await postForm("/forgot-password", { email: unknown }, clientAddress());

    for (const response of [known, stranger]) {
      expect(response.status).toBe(303);
      expect(response.headers.get("Location")).toBe("/confirm-reset-code-sent");
      expect(response.headers.getSetCookie()).toEqual([]);
    }
    expect(await known.text()).toBe(await stranger.text());

    // With JavaScript the island gets the same answer for both, too.
    const knownJson = await (await postJson("/forgot-password", { email: user.email }, clientAddress())).json();
    const strangerJson = await (await postJson("/forgot-password", { email: unknown }, clientAddress())).json();
    expect(knownJson).toEqual({ ok: true, redirect: "/confirm-reset-code-sent" });
    expect(strangerJson).toEqual(knownJson);

    const mail = await mailsTo(user.email);
    expect(mail).toHaveLength(2);
    expect(mail[0]?.subject).toBe("Reset your Configuration Tool password");
    expect(mail[0]?.body).toMatch(new RegExp(`${ORIGIN}/reset-password/[A-Za-z0-9_-]{43}\\n`));
    expect(mail[0]?.body).toContain("expires in 60 minutes");
    expect(await mailsTo(unknown)).toEqual([]);

    // Only hashes are stored: the mailed code is nowhere in the table.
    const code = /reset-password\/([A-Za-z0-9_-]+)/.exec(mail[0]?.body ?? "")?.[1] ?? "";
    const stored = await env.DB.prepare("SELECT code_hash FROM password_resets WHERE user_id = ?").bind(user.id).all();
    expect(stored.results).toHaveLength(2);
    expect(JSON.stringify(stored.results)).not.toContain(code);
    expect(stored.results).toContainEqual({ code_hash: await sha256Hex(code) });
  });

  it("shows the same confirmation page whoever asked", async () => {
    const response = await request("/confirm-reset-code-sent");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Check your email");
    expect(html).toContain("we&#x27;ve sent it an email with a link");
    expect(html).toContain('href="/sign-in"');
  });

  it("mails in the user's own language, else in the page's", async () => {
    const spanish = await createUser();
    await env.DB.prepare("UPDATE users SET language = 'es-MX' WHERE id = ?").bind(spanish.id).run();
    const unset = await createUser();
    await postForm("/forgot-password", { email: spanish.email }, { ...clientAddress(), "Accept-Language": "fr-CA" });
    await postForm("/forgot-password", { email: unset.email }, { ...clientAddress(), "Accept-Language": "fr-CA" });
    expect((await mailsTo(spanish.email))[0]?.subject).toBe("Restablece tu contraseña de Configuration Tool");
    expect((await mailsTo(unset.email))[0]?.subject).toBe("Réinitialisation de votre mot de passe Configuration Tool");
  });

  it("sends nothing to a disabled user, and answers the same", async () => {
    const user = await createUser();
    await env.DB.prepare("UPDATE users SET status = 'disabled' WHERE id = ?").bind(user.id).run();
    const response = await postForm("/forgot-password", { email: user.email }, clientAddress());
    expect(response.headers.get("Location")).toBe("/confirm-reset-code-sent");
    expect(await mailsTo(user.email)).toEqual([]);
  });

  it.each([
    ["", "Enter your email address."],
    ["not an address", "Enter an email address like name@example.com, without spaces."],
  ])("refuses the address %j with its message", async (email, message) => {
    const json = await postJson("/forgot-password", { email }, clientAddress());
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ ok: false, errors: { email: message } });

    // Without JavaScript: the page again, the field marked, the typed value kept.
    const page = await postForm("/forgot-password", { email }, clientAddress());
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain(message);
    expect(html).toContain('aria-invalid="true"');
    if (email) expect(html).toContain(`value="${email}"`);
  });

  it("throttles reset requests per client address", async () => {
    const headers = clientAddress();
    for (let i = 0; i < 20; i++) {
      const response = await postForm("/forgot-password", { email: `someone${i}@example.com` }, headers);
      expect(response.status).toBe(303);
    }
    const page = await postForm("/forgot-password", { email: "one-more@example.com" }, headers);
    expect(page.status).toBe(429);
    expect(await page.text()).toContain("Too many reset requests from your network. Wait a while, then try again.");
    const json = await postJson("/forgot-password", { email: "one-more@example.com" }, headers);
    expect(json.status).toBe(429);
    expect(await json.json()).toEqual({
      ok: false,
      errors: { form: "Too many reset requests from your network. Wait a while, then try again." },
    });
    // Another address is not affected.
    expect((await postForm("/forgot-password", { email: "one-more@example.com" }, clientAddress())).status).toBe(303);
  });
});

describe("/reset-password/:resetCode", () => {
  it("sets the new password once: the old one fails, the new one works, old sessions end", async () => {
    const user = await createUser();
    const oldSession = await sessionCookie(user.email);
    expect(await me(oldSession)).toMatchObject({ ok: true });
    const code = await requestCode(user.email);

    const form = await request(`/reset-password/${code}`);
    expect(form.status).toBe(200);
    const html = await form.text();
    expect(html).toContain('name="password"');
    expect(html).toContain('name="passwordConfirmation"');

    const done = await postForm(`/reset-password/${code}`, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/confirm-password-reset");

    expect(await signInAnswer(user.email, PASSWORD)).toEqual({ ok: false });
    expect(await signInAnswer(user.email, NEW_PASSWORD)).toEqual({ ok: true });
    expect(await me(oldSession)).toEqual({ ok: false });

    // The link is spent: a clear message and a way to ask for another, never the form.
    const again = await request(`/reset-password/${code}`);
    const againHtml = await again.text();
    expect(againHtml).toContain("This reset link no longer works.");
    expect(againHtml).toContain('href="/forgot-password"');
    expect(againHtml).not.toContain('name="password"');
    const reuse = await postJson(`/reset-password/${code}`, {
      password: "another-passphrase",
      passwordConfirmation: "another-passphrase",
    });
    expect(reuse.status).toBe(404);
    expect(await signInAnswer(user.email, "another-passphrase")).toEqual({ ok: false });
    expect(await signInAnswer(user.email, NEW_PASSWORD)).toEqual({ ok: true });
  });

  it("lifts a sign-in lockout: owning the address is proof enough", async () => {
    const user = await createUser();
    for (let i = 1; i <= 5; i++) await signInAnswer(user.email, `wrong-guess-${i}`);
    expect(await signInAnswer(user.email, PASSWORD)).toEqual({ ok: false, blocked: true });
    const code = await requestCode(user.email);
    await postForm(`/reset-password/${code}`, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(await signInAnswer(user.email, NEW_PASSWORD)).toEqual({ ok: true });
  });

  it("shows the confirmation with a way to sign in", async () => {
    const html = await (await request("/confirm-password-reset")).text();
    expect(html).toContain("Your password has been changed.");
    expect(html).toContain('href="/sign-in"');
  });

  it("spends the user's older links with the one used", async () => {
    const user = await createUser();
    const older = await requestCode(user.email);
    const newer = await requestCode(user.email);
    await postForm(`/reset-password/${newer}`, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(await (await request(`/reset-password/${older}`)).text()).toContain("This reset link no longer works.");
  });

  it("refuses an expired code and an unknown one", async () => {
    const user = await createUser();
    const code = "an-expired-code-for-this-test-only-000000000";
    await env.DB.prepare("INSERT INTO password_resets (code_hash, user_id, expires_at) VALUES (?, ?, ?)")
      .bind(await sha256Hex(code), user.id, new Date(Date.now() - 1000).toISOString())
      .run();

    for (const path of [`/reset-password/${code}`, "/reset-password/no-such-code"]) {
      const page = await (await request(path)).text();
      expect(page).toContain("This reset link no longer works.");
      expect(page).not.toContain('name="password"');
      const post = await postForm(path, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
      expect(post.status).toBe(404);
    }
    expect(await signInAnswer(user.email, PASSWORD)).toEqual({ ok: true });
  });

  it.each([
    [
      { password: "", passwordConfirmation: "" },
      { password: "Enter your password.", passwordConfirmation: "Type the password again." },
    ],
    [{ password: "short", passwordConfirmation: "short" }, { password: "The password must be at least 8 characters." }],
    [
      { password: "x".repeat(257), passwordConfirmation: "x".repeat(257) },
      { password: "The password must be 256 characters or fewer." },
    ],
    [
      { password: "Password123", passwordConfirmation: "Password123" },
      { password: "This password is too common. Choose one that is harder to guess." },
    ],
    [
      { password: NEW_PASSWORD, passwordConfirmation: `${NEW_PASSWORD}!` },
      { passwordConfirmation: "The passwords do not match." },
    ],
  ])("refuses %j with the right messages and changes nothing", async (fields, errors) => {
    const user = await createUser();
    const session = await sessionCookie(user.email);
    const code = await requestCode(user.email);

    const json = await postJson(`/reset-password/${code}`, fields);
    expect(json.status).toBe(400);
    expect(await json.json()).toEqual({ ok: false, errors });

    // Without JavaScript: the form again, with the message, and no password echoed back.
    const page = await postForm(`/reset-password/${code}`, fields);
    expect(page.status).toBe(400);
    const html = await page.text();
    expect(html).toContain('aria-invalid="true"');
    if (fields.password) expect(html).not.toContain(`value="${fields.password}"`);

    expect(await signInAnswer(user.email, PASSWORD)).toEqual({ ok: true });
    expect(await me(session)).toMatchObject({ ok: true });
    // The link still works after a refused try.
    const done = await postForm(`/reset-password/${code}`, { password: NEW_PASSWORD, passwordConfirmation: NEW_PASSWORD });
    expect(done.headers.get("Location")).toBe("/confirm-password-reset");
  });
});
