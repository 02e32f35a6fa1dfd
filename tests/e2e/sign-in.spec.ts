import { expect, type Page, test } from "./client-address";

// The sign-in screen as a person uses it, every path with JavaScript on (the page's plain script calls the
// JSON API without reloading) and off (every step is a plain form post). Lockouts are per
// email and last the whole run, so wrong passwords go to fresh unknown addresses, which
// answer exactly like real ones; the demo users only ever get their right password.

const PASSWORD = "radios-demo-2025";
const GENERIC = "We couldn't sign you in. Check your email and password and try again.";
const BAD_CODE = "That code is not right or has expired. Check the latest email or send a new code.";

/** An address no demo user has, new for every call. */
function unknownAddress(label: string): string {
  return `${label}-${Date.now()}-${Math.random().toString(36).slice(2, 8)}@example.com`;
}

/** Waits until the sign-in page's plain script has taken over its form (no React on this page). */
async function hydrated(page: Page) {
  await page.locator("[data-sign-in][data-enhanced]").waitFor({ state: "attached" });
}

/** Opens a page; with JavaScript, waits until the sign-in script has enhanced the form. */
async function open(page: Page, path: string, javaScript: boolean) {
  const response = await page.goto(path);
  if (javaScript) await hydrated(page);
  return response;
}

async function enterEmail(page: Page, email: string) {
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Continue" }).click();
}

