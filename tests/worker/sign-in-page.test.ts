import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { createUser, PASSWORD } from "./fixtures";
import { cookieFrom, postForm, request } from "./helpers";

// The sign-in screen without JavaScript: every step is a form post to /sign-in?next=… and
// the server answers with the next step, the same step with a message, or a redirect.

const SESSION = "__Host-session";

function decode(text: string): string {
  return text.replace(
    /&(quot|amp|lt|gt|#x27);/g,
    (_, e: string) => ({ quot: '"', amp: "&", lt: "<", gt: ">", "#x27": "'" })[e] ?? "",
  );
}

/**
 * The messages of the page's error summary (field errors and whole-step messages), as a user
 * hears them: the summary is the one alert, and it takes the focus.
 */
function alerts(html: string): string[] {
  const summary = /<div role="alert">([\s\S]*?)<\/div><\/div>/.exec(html)?.[1] ?? "";
  return [...summary.matchAll(/<(?:p class="mt-2"|a href="#[^"]*"[^>]*)>([^<]*)</g)].map((m) => decode(m[1] ?? ""));
}

/** The page as shown: without the inert <template>s of the other steps (the script's). */
function withoutTemplates(html: string): string {
  return html.replace(/<template[\s\S]*?<\/template>/g, "");
}

/** The first <input name=…> tag on the page ("" when there is none). */
function inputTag(html: string, name: string): string {
  return new RegExp(`<input[^>]*name="${name}"[^>]*>`).exec(html)?.[0] ?? "";
}

function inputValue(html: string, name: string): string | undefined {
  const tag = inputTag(html, name);
  return tag ? decode(/value="([^"]*)"/.exec(tag)?.[1] ?? "") : undefined;
}

/** The step the page shows: the hidden `step` field of its (first) step form. */
function shownStep(html: string): string | undefined {
  return /<input type="hidden" name="step" value="(?!change)([^"]+)"/.exec(html)?.[1];
}

function post(fields: Record<string, string>, { next = "/", cookie }: { next?: string; cookie?: string } = {}) {
  return postForm(`/sign-in?next=${encodeURIComponent(next)}`, fields, cookie ? { Cookie: cookie } : {});
}

async function latestCodeFor(email: string): Promise<string> {
  const mail = await env.DB.prepare("SELECT body FROM mail_outbox WHERE to_address = ? ORDER BY rowid DESC LIMIT 1")
    .bind(email)
    .first<{ body: string }>();
  const code = /\b(\d{6})\b/.exec(mail?.body ?? "")?.[1];
  if (!code) throw new Error(`no code mailed to ${email}`);
  return code;
}

async function me(cookie: string) {
  return (await (await request("/api/me", { headers: { Cookie: cookie } })).json()) as { ok: boolean; user?: string };
}

describe("the sign-in page", () => {
  it("starts at the email step, posts to itself with next, and always offers the default identity provider", async () => {
    const response = await request("/sign-in?next=%2Faccounts");
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Sign in · Configuration Tool</title>");
    expect(html).toContain("data-sign-in");
    // No React on this page: the form is enhanced by its own plain script.
    expect(html).not.toContain("data-island=");
    expect(html).toMatch(/<script type="module" src="\/[^"]*sign-in[^"]*\.(ts|js)"/);
    expect(html).toContain('action="/sign-in?next=%2Faccounts"');
    expect(shownStep(html)).toBe("email");
    expect(inputTag(html, "email")).toContain('type="email"');
    // "webauthn": passkeys are on by default, offered in the field's autofill too.
    expect(inputTag(html, "email")).toContain('autoComplete="username webauthn"');
    // The provider's round trip keeps where to go once signed in.
    expect(html).toMatch(/<a[^>]*href="\/api\/auth\/signin\/northwind\?next=%2Faccounts"[^>]*>Sign in with Northwind ID<\/a>/);
    expect(alerts(html)).toEqual([]);
  });

  it("is shown in place of a signed-in route with 401, posting to /sign-in with that route as next", async () => {
    const response = await request("/welcome?tab=1");
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(html).toContain("data-sign-in");
    expect(html).toContain(`action="/sign-in?next=${encodeURIComponent("/welcome?tab=1")}"`);
  });

  it("keeps the target when the header's Sign in link on this page wraps it once more", async () => {
    const html = await (await request(`/sign-in?next=${encodeURIComponent("/sign-in?next=%2Fsecurity")}`)).text();
    expect(html).toContain('action="/sign-in?next=%2Fsecurity"');
  });

  it("sends a visitor who is already signed in on to next", async () => {
    const user = await createUser();
    const signedIn = await post({ step: "password", email: user.email, password: PASSWORD });
    const cookie = `${SESSION}=${cookieFrom(signedIn, SESSION)}`;
    const response = await request("/sign-in?next=%2Fsecurity", { headers: { Cookie: cookie }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/security");
  });
});

describe("the email step", () => {
  it("moves to the password step, carrying the email and offering to change it", async () => {
    const response = await post({ step: "email", email: "  someone@example.com " });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(shownStep(html)).toBe("password");
    expect(inputValue(html, "email")).toBe("someone@example.com");
    expect(html).toMatch(
      /<input type="hidden" name="step" value="change"\/><p[^>]*><span[^>]*>Signing in as<\/span><span[^>]*>someone@example\.com</,
    );
    expect(html).toMatch(/<button type="submit"[^>]*>Change<\/button>/);
    expect(inputTag(html, "password")).toContain('type="password"');
    expect(inputTag(html, "password")).toContain('autoComplete="current-password"');
    expect(html).toMatch(/<a href="\/forgot-password"[^>]*>Forgot password\?<\/a>/);
    expect(alerts(html)).toEqual([]);
  });

  it.each([
    ["", "Enter your email address."],
    ["bad email@example.com", "Enter an email address like name@example.com, without spaces."],
    ["not-an-address", "Enter an email address like name@example.com, without spaces."],
  ])("refuses %j with its message and stays on the email step", async (email, message) => {
    const response = await post({ step: "email", email });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(shownStep(html)).toBe("email");
    expect(alerts(html)).toEqual([message]);
    expect(inputValue(html, "email")).toBe(email.trim());
    const describedBy = /aria-describedby="([^"]+)"/.exec(inputTag(html, "email"))?.[1];
    expect(inputTag(html, "email")).toContain('aria-invalid="true"');
    expect(html).toContain(`<p id="${describedBy}" class="text-sm font-medium text-red-700">`);
    // The summary links to the field, takes the focus, and the title starts with "Error: ".
    expect(html).toContain('<a href="#field-email"');
    expect(html).toContain('autofocus=""');
    expect(html).toMatch(/<title>Error: /);
  });

  it("shows the messages in the visitor's language", async () => {
    const response = await postForm("/sign-in?next=%2F", { step: "email", email: "" }, { Cookie: "lang=es-MX" });
    expect(alerts(await response.text())).toEqual(["Escribe tu correo electrónico."]);
  });
});

