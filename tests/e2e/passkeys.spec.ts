import { randomUUID } from "node:crypto";
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { type Browser, type CDPSession, expect, type Page, test } from "./client-address";
import { invitationLink } from "./invitations";

// Passkeys as a person uses them, with Chromium's virtual authenticator (CDP WebAuthn domain)
// standing in for a phone's or laptop's platform authenticator: add one on /security, sign in
// with it with and without typing an email, rename and remove it. The attacks the server must
// refuse are played for real: a replayed sign-in, an expired challenge, and a cloned
// authenticator whose counter goes back. Every test makes its own user (scripts/invite.mjs).

const PASSWORD = "harbor-radios-on-channel-9";
const FAILED = "We couldn't sign you in with that passkey. Try again, or sign in with your password.";

function uniqueEmail(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
}

function serverEnv() {
  const server = test.info().config.webServer;
  return { ...process.env, PERSIST_TO: server?.env?.PERSIST_TO, PORT: server?.env?.PORT };
}

/** An owner's invitation of `email` as a viewer; its accept link. */
function invite(email: string): Promise<string> {
  return invitationLink(String(test.info().project.use.baseURL), email);
}

/**
 * SQL on the test server's local D1, as an operator would run it with sqlite3 on the file
 * (`wrangler d1 execute --local` does the same through a miniflare it starts, ~10 s). SQLite's
 * own locking keeps it safe beside the running server; busy_timeout waits out its writes.
 */
function sql(command: string): void {
  const dir = join(String(serverEnv().PERSIST_TO), "v3", "d1", "miniflare-D1DatabaseObject");
  const files = readdirSync(dir).filter((name) => name.endsWith(".sqlite") && name !== "metadata.sqlite");
  if (files.length !== 1) throw new Error(`expected one D1 database in ${dir}, found ${files.join(", ") || "none"}`);
  const db = new DatabaseSync(join(dir, String(files[0])));
  try {
    db.exec("PRAGMA busy_timeout = 5000");
    db.exec(command);
  } finally {
    db.close();
  }
}

type Authenticator = { cdp: CDPSession; authenticatorId: string };

/** A platform authenticator with user verification that says yes at once, like a touched fingerprint reader. */
async function addVirtualAuthenticator(page: Page): Promise<Authenticator> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send("WebAuthn.enable");
  const { authenticatorId } = await cdp.send("WebAuthn.addVirtualAuthenticator", {
    options: {
      protocol: "ctap2",
      transport: "internal",
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
      automaticPresenceSimulation: true,
    },
  });
  return { cdp, authenticatorId };
}

/**
 * The virtual authenticator answers an autofill (conditional) request at once, as if the user
 * had picked the passkey in the email field's suggestions. Tests of the button turn autofill
 * off, as a browser without it would be, so only the button's request runs.
 */
async function withoutAutofill(page: Page) {
  await page.addInitScript(() => {
    PublicKeyCredential.isConditionalMediationAvailable = async () => false;
  });
}

async function signedInAs(page: Page): Promise<string | null> {
  const me = (await (await page.request.get("/api/me")).json()) as { ok: boolean; user?: string };
  return me.ok ? (me.user ?? null) : null;
}

async function signOut(page: Page) {
  const origin = new URL(page.url()).origin;
  expect((await page.request.post("/api/sign-out", { headers: { Origin: origin } })).status()).toBe(204);
  expect(await signedInAs(page)).toBeNull();
}

/** A new viewer, accepted in the browser (signed in), with one passkey added on /security. */
async function userWithPasskey(page: Page, name = "Work laptop"): Promise<string> {
  const email = uniqueEmail("passkey");
  await page.goto(await invite(email));
  await page.getByLabel("Your name").fill("Paula Passkey");
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page).toHaveURL(/\/welcome$/);

  await page.goto("/security");
  const section = page.getByRole("region", { name: "Passkeys" });
  await expect(section.getByText("No passkeys yet.")).toBeVisible();
  await section.getByLabel("Name for the new passkey (optional)").fill(name);
  await section.getByRole("button", { name: "Add a passkey" }).click();
  await expect(page.getByRole("region", { name: /^Notifications/ }).getByText("Passkey added.")).toBeVisible();
  await expect(section.getByRole("listitem").filter({ hasText: name })).toContainText("Not used to sign in yet");
  return email;
}

/** The sign-in page, its script running, with its passkey button (shown once the browser reports the authenticator). */
async function openSignIn(page: Page) {
  await page.goto("/sign-in");
  await page.locator("[data-sign-in][data-enhanced]").waitFor({ state: "attached" });
  await expect(page.getByRole("button", { name: "Sign in with a passkey" })).toBeVisible();
}