async function enterPassword(page: Page, password: string) {
  await page.getByLabel("Password").fill(password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
}

async function expectSignedInAs(page: Page, email: string) {
  const me = await page.request.get("/api/me");
  expect(await me.json()).toMatchObject({ ok: true, user: email });
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toHaveCount(0);
}

/** The newest code mailed to an address, read from the demo mailbox (newest first). */
async function latestCode(page: Page, to: string): Promise<string> {
  const html = await (await page.request.get(`/mailbox?to=${encodeURIComponent(to)}`)).text();
  const code = /<article[\s\S]*?\b(\d{6})\b/.exec(html)?.[1];
  if (!code) throw new Error(`no code mailed to ${to}`);
  return code;
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: javaScript });

    test("owner@example.com signs in with a password and lands on /welcome", async ({ page }) => {
      const documentPosts: string[] = [];
      page.on("request", (request) => {
        if (request.isNavigationRequest() && request.method() === "POST") documentPosts.push(request.url());
      });
      // A hydration mismatch would be logged as an error.
      const consoleErrors: string[] = [];
      page.on("console", (message) => {
        if (message.type() === "error") consoleErrors.push(message.text());
      });
      await open(page, "/sign-in", javaScript);
      await expect(page.getByRole("heading", { name: "Sign in to Configuration Tool" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Sign in with Northwind ID" })).toHaveAttribute(
        "href",
        "/api/auth/signin/northwind",
      );

      await enterEmail(page, "owner@example.com");
      await expect(page.getByText("Signing in as")).toBeVisible();
      await expect(page.getByText("owner@example.com")).toBeVisible();
      await expect(page.getByRole("link", { name: "Forgot password?" })).toHaveAttribute("href", "/forgot-password");
      if (javaScript) await expect(page.getByLabel("Password")).toBeFocused();
      // The default identity provider stays on offer at every step.
      await expect(page.getByRole("link", { name: "Sign in with Northwind ID" })).toBeVisible();

      await enterPassword(page, PASSWORD);
      await expect(page).toHaveURL(/\/welcome$/);
      await expectSignedInAs(page, "owner@example.com");
      if (!javaScript) await expect(page.getByRole("status")).toHaveText("You're signed in.");
      // With JavaScript the steps were JSON calls: the only page loads were GETs.
      expect(documentPosts.length > 0).toBe(!javaScript);
      expect(consoleErrors).toEqual([]);
    });

    test("a wrong password shows the generic message and keeps the email", async ({ page }) => {
      const email = unknownAddress("wrong-password");
      await open(page, "/sign-in", javaScript);
      await enterEmail(page, email);
      await enterPassword(page, "not-the-password");
      await expect(page.getByRole("alert")).toContainText(GENERIC);
      await expect(page.getByText(email)).toBeVisible();
      await expect(page.getByLabel("Password")).toHaveAttribute("aria-invalid", "true");
      // GOV.UK: the error summary takes the focus, with JavaScript and without.
      await expect(page.locator("[data-error-summary]")).toBeFocused();
    });

    test("five wrong passwords block the address", async ({ page }) => {
      await open(page, "/sign-in", javaScript);
      await enterEmail(page, unknownAddress("locked-test"));
      for (let i = 1; i <= 4; i += 1) {
        await enterPassword(page, `wrong-${i}`);
        await expect(page.getByRole("alert")).toContainText(GENERIC);
      }
      await enterPassword(page, "wrong-5");
      await expect(page.getByRole("alert")).toContainText("Too many wrong passwords");
    });

    test("the email and password rules show their messages", async ({ page }) => {
      await open(page, "/sign-in", javaScript);
      await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("alert")).toContainText("Enter your email address.");
      await expect(page.getByLabel("Email")).toHaveAttribute("aria-invalid", "true");

      await page.getByLabel("Email").fill("bad email");
      // After the first submit the rules run on every change; without JavaScript on the next submit.
      if (!javaScript) await page.getByRole("button", { name: "Continue" }).click();
      await expect(page.getByRole("alert")).toContainText("Enter an email address like name@example.com, without spaces.");

      await page.getByLabel("Email").fill("someone@example.com");
      if (javaScript) await expect(page.getByRole("alert")).toHaveCount(0);
      await page.getByRole("button", { name: "Continue" }).click();
      await page.getByRole("button", { name: "Sign in", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText("Enter your password.");
      if (javaScript) {
        await page.getByLabel("Password").fill("x");
        await expect(page.getByRole("alert")).toHaveCount(0);
      }
    });

    test("Change goes back to an empty email step", async ({ page }) => {
      await open(page, "/sign-in", javaScript);
      await enterEmail(page, "someone@example.com");
      await expect(page.getByLabel("Password")).toBeVisible();
      await page.getByRole("button", { name: "Change" }).click();
      await expect(page.getByLabel("Email")).toHaveValue("");
      await expect(page.getByLabel("Password")).toHaveCount(0);
      await expect(page.getByText("Signing in as")).toHaveCount(0);
      if (javaScript) await expect(page.getByLabel("Email")).toBeFocused();
    });

    test("a protected URL shows the sign-in form there, and signing in stays there", async ({ page }) => {
      const response = await open(page, "/welcome", javaScript);
      expect(response?.status()).toBe(401);
      await expect(page.getByRole("heading", { name: "Sign in to Configuration Tool" })).toBeVisible();
      await enterEmail(page, "viewer@example.com");
      await enterPassword(page, PASSWORD);
      await expect(page).toHaveURL(/\/welcome$/);
      await expect(page.getByRole("heading", { name: "Sign in to Configuration Tool" })).toHaveCount(0);
      await expectSignedInAs(page, "viewer@example.com");
    });

    test("the messages come in the chosen language", async ({ page }) => {
      await open(page, "/sign-in", false);
      await page.getByLabel("Language: English").click();
      await page.getByRole("button", { name: "español - México" }).click();
      await expect(page.locator("html")).toHaveAttribute("lang", "es-MX");
      if (javaScript) await open(page, page.url(), true);

      await expect(page.getByRole("heading", { name: "Inicia sesión en Configuration Tool" })).toBeVisible();
      await page.getByRole("button", { name: "Continuar" }).click();
      await expect(page.getByRole("alert")).toContainText("Escribe tu correo electrónico.");
      await page.getByLabel("Correo electrónico").fill(unknownAddress("spanish"));
      await page.getByRole("button", { name: "Continuar" }).click();
      await page.getByLabel("Contraseña").fill("no-es-la-contraseña");
      await page.getByRole("button", { name: "Iniciar sesión", exact: true }).click();
      await expect(page.getByRole("alert")).toContainText(
        "No pudimos iniciar tu sesión. Revisa tu correo y tu contraseña e inténtalo de nuevo.",
      );
      await expect(page.getByRole("link", { name: "¿Olvidaste tu contraseña?" })).toBeVisible();
    });
  });
}