describe("the password step", () => {
  it("asks for a password", async () => {
    const response = await post({ step: "password", email: "someone@example.com", password: "" });
    expect(response.status).toBe(400);
    const html = await response.text();
    expect(shownStep(html)).toBe("password");
    expect(alerts(html)).toEqual(["Enter your password."]);
  });

  it("answers a wrong password with the generic message, keeping the typed email", async () => {
    const user = await createUser();
    const response = await post({ step: "password", email: user.email, password: "wrong-password" });
    expect(response.status).toBe(401);
    expect(cookieFrom(response, SESSION)).toBeUndefined();
    const html = await response.text();
    expect(shownStep(html)).toBe("password");
    expect(inputValue(html, "email")).toBe(user.email);
    expect(alerts(html)).toEqual(["We couldn't sign you in. Check your email and password and try again."]);
  });

  it("answers an unknown address exactly like a wrong password", async () => {
    const response = await post({ step: "password", email: "nobody-at-all@example.com", password: "whatever-it-is" });
    expect(response.status).toBe(401);
    expect(alerts(await response.text())).toEqual(["We couldn't sign you in. Check your email and password and try again."]);
  });

  it("blocks the address after 5 wrong passwords, even for the right one", async () => {
    const user = await createUser();
    const generic = "We couldn't sign you in. Check your email and password and try again.";
    for (let i = 1; i <= 4; i += 1) {
      expect(alerts(await (await post({ step: "password", email: user.email, password: `wrong-${i}` })).text())).toEqual([
        generic,
      ]);
    }
    const fifth = await post({ step: "password", email: user.email, password: "wrong-5" });
    const blocked = alerts(await fifth.text());
    expect(blocked).toHaveLength(1);
    expect(blocked[0]).toMatch(/^Too many wrong passwords/);
    const right = await post({ step: "password", email: user.email, password: PASSWORD });
    expect(alerts(await right.text())).toEqual(blocked);
    expect(cookieFrom(right, SESSION)).toBeUndefined();
  });

  it("signs in with the right password: a session cookie, a flash and a 303 to next", async () => {
    const user = await createUser();
    const response = await post({ step: "password", email: user.email.toUpperCase(), password: PASSWORD }, { next: "/security" });
    expect(response.status).toBe(303);
    expect(response.headers.get("location")).toBe("/security");
    const token = cookieFrom(response, SESSION);
    expect(token).toBeTruthy();
    expect(JSON.parse(decodeURIComponent(cookieFrom(response, "flash") ?? "{}"))).toMatchObject({ key: "signIn.signedIn" });
    expect(await me(`${SESSION}=${token}`)).toMatchObject({ ok: true, user: user.email });
  });

  it.each(["//evil.example", "https://evil.example/x", "/\\evil.example", "/sign-in?next=%2F%2Fevil.example"])(
    "does not follow next=%s",
    async (next) => {
      const user = await createUser();
      const response = await post({ step: "password", email: user.email, password: PASSWORD }, { next });
      expect(response.status).toBe(303);
      expect(response.headers.get("location")).toBe("/");
    },
  );
});

