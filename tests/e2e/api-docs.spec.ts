import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "./client-address";

// The API reference (issue 27) as an integrator meets it, signed out: readable and navigable
// without JavaScript, clean for axe, and never wider than a 320 px phone in any language.

const TAGS = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"];
const GROUPS = [
  "organizations",
  "accounts",
  "sites",
  "locations",
  "profiles",
  "rules",
  "devices",
  "radioGroups",
  "subscriptions",
  "deployments",
  "activityLogs",
  "firmware",
  "commands",
  "commandBatches",
  "reports",
  "archives",
  "notifications",
];

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("an integrator reads how to call the API, follows the contents to a group and finds a procedure's curl", async ({
    page,
    request,
  }) => {
    await page.goto("/docs/api");
    await expect(page.getByRole("heading", { level: 1, name: "API reference" })).toBeVisible();
    const contents = page.getByRole("navigation", { name: "Contents" });
    await contents.getByRole("link", { name: "1. Get a token" }).click();
    await expect(page).toHaveURL(/#tokens$/);
    await expect(page.getByRole("link", { name: "Organization settings → API tokens" })).toHaveAttribute(
      "href",
      "/settings/api-tokens",
    );
    await expect(page.getByText('-H "Authorization: Bearer $TOKEN"').first()).toBeVisible();
    await expect(page.getByText("429 TOO_MANY_REQUESTS", { exact: false }).first()).toBeVisible();

    await contents.getByRole("link", { name: "9. Procedures" }).click();
    await page.getByRole("link", { name: "Deployments", exact: true }).click();
    await expect(page).toHaveURL(/\/docs\/api\/deployments$/);
    await expect(page.getByRole("heading", { level: 1, name: "Deployments" })).toBeVisible();
    await page.getByRole("navigation", { name: "In this group" }).getByRole("link", { name: "deployments.create" }).click();
    const create = page.locator('section[id="deployments.create"]');
    await expect(create.getByText("Start a deployment of the changes, all at once or in phases.")).toBeVisible();
    await expect(create.getByText("create-deployments")).toBeVisible();
    await expect(create.getByText("plan.phases[].share", { exact: true })).toBeVisible();
    await expect(create.locator("pre")).toContainText("-H 'Content-Type: application/json'");

    // The document it links, as an API client loads it.
    await expect(page.getByRole("link", { name: "The OpenAPI 3.1 document (openapi.json)" })).toHaveAttribute(
      "href",
      "/api/openapi.json",
    );
    const document = await request.get("/api/openapi.json");
    expect(document.status()).toBe(200);
    expect(((await document.json()) as { openapi: string }).openapi).toMatch(/^3\.1\./);
  });

  test("the reference speaks the reader's language", async ({ page, context, baseURL }) => {
    await context.addCookies([{ name: "lang", value: "pt-BR", url: baseURL ?? "" }]);
    await page.goto("/docs/api/devices");
    await expect(page.getByRole("heading", { level: 1, name: "Rádios" })).toBeVisible();
    await expect(page.getByText("Registrar ou atualizar rádios a partir de CSV; dryRun valida sem salvar.")).toBeVisible();
  });
});

test("the reference passes axe's WCAG 2.2 AA rules", async ({ page }) => {
  const found: string[] = [];
  for (const url of ["/docs/api", "/docs/api/profiles", "/docs/api/devices"]) {
    await page.goto(url);
    const results = await new AxeBuilder({ page }).withTags(TAGS).analyze();
    for (const violation of results.violations) {
      found.push(
        `${url}: ${violation.id} ${violation.help} → ${violation.nodes.map((node) => node.target.join(" ")).join(", ")}`,
      );
    }
  }
  expect(found).toEqual([]);
});

test("no page of the reference scrolls sideways at 320 px, in any language", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const wide: string[] = [];
  for (const language of ["en", "es-MX", "fr-CA", "pt-BR"]) {
    const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 } });
    await context.addCookies([{ name: "lang", value: language, url: baseURL ?? "" }]);
    const page = await context.newPage();
    // Every group in English; the overview and the longest groups in the others.
    const urls =
      language === "en"
        ? ["/docs/api", ...GROUPS.map((g) => `/docs/api/${g}`)]
        : ["/docs/api", "/docs/api/profiles", "/docs/api/deployments"];
    for (const url of urls) {
      await page.goto(url);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) wide.push(`${language} ${url}: ${width}px`);
    }
    await context.close();
  }
  expect(wide).toEqual([]);
});
