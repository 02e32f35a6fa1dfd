import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";

// One truth about each radio (issue 23): a count on the account home is a link to the radios it
// counts, with and without JavaScript; the filtered inventory lists that many, each in that state,
// and its strip says the same number.

const DEMO_PASSWORD = "radios-demo-2025";

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "viewer@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

for (const javaScript of [true, false]) {
  test(`a count on the home opens the inventory filtered to that many radios (${javaScript ? "with" : "without"} JavaScript)`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, baseURL });
    const page = await context.newPage();
    await signIn(page, baseURL);
    await page.goto("/accounts/acc_metro_bus");
    const failed = page.getByRole("region", { name: "Configuration (sync)" }).getByRole("link", { name: /^Failed: \d+$/ });
    const count = Number((await failed.getAttribute("aria-label"))?.replace(/\D/g, ""));
    // The demo's bus fleet has radios that failed its deployment (fewer than a page of them).
    expect(count).toBeGreaterThan(0);
    expect(count).toBeLessThanOrEqual(50);
    await failed.click();
    await expect(page).toHaveURL(/\/accounts\/acc_metro_bus\/registry\/devices\?sync=failed$/);
    await expect(page.getByLabel("Configuration (sync)")).toHaveValue("failed");
    const rows = page.getByRole("table", { name: "Radios of this account" }).locator("tbody tr");
    await expect(rows).toHaveCount(count);
    await expect(rows.getByRole("cell", { name: "Failed", exact: true })).toHaveCount(count);
    await expect(page.locator('[data-count="failed"]')).toContainText(String(count));
    await context.close();
  });
}

test("the screens that show the states pass axe's WCAG 2.2 AA rules", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  await page.goto("/accounts/acc_metro_bus/registry/devices?sync=failed");
  const radio = await page
    .getByRole("table", { name: "Radios of this account" })
    .locator("tbody tr a")
    .first()
    .getAttribute("href");
  const found: string[] = [];
  for (const url of [
    "/accounts/acc_metro_bus",
    "/accounts/acc_metro_bus/registry/devices?sync=failed&contact=recent",
    "/devices?account=acc_metro_bus",
    radio ?? "",
    "/accounts/acc_metro_bus/reports/compliance",
  ]) {
    await page.goto(url);
    await page.waitForLoadState("networkidle");
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
    for (const violation of results.violations)
      found.push(`${url}: ${violation.id} ${violation.help} → ${violation.nodes.map((n) => n.target.join(" ")).slice(0, 3)}`);
  }
  expect(found).toEqual([]);
  await context.close();
});