describe("two-factor sign-in by email code", () => {
  it("goes password → send code → code (a wrong one first) → signed in", async () => {
    const user = await createUser({ twoFactor: "email" });
    const password = await post({ step: "password", email: user.email, password: PASSWORD }, { next: "/welcome" });
    expect(password.status).toBe(200);
    let html = await password.text();
    expect(shownStep(html)).toBe("send-code");
    expect(html).toMatch(/<h2[^>]*>Two-step sign-in<\/h2>/);
    expect(inputValue(html, "email")).toBe(user.email);
    const attempt = `${SESSION}=${cookieFrom(password, SESSION)}`;
    // The attempt is not a signed-in session.
    expect(await me(attempt)).toEqual({ ok: false });

    const send = await post({ step: "send-code", email: user.email }, { next: "/welcome", cookie: attempt });
    expect(send.status).toBe(200);
    html = await send.text();
    expect(shownStep(html)).toBe("verify-code");
    expect(inputTag(html, "otp")).toContain('inputMode="numeric"');
    expect(inputTag(html, "otp")).toContain('autoComplete="one-time-code"');
    expect(inputTag(html, "otp")).not.toContain("required");
    const code = await latestCodeFor(user.email);

    const wrongCode = code === "000000" ? "111111" : "000000";
    const wrong = await post({ step: "verify-code", email: user.email, otp: wrongCode }, { next: "/welcome", cookie: attempt });
    expect(wrong.status).toBe(400);
    html = await wrong.text();
    expect(shownStep(html)).toBe("verify-code");
    expect(alerts(html)).toEqual(["That code is not right or has expired. Check the latest email or send a new code."]);

    const empty = await post({ step: "verify-code", email: user.email, otp: "" }, { next: "/welcome", cookie: attempt });
    expect(alerts(await empty.text())).toEqual([
      "That code is not right or has expired. Check the latest email or send a new code.",
    ]);

    const right = await post({ step: "verify-code", email: user.email, otp: code }, { next: "/welcome", cookie: attempt });
    expect(right.status).toBe(303);
    expect(right.headers.get("location")).toBe("/welcome");
    const session = `${SESSION}=${cookieFrom(right, SESSION)}`;
    expect(session).not.toBe(attempt);
    expect(await me(session)).toMatchObject({ ok: true, user: user.email });
  });

  it("starts over when no attempt is waiting for a code", async () => {
    const response = await post({ step: "send-code", email: "someone@example.com" });
    expect(response.status).toBe(401);
    const html = await response.text();
    expect(shownStep(html)).toBe("email");
    expect(alerts(html)).toEqual(["We couldn't sign you in. Check your email and password and try again."]);
  });
});

describe("Change", () => {
  it("returns to an empty email step and ends an attempt waiting for its code", async () => {
    const user = await createUser({ twoFactor: "email" });
    const password = await post({ step: "password", email: user.email, password: PASSWORD });
    const attempt = `${SESSION}=${cookieFrom(password, SESSION)}`;

    const change = await post({ step: "change" }, { cookie: attempt });
    expect(change.status).toBe(200);
    const html = await change.text();
    expect(shownStep(html)).toBe("email");
    expect(inputValue(html, "email")).toBe("");
    expect(withoutTemplates(html)).not.toContain(">Signing in as<");
    expect(cookieFrom(change, SESSION)).toBe("");

    // The ended attempt cannot be used for a code any more.
    const send = await post({ step: "send-code", email: user.email }, { cookie: attempt });
    expect(shownStep(await send.text())).toBe("email");
  });
});

describe("throttling", () => {
  it("says 'too many attempts' with 429 once an address sends too many codes", async () => {
    let response: Response | undefined;
    for (let i = 0; i < 40; i += 1) {
      response = await post({ step: "send-code", email: "someone@example.com" });
      if (response.status === 429) break;
    }
    expect(response?.status).toBe(429);
    const html = (await response?.text()) ?? "";
    expect(shownStep(html)).toBe("send-code");
    expect(alerts(html)).toEqual(["Too many attempts. Wait a few minutes, then try again."]);
  });
});

describe("the steps the script shows", () => {
  it("are inert templates beside the live step, filled in by the script, with its strings in the config", async () => {
    const html = await (await request("/sign-in")).text();
    // The live part has the email step only: no second form a person or a crawler could use.
    const live = withoutTemplates(html);
    expect(live).not.toContain('name="password"');
    expect(live).not.toContain('name="otp"');
    for (const step of ["change", "email", "password", "sso", "need-2fa", "need-otp"]) {
      expect(html).toContain(`<template data-step="${step}">`);
    }
    const config = JSON.parse(decode(/data-config="([^"]*)"/.exec(html)?.[1] ?? "{}")) as {
      messages: Record<string, string>;
      step: string;
      next: string;
    };
    expect(config.step).toBe("email");
    expect(config.next).toBe("/");
    expect(config.messages["signIn.Generic"]).toBe("We couldn't sign you in. Check your email and password and try again.");
    expect(config.messages["signIn.ssoIntro"]).toContain("{{provider}}");
  });
});