test.describe("with JavaScript only", () => {
  test("buttons show the pending state while a step's call runs", async ({ page }) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/api/sign-in", async (route) => {
      await gate;
      await route.continue();
    });
    await open(page, "/sign-in", true);
    await enterEmail(page, "someone@example.com");
    await expect(page.getByRole("button", { name: "Continue" })).toHaveAttribute("aria-busy", "true");
    release();
    await expect(page.getByLabel("Password")).toBeFocused();
  });

  test("an email typed before the script ran is kept and used", async ({ page }) => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => {
      release = resolve;
    });
    await page.route("**/assets/sign-in-*.js", async (route) => {
      await gate;
      await route.continue();
    });
    const documentPosts: string[] = [];
    page.on("request", (request) => {
      if (request.isNavigationRequest() && request.method() === "POST") documentPosts.push(request.url());
    });
    // Not until "load": the page's module script (held back here) runs before that event.
    await page.goto("/sign-in", { waitUntil: "commit" });
    await page.getByLabel("Email").fill("someone@example.com");
    release();
    await hydrated(page);
    await expect(page.getByLabel("Email")).toHaveValue("someone@example.com");
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByText("someone@example.com")).toBeVisible();
    await expect(page.getByLabel("Password")).toBeFocused();
    expect(documentPosts).toEqual([]);
  });

  test("an identity provider's button says 'Redirecting…' once clicked", async ({ page }) => {
    // The endpoint comes in a later issue; a 204 answer leaves the page as the click left it.
    await page.route("**/api/auth/signin/**", (route) => route.fulfill({ status: 204 }));
    await open(page, "/sign-in", true);
    await page.getByRole("link", { name: "Sign in with Northwind ID" }).click();
    await expect(page.getByRole("link", { name: "Redirecting…" })).toHaveAttribute("href", "/api/auth/signin/northwind");
  });
});

// One code at a time: both runs read the newest mail to the same demo user.
test.describe("two-factor by email code", () => {
  test.describe.configure({ mode: "serial" });

  for (const javaScript of [true, false]) {
    test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
      test.use({ javaScriptEnabled: javaScript });

      test("twofactor@example.com signs in with the code from the mailbox", async ({ page }) => {
        await open(page, "/sign-in", javaScript);
        await enterEmail(page, "twofactor@example.com");
        await enterPassword(page, PASSWORD);
        await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeVisible();
        if (javaScript) await expect(page.getByRole("heading", { name: "Two-step sign-in" })).toBeFocused();
        // Not signed in yet.
        expect(await (await page.request.get("/api/me")).json()).toEqual({ ok: false });

        await page.getByRole("button", { name: "Send code" }).click();
        const codeField = page.getByLabel("Sign-in code");
        await expect(codeField).toBeVisible();
        await expect(codeField).toHaveAttribute("autocomplete", "one-time-code");
        await expect(codeField).toHaveAttribute("inputmode", "numeric");
        if (javaScript) await expect(codeField).toBeFocused();
        const code = await latestCode(page, "twofactor@example.com");

        await codeField.fill(code === "000000" ? "111111" : "000000");
        await page.getByRole("button", { name: "Verify" }).click();
        await expect(page.getByRole("alert")).toContainText(BAD_CODE);

        await page.getByLabel("Sign-in code").fill(code);
        await page.getByRole("button", { name: "Verify" }).click();
        await expect(page).toHaveURL(/\/welcome$/);
        await expectSignedInAs(page, "twofactor@example.com");
      });
    });
  }

  test("a network failure while sending the code shows a browser alert", async ({ page }) => {
    await open(page, "/sign-in", true);
    await enterEmail(page, "twofactor@example.com");
    await enterPassword(page, PASSWORD);
    await page.route("**/api/auth/2fa/email/send", (route) => route.abort("internetdisconnected"));
    const alerts: string[] = [];
    page.on("dialog", async (dialog) => {
      alerts.push(`${dialog.type()}: ${dialog.message()}`);
      await dialog.accept();
    });
    await page.getByRole("button", { name: "Send code" }).click();
    await expect.poll(() => alerts).toEqual(["alert: We couldn't reach the server. Check your connection and try again."]);
    // Still at the same step, ready to try again.
    await expect(page.getByRole("button", { name: "Send code" })).toBeVisible();
  });
});
