import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "./client-address";

// Issue 14 end to end, with and without JavaScript: a viewer opens Reports from the sidebar of
// an advanced demo account, opens the inventory, groups it by firmware with the GET form, sees
// the chart (an image named by its title) and the table, and downloads the CSV holding the same
// numbers; on an essential account the advanced reports say they need an upgrade.

const DEMO_PASSWORD = "radios-demo-2025";

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "viewer@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

for (const javaScript of [true, false]) {
  test(`open the reports, a report grouped by firmware, and its CSV (${javaScript ? "with" : "without"} JavaScript)`, async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({ javaScriptEnabled: javaScript, baseURL, acceptDownloads: true });
    const page = await context.newPage();
    await signIn(page, baseURL);
    await page.goto("/accounts/acc_metro_bus");
    await page.getByRole("navigation", { name: "Account sections" }).getByRole("link", { name: "Reports" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Reports" })).toBeVisible();
    await expect(page.getByRole("list", { name: "Reports" }).getByRole("listitem")).toHaveCount(8);
    await expect(page.getByText("Needs an upgrade")).toHaveCount(0);

    await page.getByRole("list", { name: "Reports" }).getByRole("link", { name: "Inventory" }).click();
    await expect(page.getByRole("heading", { level: 1, name: "Inventory" })).toBeVisible();
    await page.getByLabel("Group by").selectOption("firmware");
    await page.getByRole("button", { name: "Show" }).click();
    await expect(page).toHaveURL(/\/reports\/inventory\?by=firmware/);
    await expect(page.getByRole("img", { name: /Inventory/ })).toBeVisible();
    const table = page.getByRole("table", { name: "Inventory" });
    const row = table.getByRole("row").filter({ hasText: "2.4.1" });
    await expect(row).toHaveCount(1);
    const count = (await row.getByRole("cell").nth(1).textContent())?.replace(/\D/g, "") ?? "";
    expect(Number(count)).toBeGreaterThan(0);

    const [download] = await Promise.all([
      page.waitForEvent("download"),
      page.getByRole("link", { name: "Download CSV" }).click(),
    ]);
    expect(download.suggestedFilename()).toBe("inventory-firmware.csv");
    const csv = (await readFile((await download.path()) ?? "", "utf8")).replace(/^\uFEFF/, "");
    expect(csv.split("\r\n")[0]).toBe("Firmware,Radios,Share (%)");
    expect(csv).toContain(`2.4.1,${count},`);
    await context.close();
  });
}

test("an essential account lists every report and explains the ones that need an upgrade", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  await page.goto("/accounts/acc_metro_rail/reports");
  await expect(page.getByRole("list", { name: "Reports" }).getByRole("listitem")).toHaveCount(8);
  await expect(page.getByText("Needs an upgrade")).toHaveCount(5);
  await page.getByRole("list", { name: "Reports" }).getByRole("link", { name: "Firmware" }).click();
  await expect(page.getByText(/This report is part of the advanced level/)).toBeVisible();
  await page.goto("/accounts/acc_metro_rail/reports/last-seen");
  await expect(page.getByRole("heading", { level: 1, name: "Last seen" })).toBeVisible();
  await expect(page.getByRole("img", { name: /Last seen/ })).toBeVisible();
  await context.close();
});

test("the demo's bus account shows its deployment, its failures, compliance and last seen by site", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  await page.goto("/accounts/acc_metro_bus/reports/deployments");
  const deployments = page.getByRole("table").first();
  await expect(deployments.getByRole("row").filter({ hasText: "#1" })).toHaveCount(1);
  await page.goto("/accounts/acc_metro_bus/reports/deployments?by=reason");
  await expect(page.getByRole("table").first().getByRole("row").filter({ hasText: "flash-write" })).toHaveCount(1);
  await expect(page.getByRole("table").first().getByRole("row").filter({ hasText: "firmware-too-old" })).toHaveCount(1);
  for (const report of ["compliance", "last-seen"]) {
    await page.goto(`/accounts/acc_metro_bus/reports/${report}`);
    await expect(page.getByRole("table").first().getByRole("row").filter({ hasText: "Central Bus Depot" })).toHaveCount(1);
  }
  await context.close();
});
