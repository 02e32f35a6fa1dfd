import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { expect, type Page, test } from "./client-address";
import { invitationLink } from "./invitations";

// Password reset and invitations as a person meets them, with and without JavaScript: the
// mail is read on the demo's /mailbox, and invitations are an owner's (users.invite); one test
// runs the demo script scripts/invite.mjs against this test server's own local database.
// Every test makes its own users, so no other spec's demo user changes password.

const PASSWORD = "harbor-radios-on-channel-9";
const NEW_PASSWORD = "a-brand-new-passphrase-42";

function uniqueEmail(prefix: string): string {
  return `${prefix}.${randomUUID().slice(0, 8)}@example.com`;
}

/** Runs the demo invite script on the test server's database; returns the accept link it prints. */
function inviteByScript(email: string, role = "viewer"): string {
  const server = test.info().config.webServer;
  const output = execFileSync(process.execPath, ["scripts/invite.mjs", "--email", email, "--role", role], {
    env: { ...process.env, PERSIST_TO: server?.env?.PERSIST_TO, PORT: server?.env?.PORT },
    encoding: "utf8",
  });
  const link = output.trim().split("\n").at(-1) ?? "";
  expect(link).toMatch(/^http:\/\/localhost:\d+\/accept\/[A-Za-z0-9_-]{43}$/);
  return link;
}

async function signedInAs(page: Page): Promise<string | null> {
  const me = (await (await page.request.get("/api/me")).json()) as { ok: boolean; user?: string };
  return me.ok ? (me.user ?? null) : null;
}

/** Fills and posts the invitation form. */
async function acceptInvitation(page: Page, link: string, name: string) {
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
  await page.getByLabel("Confirm password").fill(PASSWORD);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
}

/** Signs in through the sign-in screen: email, then password. */
async function signIn(page: Page, email: string, password: string) {
  await page.goto("/sign-in");
  await page.getByLabel("Email", { exact: true }).fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page).not.toHaveURL(/\/sign-in/);
}

/** The newest mail to an address with this subject, once it has arrived (it is sent after the answer). */
async function openNewestMail(page: Page, to: string, subject: string) {
  await expect(async () => {
    await page.goto(`/mailbox?to=${encodeURIComponent(to)}`);
    await expect(page.getByRole("article").first().getByRole("heading")).toHaveText(subject, { timeout: 1000 });
  }).toPass({ timeout: 10_000 });
  return page.getByRole("article").first();
}