test.describe("with JavaScript and a platform authenticator", () => {
  test("add a passkey, sign in with it without and with an email, rename it, remove it", async ({ page }) => {
    test.setTimeout(90_000);
    await withoutAutofill(page);
    await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page, "Work laptop");
    await signOut(page);

    // Without typing an email: the browser offers the passkeys it holds for this site.
    await openSignIn(page);
    const discoverable = page.waitForRequest("**/api/passkey/auth/start");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect((await discoverable).postDataJSON()).toEqual({});
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);
    await signOut(page);

    // After the email step: the options name this user's passkeys.
    await openSignIn(page);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("Signing in as")).toBeVisible();
    const forUser = page.waitForRequest((r) => r.url().endsWith("/api/passkey/auth/start") && r.postData() !== "{}");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect((await forUser).postDataJSON()).toEqual({ username: email });
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);

    // The list says when it was last used; rename it.
    await page.goto("/security");
    const section = page.getByRole("region", { name: "Passkeys" });
    const item = section.getByRole("listitem").filter({ hasText: "Work laptop" });
    await expect(item).toContainText(/Last used \w{3} \d{1,2}, \d{4}/);
    await expect(item).toContainText(/Added \w{3} \d{1,2}, \d{4}/);
    await item.getByText("Rename").click();
    await item.getByLabel("Passkey name").fill("Desk fingerprint reader");
    await item.getByRole("button", { name: "Save name" }).click();
    await expect(
      page.getByRole("region", { name: /^Notifications/ }).getByText("Passkey renamed to “Desk fingerprint reader”."),
    ).toBeVisible();
    await expect(section.getByRole("heading", { name: "Desk fingerprint reader" })).toBeVisible();

    // Remove it, after the confirmation step.
    await section.getByRole("link", { name: "Remove Desk fingerprint reader" }).click();
    await expect(page.getByRole("heading", { name: "Remove passkey" })).toBeVisible();
    await expect(page.getByText("Remove the passkey “Desk fingerprint reader”?")).toBeVisible();
    await page.getByRole("button", { name: "Remove passkey" }).click();
    await expect(page).toHaveURL(/\/security$/);
    await expect(
      page.getByRole("region", { name: /^Notifications/ }).getByText("Passkey “Desk fingerprint reader” removed."),
    ).toBeVisible();
    await expect(section.getByText("No passkeys yet.")).toBeVisible();

    // The authenticator still holds the credential, but the server no longer knows it.
    await signOut(page);
    await openSignIn(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page.getByRole("alert")).toContainText(FAILED);
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await signedInAs(page)).toBeNull();
  });

  test("a used sign-in cannot be replayed", async ({ page }) => {
    test.setTimeout(60_000);
    await withoutAutofill(page);
    await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page);
    await signOut(page);

    await openSignIn(page);
    const verify = page.waitForRequest("**/api/passkey/auth/verify");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    const captured = (await verify).postDataJSON() as { uniqueId: string; response: { id: string } };
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);
    await signOut(page);

    // The same signed answer, sent again: the challenge was used up.
    const replay = await page.request.post("/api/passkey/auth/verify", {
      data: captured,
      headers: { Origin: new URL(page.url()).origin },
    });
    expect(replay.status()).toBe(401);
    expect(await replay.json()).toEqual({ ok: false });
    expect(replay.headers()["set-cookie"] ?? "").not.toContain("__Host-session=");
    expect(await signedInAs(page)).toBeNull();
  });

  test("an expired challenge is refused", async ({ page }) => {
    test.setTimeout(60_000);
    await withoutAutofill(page);
    await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page);
    await signOut(page);

    // The challenge the button gets is aged past its 5 minutes in the database before the
    // browser signs it.
    await openSignIn(page);
    await page.getByLabel("Email").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.route("**/api/passkey/auth/start", async (route) => {
      const response = await route.fetch();
      const { uniqueId } = (await response.json()) as { uniqueId: string };
      expect(uniqueId).toMatch(/^wac_[0-9a-f]{20}$/);
      sql(`UPDATE webauthn_challenges SET expires_at = '2000-01-01T00:00:00.000Z' WHERE id = '${uniqueId}'`);
      await route.fulfill({ response });
    });
    const verify = page.waitForResponse("**/api/passkey/auth/verify");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect((await verify).status()).toBe(401);
    await expect(page.getByRole("alert")).toContainText(FAILED);
    expect(await signedInAs(page)).toBeNull();

    // The same passkey with a fresh challenge still works.
    await page.unroute("**/api/passkey/auth/start");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);
  });

  test("a cloned authenticator (its counter goes back) is refused", async ({ page }) => {
    test.setTimeout(60_000);
    await withoutAutofill(page);
    const { cdp, authenticatorId } = await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page);
    await signOut(page);

    // One genuine sign-in moves the stored counter on.
    await openSignIn(page);
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);
    await signOut(page);

    // The clone: the same private key, with the counter it had before.
    const { credentials } = await cdp.send("WebAuthn.getCredentials", { authenticatorId });
    expect(credentials).toHaveLength(1);
    const [original] = credentials;
    if (!original) throw new Error("no credential");
    expect(original.signCount).toBeGreaterThan(0);
    await cdp.send("WebAuthn.removeCredential", { authenticatorId, credentialId: original.credentialId });
    await cdp.send("WebAuthn.addCredential", { authenticatorId, credential: { ...original, signCount: 0 } });

    await openSignIn(page);
    const verify = page.waitForResponse("**/api/passkey/auth/verify");
    await page.getByRole("button", { name: "Sign in with a passkey" }).click();
    expect((await verify).status()).toBe(401);
    await expect(page.getByRole("alert")).toContainText(FAILED);
    expect(await signedInAs(page)).toBeNull();
  });
});

