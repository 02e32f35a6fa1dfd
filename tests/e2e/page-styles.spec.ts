import { expect, type Page, test } from "./client-address";
import { contextsFor, parts, sharedIds, visitsOf } from "./route-visits";

// Issue 10 §3: each page inlines only the CSS its own markup and scripts can use
// (tooling/page-styles). A rule left out of a page's sheet shows as a class in the page's DOM
// that no rule names. Every route of the route table is opened with JavaScript on (islands
// hydrated, the shell's scripts run), plus the screens and states that add classes later: a
// toast, the profile and mobile menus, the switcher's search, an island's validation messages,
// a refused form without JavaScript, the error and not-found screens, the SSO problem page.

/**
 * Classes the markup carries on purpose with no rule of ours: hooks for scripts and tests, and
 * sonner's own (styled by its attributes, in its own sheet). Anything else without a rule is a
 * rule the page's sheet left out.
 */
const NO_RULE_BY_DESIGN = new Set<string>([]);

type Found = { missing: string[]; inlineBytes: number };

/** The classes in the DOM that no rule of the page's stylesheets names, and the inline sheet's size. */
async function classesWithoutRules(page: Page): Promise<Found> {
  const found = await page.evaluate(() => {
    // A selector's class names, CSS escapes undone (`.sm\:p-4`, `.w-1\/2`, `.\32 xl\:…`).
    const unescapeCss = (name: string) =>
      name.replace(/\\([0-9a-fA-F]{1,6}\s?|[^0-9a-fA-F])/g, (_, escaped: string) =>
        /^[0-9a-fA-F]/.test(escaped) ? String.fromCodePoint(Number.parseInt(escaped.trim(), 16)) : escaped,
      );
    const named = new Set<string>();
    const visit = (rules: CSSRuleList) => {
      for (const rule of rules) {
        if (rule instanceof CSSStyleRule) {
          for (const match of rule.selectorText.matchAll(/\.((?:\\[0-9a-fA-F]{1,6}\s?|\\[^0-9a-fA-F]|[\w-])+)/g)) {
            if (match[1]) named.add(unescapeCss(match[1]));
          }
        }
        if ("cssRules" in rule) visit((rule as CSSGroupingRule).cssRules);
      }
    };
    for (const sheet of document.styleSheets) visit(sheet.cssRules);
    const missing = new Set<string>();
    for (const element of document.querySelectorAll("[class]")) {
      for (const name of element.classList) if (!named.has(name)) missing.add(name);
    }
    return { missing: [...missing], inlineBytes: document.querySelector("head > style")?.textContent?.length ?? 0 };
  });
  return { ...found, missing: found.missing.filter((name) => !NO_RULE_BY_DESIGN.has(name)).sort() };
}

async function expectEveryClassStyled(page: Page, what: string) {
  const { missing, inlineBytes } = await classesWithoutRules(page);
  expect(inlineBytes, `${what}: an inline stylesheet`).toBeGreaterThan(1000);
  expect(missing, `${what}: classes with no rule in the page's CSS`).toEqual([]);
}

for (const part of parts(2)) {
  test(`every route's inline CSS styles every class of its page (${part.name})`, async ({ browser, baseURL }) => {
    test.setTimeout(240_000);
    const origin = baseURL ?? "";
    const contexts = await contextsFor(browser, { baseURL: origin, language: "en" });
    try {
      const ids = await sharedIds(contexts.signedIn, origin);
      const pages = { signedIn: await contexts.signedIn.newPage(), signedOut: await contexts.signedOut.newPage() };
      const problems: string[] = [];
      for (const { url, visit } of visitsOf(contexts, ids, part)) {
        const page = visit.signedOut ? pages.signedOut : pages.signedIn;
        const response = await page.goto(url);
        expect(response?.status(), url).toBeLessThan(500);
        // CSV downloads and redirects to them have no document of ours.
        if (!(response?.headers()["content-type"] ?? "").startsWith("text/html")) continue;
        await page.waitForLoadState("networkidle");
        const { missing, inlineBytes } = await classesWithoutRules(page);
        if (inlineBytes < 1000) problems.push(`${url}: no inline stylesheet`);
        if (missing.length > 0) problems.push(`${url}: ${missing.join(" ")}`);
      }
      expect(problems, "pages with classes that no rule of their CSS names").toEqual([]);
    } finally {
      await contexts.close();
    }
  });
}