/** A form's flash on the page it led to: a toast with JavaScript, a status message without. */
async function expectFlash(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) await expect(page.getByRole("region", { name: /^Notifications/ }).getByText(text)).toBeVisible();
  else await expect(page.getByRole("status")).toHaveText(text);
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("a forgotten password is replaced through the mailed link, once", async ({ page, context, baseURL }) => {
      test.setTimeout(90_000);
      const email = uniqueEmail("forgetful");
      await acceptInvitation(page, await invitationLink(String(baseURL), email, "technician"), "Frida Forgetful");
      await context.clearCookies();

      await page.goto("/forgot-password");
      await expect(page.getByRole("heading", { name: "Forgot password" })).toBeVisible();
      // An address that is not one is refused before anything is sent.
      await page.getByLabel("Email address").fill("not an address");
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(
        page.getByRole("alert").getByRole("link", { name: "Enter an email address like name@example.com, without spaces." }),
      ).toBeVisible();
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page).toHaveURL(/\/confirm-reset-code-sent$/);
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
      await expect(page.getByRole("main").getByRole("link", { name: "Back to sign in" })).toHaveAttribute("href", "/sign-in");

      const mail = await openNewestMail(page, email, "Reset your Configuration Tool password");
      await mail.getByRole("link", { name: /\/reset-password\// }).click();
      await expect(page.getByRole("heading", { name: "Reset password" })).toBeVisible();
      const resetUrl = page.url();

      // Refused: a confirmation that differs, then a password everybody guesses.
      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm new password").fill(`${NEW_PASSWORD}?`);
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page.locator("[data-error-summary]").getByText("The passwords do not match.")).toBeVisible();
      await page.getByLabel("New password", { exact: true }).fill("password123");
      await page.getByLabel("Confirm new password").fill("password123");
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(
        page.locator("[data-error-summary]").getByText("This password is too common. Choose one that is harder to guess."),
      ).toBeVisible();
      await expect(page.getByLabel("New password", { exact: true })).toHaveAttribute("aria-invalid", "true");

      await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
      await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
      await page.getByRole("button", { name: "Change password" }).click();
      await expect(page).toHaveURL(/\/confirm-password-reset$/);
      await expect(page.getByText("Your password has been changed.")).toBeVisible();

      await page.getByRole("link", { name: "Sign in with your new password" }).click();
      await expect(page).toHaveURL(/\/sign-in$/);
      await signIn(page, email, NEW_PASSWORD);
      expect(await signedInAs(page)).toBe(email);

      // The link was single use: it now says so and offers a new one, never the form.
      await page.goto(resetUrl);
      await expect(page.getByText("This reset link no longer works.")).toBeVisible();
      await expect(page.getByRole("link", { name: "Request a new link" })).toHaveAttribute("href", "/forgot-password");
      await expect(page.getByLabel("New password", { exact: true })).toHaveCount(0);
    });

    test("an unknown address gets the same answer and no mail", async ({ page }) => {
      const email = uniqueEmail("nobody");
      await page.goto("/forgot-password");
      await page.getByLabel("Email address").fill(email);
      await page.getByRole("button", { name: "Send reset link" }).click();
      await expect(page).toHaveURL(/\/confirm-reset-code-sent$/);
      await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
      await page.goto(`/mailbox?to=${encodeURIComponent(email)}`);
      await expect(page.getByText("No mail yet.")).toBeVisible();
    });

    test("an invitation is accepted once and signs the person in", async ({ page, baseURL }) => {
      test.setTimeout(90_000);
      const email = uniqueEmail("new.person");
      const link = await invitationLink(String(baseURL), email, "viewer");

      // The same invitation is in the mailbox, with the same link.
      const mail = await openNewestMail(page, email, "You're invited to join Harbor Communications");
      await expect(mail.getByRole("link", { name: link })).toBeVisible();

      await page.goto(link);
      await expect(page.getByRole("heading", { name: "Accept invitation" })).toBeVisible();
      await expect(page.getByText("You've been invited to join Harbor Communications.")).toBeVisible();
      await expect(page.getByLabel("Email address")).toHaveValue(email);

      // Nothing typed: every field says what it needs.
      await page.getByRole("button", { name: "Accept invitation" }).click();
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter your name." })).toBeVisible();
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter your password." })).toBeVisible();
      await expect(page.getByLabel("Your name")).toHaveAttribute("aria-invalid", "true");

      await page.getByLabel("Your name").fill("Nora Newcomer");
      await page.getByLabel("Password", { exact: true }).fill(PASSWORD);
      await page.getByLabel("Confirm password").fill(PASSWORD);
      await page.getByRole("button", { name: "Accept invitation" }).click();
      await expect(page).toHaveURL(/\/welcome$/);
      await expectFlash(page, javaScriptEnabled, "Your account at Harbor Communications is ready. Welcome!");
      expect(await signedInAs(page)).toBe(email);
      const me = (await (await page.request.get("/api/me")).json()) as { orgId: string; permissions: Record<string, boolean> };
      expect(me.orgId).toBe("org_harbor");
      expect(me.permissions["edit-users"]).toBe(false);

      await page.goto(link);
      await expect(page.getByText("This invitation has already been accepted.")).toBeVisible();
      await expect(page.getByLabel("Your name")).toHaveCount(0);
    });
  });
}

test("an invitation to an address that has an account points to sign-in instead", async ({ page }) => {
  test.setTimeout(90_000);
  await page.goto(inviteByScript("outsider@example.net", "viewer"));
  await expect(page.getByText("An account already exists for this email address.")).toBeVisible();
  await expect(page.getByRole("main").getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/sign-in");
  await expect(page.getByLabel("Your name")).toHaveCount(0);
});

test("an unknown invitation or reset link says so", async ({ page }) => {
  await page.goto("/accept/no-such-invitation");
  await expect(page.getByText("We can't find this invitation.")).toBeVisible();
  await page.goto("/reset-password/no-such-code");
  await expect(page.getByText("This reset link no longer works.")).toBeVisible();
  await expect(page.getByRole("link", { name: "Request a new link" })).toBeVisible();
});
