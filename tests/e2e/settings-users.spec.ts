import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "./client-address";

// Organizations and users in the settings area as an owner meets them, with JavaScript on and
// off: a child organization added and renamed, a person invited (the mail read on /mailbox,
// accepted in a fresh browser) who then shows in the list, a role changed, a user disabled
// whose open session ends. Every test makes its own organizations and users; the shared demo
// users only sign in.

const DEMO_PASSWORD = "radios-demo-2025";
const NEW_PASSWORD = "lighthouse-channel-16-ok";

function unique(prefix: string): string {
  return `${prefix}-${randomUUID().slice(0, 8)}`;
}

/** Signs in through the plain call (spec §7); page.request shares the browser's cookies. */
async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A form's flash on the page it led to: a toast with JavaScript (the toaster is "<Notifications> alt+T" in any language), a status message without. */
async function expectFlash(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) await expect(page.getByRole("region", { name: /alt\+T/ }).getByText(text)).toBeVisible();
  else await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();
}

/** The newest invitation mail to an address, read on the demo mailbox; its accept link. */
async function invitationLink(page: Page, email: string, organization: string): Promise<string> {
  let href: string | null = null;
  await expect(async () => {
    await page.goto(`/mailbox?to=${encodeURIComponent(email)}`);
    const mail = page.getByRole("article").first();
    await expect(mail.getByRole("heading")).toHaveText(`You're invited to join ${organization}`, { timeout: 1000 });
    href = await mail.getByRole("link", { name: /\/accept\// }).getAttribute("href");
  }).toPass({ timeout: 10_000 });
  if (!href) throw new Error(`no invitation link for ${email}`);
  return href;
}

/** Accepts an invitation in a browser of its own (nobody signed in there); the new user stays signed in in it. */
async function acceptInFreshBrowser(browser: Browser, javaScriptEnabled: boolean, link: string, name: string) {
  const context = await browser.newContext({ javaScriptEnabled });
  const page = await context.newPage();
  await page.goto(link);
  await page.getByLabel("Your name").fill(name);
  await page.getByLabel("Password", { exact: true }).fill(NEW_PASSWORD);
  await page.getByLabel("Confirm password").fill(NEW_PASSWORD);
  await page.getByRole("button", { name: "Accept invitation" }).click();
  await expect(page).toHaveURL(/\/welcome$/);
  return { context, page };
}

/** Fills and sends the invite form. */
async function sendInvitation(page: Page, email: string, role: string, organization = "Harbor Communications") {
  await page.goto("/settings/users/invite");
  await expect(page.getByRole("heading", { level: 1, name: "Invite user" })).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Role", { exact: true }).selectOption({ label: role });
  await page.getByLabel("Organization").selectOption({ label: organization });
  await page.getByRole("button", { name: "Send invitation" }).click();
}

function userRow(page: Page, email: string) {
  return page.getByRole("table", { name: "Users of your organizations" }).getByRole("row").filter({ hasText: email });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an owner adds a child organization under Harbor Communications and renames it", async ({ page, baseURL }) => {
      await signIn(page, baseURL, "owner@example.com");
      const name = unique("Pier Nine Marine");
      await page.goto("/settings/organizations");
      await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Organizations", exact: true })).toHaveAttribute("aria-current", "page");
      await page.getByRole("link", { name: "Add organization" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Add organization" })).toBeVisible();

      // Refused first: no name. With JavaScript the island says so without leaving the page.
      await page.getByLabel("Parent organization").selectOption({ label: "Harbor Communications" });
      await page.getByLabel("Kind").selectOption({ label: "Customer" });
      if (javaScriptEnabled) {
        // The form's island hydrates after the page shows; a click before that is a plain post.
        await page.waitForFunction(() =>
          [...document.querySelectorAll("[data-island]")].some((island) =>
            Object.keys(island).some((key) => key.startsWith("__reactContainer")),
          ),
        );
        await page.evaluate(() => Object.assign(window, { stayedOnPage: true }));
      }
      await page.getByRole("button", { name: "Add organization" }).click();
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter the organization name." })).toBeVisible();
      await expect(page.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
      await expect(page.locator("[data-error-summary]")).toBeFocused();
      if (javaScriptEnabled) {
        expect(await page.evaluate(() => "stayedOnPage" in window)).toBe(true);
      }

      await page.getByLabel("Name").fill(name);
      await page.getByRole("button", { name: "Add organization" }).click();
      await expect(page).toHaveURL(/\/settings\/organizations$/);
      await expectFlash(page, javaScriptEnabled, `${name} was added.`);
      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText("Customer");
      await expect(row).toContainText("Harbor Communications");

      await row.getByRole("link", { name, exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Edit organization" })).toBeVisible();
      await page.getByLabel("Name").fill(`${name} Renamed`);
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page).toHaveURL(/\/settings\/organizations$/);
      await expectFlash(page, javaScriptEnabled, `${name} Renamed was saved.`);
      await expect(page.getByRole("row").filter({ hasText: `${name} Renamed` })).toContainText("Harbor Communications");
    });

    test("an owner invites a person, who accepts from the mailed link and then appears in the list", async ({
      page,
      baseURL,
      browser,
    }) => {
      test.setTimeout(90_000);
      await signIn(page, baseURL, "owner@example.com");
      const email = `${unique("ivy")}@example.com`;

      // An address that already has an account is refused, and what was typed stays.
      await sendInvitation(page, "admin@example.com", "Viewer");
      await expect(
        page
          .locator("[data-error-summary]")
          .getByText("This email address already has an account. That person can sign in with it."),
      ).toBeVisible();
      await expect(page.getByLabel("Email")).toHaveValue("admin@example.com");

      await sendInvitation(page, email, "Technician");
      await expect(page).toHaveURL(/\/settings\/users$/);
      await expectFlash(page, javaScriptEnabled, `An invitation was sent to ${email}.`);
      const invitations = page.getByRole("table", { name: "Open invitations" });
      await expect(invitations.getByRole("row").filter({ hasText: email })).toContainText("Technician");
      const firstLink = await invitationLink(page, email, "Harbor Communications");

      // Resent: a new link, and the first one no longer works.
      await page.goto("/settings/users");
      await invitations.getByRole("button", { name: `Resend the invitation to ${email}` }).click();
      await expectFlash(page, javaScriptEnabled, `A new invitation was sent to ${email}. The earlier link no longer works.`);
      const link = await invitationLink(page, email, "Harbor Communications");
      expect(link).not.toBe(firstLink);
      await page.goto(firstLink);
      await expect(page.getByText("This invitation has been withdrawn.")).toBeVisible();

      const invitee = await acceptInFreshBrowser(browser, javaScriptEnabled, link, "Ivy Invitee");
      await invitee.context.close();

      await page.goto(`/settings/users?search=${encodeURIComponent(email)}`);
      const row = userRow(page, email);
      await expect(row).toContainText("Ivy Invitee");
      await expect(row).toContainText("Technician");
      await expect(row).toContainText("Active");
      await expect(row).toContainText("Harbor Communications");
      await expect(page.getByRole("table", { name: "Open invitations" }).getByText(email)).toHaveCount(0);
    });

    test("an owner changes a user's role, then disables them and their open session ends", async ({ page, baseURL, browser }) => {
      test.setTimeout(90_000);
      await signIn(page, baseURL, "owner@example.com");
      const email = `${unique("dan")}@example.com`;
      await sendInvitation(page, email, "Viewer");
      await expect(page).toHaveURL(/\/settings\/users$/);
      const invitee = await acceptInFreshBrowser(
        browser,
        javaScriptEnabled,
        await invitationLink(page, email, "Harbor Communications"),
        "Dan Disabled",
      );

      await page.goto(`/settings/users?search=${encodeURIComponent(email)}`);
      await userRow(page, email).getByRole("link", { name: "Dan Disabled" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Edit user" })).toBeVisible();
      // An owner may give any role; the form offers exactly those.
      await expect(page.getByLabel("Role", { exact: true }).locator("option")).toHaveText([
        "Owner",
        "Administrator",
        "Configurator",
        "Technician",
        "Viewer",
        "Case agent",
      ]);
      await page.getByLabel("Role", { exact: true }).selectOption({ label: "Configurator" });
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page).toHaveURL(/\/settings\/users$/);
      await expectFlash(page, javaScriptEnabled, "The changes to Dan Disabled were saved.");

      await page.goto(`/settings/users?search=${encodeURIComponent(email)}`);
      await expect(userRow(page, email)).toContainText("Configurator");
      // Their session still works.
      await invitee.page.goto("/welcome");
      await expect(invitee.page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();

      await userRow(page, email).getByRole("link", { name: "Dan Disabled" }).click();
      await expect(page.getByText("Disabling Dan Disabled signs them out at once: all their open sessions end")).toBeVisible();
      await page.getByRole("button", { name: "Disable user" }).click();
      await expect(page).toHaveURL(/\/settings\/users$/);
      await expectFlash(page, javaScriptEnabled, "Dan Disabled was disabled and signed out everywhere.");
      await page.goto(`/settings/users?search=${encodeURIComponent(email)}`);
      await expect(userRow(page, email)).toContainText("Disabled");

      // The open session is gone: the next page they open asks them to sign in.
      const response = await invitee.page.goto("/welcome");
      expect(response?.status()).toBe(401);
      await expect(invitee.page.getByRole("heading", { name: "Sign in to Configuration Tool" })).toBeVisible();
      expect(await (await invitee.page.request.get("/api/me")).json()).toEqual({ ok: false });
      await invitee.context.close();
    });
  });
}

test("nobody changes their own access: the owner's own page explains why and offers no form", async ({ page, baseURL }) => {
  await signIn(page, baseURL, "owner@example.com");
  await page.goto(`/settings/users?search=${encodeURIComponent("owner@example.com")}`);
  await userRow(page, "owner@example.com").getByRole("link", { name: "Olivia Owner" }).click();
  await expect(page.getByText("This is you. You can't change your own role or status")).toBeVisible();
  await expect(page.getByRole("button", { name: "Disable user" })).toHaveCount(0);
  await expect(page.getByLabel("Role", { exact: true })).toHaveCount(0);
});

test("an admin cannot give the owner role", async ({ page, baseURL }) => {
  await signIn(page, baseURL, "admin@example.com");
  await page.goto("/settings/users/invite");
  await expect(page.getByLabel("Role", { exact: true }).locator("option")).toHaveText([
    "Administrator",
    "Configurator",
    "Technician",
    "Viewer",
    "Case agent",
  ]);
});

test.describe("without edit-users", () => {
  for (const javaScriptEnabled of [true, false]) {
    test(`a viewer gets "This route is protected." on /settings/users (JavaScript ${javaScriptEnabled ? "on" : "off"})`, async ({
      browser,
      baseURL,
    }) => {
      const context = await browser.newContext({ javaScriptEnabled });
      const page = await context.newPage();
      await signIn(page, baseURL, "viewer@example.com");
      const response = await page.goto("/settings/users");
      expect(response?.status()).toBe(403);
      await expect(page.getByText("This route is protected.")).toBeVisible();
      // Organizations stay open to them, for reading.
      await page.goto("/settings/organizations");
      await expect(page.getByRole("heading", { level: 1, name: "Organizations" })).toBeVisible();
      await expect(page.getByRole("row").filter({ hasText: "Metro Transit Authority" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Add organization" })).toHaveCount(0);
      await expect(page.getByRole("link", { name: "Users", exact: true })).toHaveCount(0);
      await context.close();
    });
  }
});

test("in Spanish: the users screen, a refused invitation and a revoked one", async ({ page, context, baseURL }) => {
  await context.addCookies([{ name: "lang", value: "es-MX", url: baseURL ?? "" }]);
  await signIn(page, baseURL, "owner@example.com");
  await page.goto("/settings/users");
  await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
  await expect(page.getByRole("heading", { level: 1, name: "Usuarios" })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Invitaciones abiertas" })).toBeVisible();

  await page.getByRole("link", { name: "Invitar usuario" }).click();
  await page.getByLabel("Correo electrónico").fill("no es un correo");
  await page.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(
    page.locator("[data-error-summary]").getByText("Escribe el correo de la persona como nombre@ejemplo.com, sin espacios."),
  ).toBeVisible();

  const email = `${unique("rosa")}@example.com`;
  await page.getByLabel("Correo electrónico").fill(email);
  await page.getByLabel("Rol", { exact: true }).selectOption({ label: "Técnico" });
  await page.getByRole("button", { name: "Enviar invitación" }).click();
  await expect(page).toHaveURL(/\/settings\/users$/);
  await expectFlash(page, true, `Se envió una invitación a ${email}.`);
  const invitations = page.getByRole("table", { name: "Invitaciones abiertas" });
  await expect(invitations.getByRole("row").filter({ hasText: email })).toContainText("Técnico");

  await invitations.getByRole("button", { name: `Revocar la invitación de ${email}` }).click();
  await expectFlash(page, true, `Se revocó la invitación de ${email}.`);
  await expect(invitations.getByText(email)).toHaveCount(0);
});