test.describe("states that add classes after the page loads", () => {
  test.beforeEach(async ({ page, baseURL }) => {
    const response = await page.request.post("/api/sign-in", {
      data: { username: "owner@example.com", password: "radios-demo-2025" },
      headers: { Origin: baseURL ?? "" },
    });
    expect(await response.json()).toEqual({ ok: true });
  });

  test("a toast, the profile menu and the switcher's search", async ({ page }) => {
    // Changing the language says so in a toast on the page it comes back to.
    await page.goto("/accounts");
    await page
      .getByRole("banner")
      .getByRole("button", { name: /Signed in as/ })
      .click();
    await expect(page.getByRole("menu")).toBeVisible();
    await expectEveryClassStyled(page, "/accounts with the profile menu open");

    await page
      .getByRole("banner")
      .getByRole("button", { name: /Jump to an account/ })
      .click();
    await page.getByRole("combobox", { name: "Search accounts" }).fill("Metro");
    await expect(page.getByRole("listbox", { name: "Matching accounts" }).getByRole("option").first()).toBeVisible();
    await expectEveryClassStyled(page, "/accounts with the switcher's search");

    await page.goto("/welcome");
    const languages = page
      .getByRole("banner")
      .locator("details")
      .filter({ has: page.locator("button[name=language]") })
      .first();
    await languages.locator("summary").click();
    await languages.locator("button[name=language][value='fr-CA']").click();
    await expect(page.locator("[data-sonner-toast]").first()).toBeVisible({ timeout: 20_000 });
    await expectEveryClassStyled(page, "/welcome with a toast");
    // The choice is saved with the shared demo user: give it back its English.
    await page.request.post("/language", {
      form: { language: "en", next: "/" },
      headers: { Origin: new URL(page.url()).origin },
    });
  });

  test("an island's validation messages and the same form refused without JavaScript", async ({ page, browser, baseURL }) => {
    // The browser's own checks step aside, so the empty form reaches the island's and the server's.
    const submitEmpty = async (form: ReturnType<Page["locator"]>) => {
      await form.evaluate((element) => ((element as HTMLFormElement).noValidate = true));
      // The form's own submit, not a helper button such as "Add another profile" (an intent).
      await form.locator("button[type=submit]:not([name=intent])").last().click();
    };
    await page.goto("/accounts/acc_harbor_demo/rules/add");
    // A click before React owns the island is a plain post (a new page): wait until it does.
    await page.waitForFunction(() =>
      [...document.querySelectorAll("[data-island='rule-form']")].some((island) =>
        Object.keys(island).some((key) => key.startsWith("__reactContainer")),
      ),
    );
    await submitEmpty(page.locator("[data-island='rule-form'] form"));
    await expect(page.getByRole("alert").first()).toBeVisible();
    await expectEveryClassStyled(page, "the rule form with its island's messages");

    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL });
    try {
      await noScript.addCookies(await page.context().cookies());
      const plain = await noScript.newPage();
      await plain.goto("/accounts/acc_harbor_demo/rules/add");
      // Without JavaScript the refusal is a new page: wait for the post's answer, then read it.
      const answer = plain.waitForResponse((response) => response.request().method() === "POST");
      await submitEmpty(plain.locator("main form").filter({ has: plain.locator("[name=name]") }));
      expect((await answer).status()).toBe(400);
      await plain.waitForLoadState();
      await expect(plain.getByRole("alert").first()).toBeVisible();
      await expectEveryClassStyled(plain, "the rule form refused without JavaScript");
    } finally {
      await noScript.close();
    }
  });

  test("the error, not-found and single sign-on problem screens", async ({ page }) => {
    expect((await page.goto("/accounts/acc_does_not_exist"))?.status()).toBe(404);
    await expectEveryClassStyled(page, "the error screen");
    expect((await page.goto("/no-such-page"))?.status()).toBe(404);
    await expectEveryClassStyled(page, "the not-found page");
    await page.goto("/api/auth/signin/no-such-provider");
    await expect(page.locator("[data-sso-problem]")).toBeVisible();
    await expectEveryClassStyled(page, "the single sign-on problem page");
    // The mobile menu, opened on a phone-sized screen.
    await page.setViewportSize({ width: 360, height: 700 });
    await page.goto("/accounts");
    const mobile = page
      .locator("header details")
      .filter({ has: page.locator("summary:visible") })
      .last();
    await mobile.locator("summary").click();
    await expectEveryClassStyled(page, "/accounts with the mobile menu open");
  });
});
