import { randomUUID } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";
import { contextsFor, languages } from "./route-visits";

// API tokens as an owner meets them (issue 27), with JavaScript on and off: a token made on
// /settings/api-tokens/add, its secret shown once, a script calling with it (the list then shows
// that use), the token revoked from its page and refused at once.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_demo";

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "owner@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

for (const javaScriptEnabled of [true, false]) {
  test.describe(`with JavaScript ${javaScriptEnabled ? "on" : "off"}`, () => {
    test.use({ javaScriptEnabled });

    test("an owner makes a token limited to one account, a script uses it, the owner revokes it", async ({
      page,
      baseURL,
      playwright,
      context,
    }) => {
      if (javaScriptEnabled) await context.grantPermissions(["clipboard-read", "clipboard-write"]);
      await signIn(page, baseURL);
      const name = `ERP sync ${randomUUID().slice(0, 8)}`;
      await page.goto("/settings/api-tokens");
      await expect(page.getByRole("heading", { level: 1, name: "API tokens" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Read the API reference" })).toHaveAttribute("href", "/docs/api");
      await page.getByRole("link", { name: "Create API token" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Create API token" })).toBeVisible();

      // A blank name (spaces pass the browser's own check): the form again, the error on its field.
      await page.getByLabel("Name").fill("   ");
      await page.getByRole("button", { name: "Create token" }).click();
      await expect(page.getByText("Enter the token’s name.").first()).toBeVisible();

      await page.getByLabel("Name").fill(name);
      await page.getByLabel("Role").selectOption({ label: "Viewer" });
      await page.getByLabel("Only the accounts ticked below").check();
      await page.getByLabel("Harbor Demo Fleet").check();
      await page.getByLabel("Expires after").selectOption({ label: "30 days" });
      await page.getByRole("button", { name: "Create token" }).click();

      await expect(page.getByRole("heading", { level: 1, name: "Your new API token" })).toBeVisible();
      await expect(page.getByText("it is not shown again")).toBeVisible();
      const secret = await page.getByLabel("Token", { exact: true }).inputValue();
      expect(secret).toMatch(/^ctk_[A-Za-z0-9_-]{43}$/);
      const copy = page.getByRole("button", { name: "Copy" });
      if (javaScriptEnabled) {
        await copy.click();
        await expect(page.getByText("Copied to the clipboard.")).toBeVisible();
      } else {
        await expect(copy).toBeHidden();
      }

      // A script of the owner's ERP, without cookies: its account's sites, and nothing of another account.
      const script = await playwright.request.newContext({
        baseURL,
        extraHTTPHeaders: { Authorization: `Bearer ${secret}`, "CF-Connecting-IP": "203.0.113.27" },
      });
      const sites = await script.get(`/api/sites.list?input=${encodeURIComponent(JSON.stringify({ accountId: ACCOUNT }))}`);
      expect(sites.status()).toBe(200);
      const other = await script.get(
        `/api/sites.list?input=${encodeURIComponent(JSON.stringify({ accountId: "acc_harbor_depot" }))}`,
      );
      expect(other.status()).toBe(404);

      // The list shows the token, never its secret, and where it was last used.
      await page.getByRole("link", { name: "Back to API tokens" }).click();
      const row = page.getByRole("row").filter({ hasText: name });
      await expect(row).toContainText("Harbor Demo Fleet");
      await expect(row).toContainText("203.0.113.27");
      await expect(row).toContainText("Active");
      await expect(page.getByText(secret)).toHaveCount(0);

      // Revoked from its page: refused on the next call.
      await row.getByRole("link", { name: `Revoke ${name}` }).click();
      await expect(page.getByText(`Revoke the API token “${name}”?`)).toBeVisible();
      await page.getByRole("button", { name: "Revoke token" }).click();
      await expect(page).toHaveURL(/\/settings\/api-tokens$/);
      await expect(page.getByRole("row").filter({ hasText: name })).toContainText("Revoked");
      const refused = await script.get(`/api/sites.list?input=${encodeURIComponent(JSON.stringify({ accountId: ACCOUNT }))}`);
      expect(refused.status()).toBe(401);
      expect(refused.headers()["www-authenticate"]).toMatch(/^Bearer/);
      await script.dispose();
    });
  });
}

test("the token screens fit 320 px in four languages, pass axe, and are made by keyboard", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const origin = baseURL ?? "";
  const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
  const problems: string[] = [];
  for (const language of languages) {
    const contexts = await contextsFor(browser, { baseURL: origin, language, viewport: { width: 320, height: 640 } });
    try {
      const page = await contexts.signedIn.newPage();
      const check = async (what: string) => {
        const width = await page.evaluate(() => document.documentElement.scrollWidth);
        if (width > 320) problems.push(`${language} ${what}: ${width}px wide`);
        const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
        for (const violation of results.violations) problems.push(`${language} ${what}: ${violation.id} ${violation.help}`);
      };
      // Made by keyboard alone: Tab from the page's start to the name, type it, Enter sends.
      await page.goto("/settings/api-tokens/add");
      await check("add");
      for (let i = 0; i < 60 && !(await page.locator("#field-name").evaluate((el) => el === document.activeElement)); i++) {
        await page.keyboard.press("Tab");
      }
      await page.keyboard.type(`Keys ${language} ${randomUUID().slice(0, 6)}`);
      await page.keyboard.press("Tab");
      await expect(page.locator("#field-role")).toBeFocused();
      // Enter in a text field sends its form (the defaults: viewer, every account, 90 days).
      await page.keyboard.press("Shift+Tab");
      await page.keyboard.press("Enter");
      await expect(page.locator("[data-token-secret]")).toHaveValue(/^ctk_/);
      await check("new token");
      await page.goto("/settings/api-tokens");
      await check("list");
      const revoke = page.locator('a[href^="/settings/api-tokens/revoke/"]').first();
      await page.goto((await revoke.getAttribute("href")) ?? "");
      await check("revoke");
    } finally {
      await contexts.close();
    }
  }
  expect(problems).toEqual([]);
});