test.describe("with JavaScript: passkeys in the email field's autofill", () => {
  test("the browser's autofill request signs in without a click", async ({ page }) => {
    test.setTimeout(60_000);
    await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page);
    await signOut(page);

    // The email field invites the browser to list passkeys among its suggestions. Read from the
    // page as served to a signed-out visitor: in the browser the virtual authenticator answers,
    // and the page navigates away, before a locator (or the response body) could be read.
    const served = await (await fetch(new URL("/sign-in", page.url()))).text();
    expect(served).toMatch(/<input[^>]*type="email"[^>]*autoComplete="username webauthn"/);
    const start = page.waitForRequest("**/api/passkey/auth/start");
    await page.goto("/sign-in");
    // Started in the background on the email step, for any passkey of this site.
    expect((await start).postDataJSON()).toEqual({});
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe(email);
  });

  test("going on with a password cancels the autofill request quietly", async ({ page }) => {
    test.setTimeout(60_000);
    // An authenticator with nothing for this site: the autofill request waits, as for a user who never picks.
    await addVirtualAuthenticator(page);
    const errors: string[] = [];
    page.on("pageerror", (error) => errors.push(error.message));
    const start = page.waitForRequest("**/api/passkey/auth/start");
    await page.goto("/sign-in");
    await page.locator("[data-sign-in][data-enhanced]").waitFor({ state: "attached" });
    await start;
    await page.getByLabel("Email").fill("viewer@example.com");
    await page.getByRole("button", { name: "Continue" }).click();
    await page.getByLabel("Password", { exact: true }).fill("radios-demo-2025");
    await expect(page.getByRole("alert")).toHaveCount(0);
    await page.getByRole("button", { name: "Sign in", exact: true }).click();
    await expect(page).not.toHaveURL(/\/sign-in/);
    expect(await signedInAs(page)).toBe("viewer@example.com");
    expect(errors).toEqual([]);
  });
});

/** A second browser, without JavaScript, signed in as `email` through the plain forms. */
async function withoutJavaScript(browser: Browser, email: string): Promise<Page> {
  const context = await browser.newContext({ javaScriptEnabled: false });
  const page = await context.newPage();
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
  return page;
}

test.describe("without JavaScript", () => {
  test("the list renames and removes with plain forms, and says adding needs JavaScript", async ({ page, browser }) => {
    test.setTimeout(90_000);
    await addVirtualAuthenticator(page);
    const email = await userWithPasskey(page, "Phone");

    const plain = await withoutJavaScript(browser, email);
    await plain.goto("/security");
    const section = plain.getByRole("region", { name: "Passkeys" });
    // Playwright's text matching skips <noscript> (microsoft/playwright#32542), so its markup is
    // read instead; a browser with scripting off shows it.
    expect(await section.innerHTML()).toMatch(/<noscript>.*Adding a passkey needs JavaScript\..*<\/noscript>/s);
    await expect(section.getByRole("button", { name: "Add a passkey" })).toHaveCount(0);
    const item = section.getByRole("listitem").filter({ hasText: "Phone" });

    // A blank name (spaces get past the browser's own "required" check) is refused by the
    // server on the rename page; a good one is saved.
    await item.getByText("Rename").click();
    await item.getByLabel("Passkey name").fill("   ");
    await item.getByRole("button", { name: "Save name" }).click();
    await expect(plain.getByRole("heading", { name: "Rename passkey" })).toBeVisible();
    await expect(plain.getByText("Enter a name for the passkey.")).toBeVisible();
    await expect(plain.getByLabel("Passkey name")).toHaveAttribute("aria-invalid", "true");
    await plain.getByLabel("Passkey name").fill("Old phone");
    await plain.getByRole("button", { name: "Save name" }).click();
    await expect(plain).toHaveURL(/\/security$/);
    await expect(plain.getByRole("status")).toHaveText("Passkey renamed to “Old phone”.");

    // Removing asks first; Cancel keeps it, confirming removes it.
    await section.getByRole("link", { name: "Remove Old phone" }).click();
    await plain.getByRole("link", { name: "Cancel" }).click();
    await expect(section.getByRole("heading", { name: "Old phone" })).toBeVisible();
    await section.getByRole("link", { name: "Remove Old phone" }).click();
    await plain.getByRole("button", { name: "Remove passkey" }).click();
    await expect(plain.getByRole("status")).toHaveText("Passkey “Old phone” removed.");
    await expect(section.getByText("No passkeys yet.")).toBeVisible();

    // The sign-in page offers no passkey button it could not run.
    await plain.context().clearCookies();
    await plain.goto("/sign-in");
    await expect(plain.getByRole("button", { name: "Sign in with a passkey" })).toHaveCount(0);
    await plain.context().close();
  });
});
