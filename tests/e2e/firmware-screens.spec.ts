import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";

// Firmware on the screens (issue 26) in a browser: the firmware report's "update these radios"
// opens the firmware confirm page with that version as the target (without JavaScript, too),
// and the screens that show firmware read at 320 px in two languages without an axe violation.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "/accounts/acc_metro_bus";
const PHONE = { width: 320, height: 640 };

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "configurator@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

test("the firmware report's 'update these radios' opens a firmware deployment of that version (no JavaScript)", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, baseURL);
  await page.goto(`${ACCOUNT}/reports/firmware`);
  const update = page.getByRole("link", { name: /^Update these radios/ }).first();
  const version = await update.getAttribute("data-update-firmware");
  expect(version).toBeTruthy();
  await update.click();
  await expect(page).toHaveURL(new RegExp(`/confirm-deployment\\?kind=firmware&firmware=${version?.replaceAll(".", "\\.")}$`));
  await expect(page.getByRole("heading", { level: 1, name: "New firmware deployment" })).toBeVisible();
  await expect(page.getByLabel("Firmware (optional)")).toHaveValue(version ?? "");
  await expect(page.getByRole("group", { name: "Firmware to install" })).toBeVisible();
  await context.close();
});

test("the firmware screens read at 320 px, in English and French, without an axe violation", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL, viewport: PHONE });
  const page = await context.newPage();
  await signIn(page, baseURL);
  await page.goto(`${ACCOUNT}/registry/devices`);
  const radio = (await page.locator("tbody tr a[href*='/devices/view/']").first().getAttribute("href")) ?? "";
  expect(radio).toContain("/devices/view/");
  const paths = [`${ACCOUNT}/reports/firmware`, `${ACCOUNT}/confirm-deployment?kind=firmware`, `${ACCOUNT}/deployments`, radio];
  for (const language of ["en", "fr-CA"]) {
    await context.addCookies([{ name: "lang", value: language, url: baseURL ?? "" }]);
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBe(200);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      expect(width, `${path} (${language})`).toBeLessThanOrEqual(PHONE.width);
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(results.violations.map((v) => `${path} (${language}): ${v.id}`)).toEqual([]);
    }
  }
  await expect(page.getByRole("heading", { name: "Micrologiciel", exact: true })).toBeVisible();
  await context.clearCookies({ name: "lang" });
  await context.close();
});

test("a package uploaded in parts is rolled out from the confirm page: fit counted, deployment shown with its stages (no JavaScript)", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const origin = baseURL ?? "";
  // A package of the demo's bus radios (model XR-9), uploaded through the API as the upload page does.
  const version = `9.${Date.now() % 100000}`;
  const created = await page.request.post("/api/firmware.create", {
    data: { accountId: "acc_metro_bus", version, models: ["XR-9"], notes: "e2e", size: 1024 },
    headers: { Origin: origin },
  });
  const packageId = ((await created.json()) as { result: { data: { id: string } } }).result.data.id;
  const part = await page.request.put(`/api/firmware/${packageId}/parts/1`, {
    data: Buffer.alloc(1024, 7),
    headers: { Origin: origin, "Content-Type": "application/octet-stream" },
  });
  expect(part.ok()).toBe(true);
  const completed = await page.request.post("/api/firmware.complete", {
    data: { id: packageId, accountId: "acc_metro_bus" },
    headers: { Origin: origin },
  });
  expect(completed.ok()).toBe(true);

  await page.goto(`${ACCOUNT}/deployments`);
  await page.getByRole("link", { name: "New firmware deployment" }).click();
  await page.getByLabel("Package").selectOption(packageId);
  await page.getByRole("button", { name: "Count the radios this package fits" }).click();
  await expect(page.getByText(/Radios in this target: [\d,]+; the package fits [\d,]+ of them\./)).toBeVisible();
  await expect(page.getByText(/^Phase 1: [\d,]+ radios?$/)).toBeVisible();
  await page.getByRole("button", { name: "Confirm and update" }).click();
  await expect(page).toHaveURL(new RegExp(`${ACCOUNT}/deployments/[^/?]+$`));
  await expect(page.getByRole("link", { name: `Firmware ${version}` })).toHaveAttribute(
    "href",
    `${ACCOUNT}/registry/firmware/view/${packageId}`,
  );
  await expect(page.getByRole("heading", { name: "Radios by firmware stage" })).toBeVisible();
  await expect(page.getByRole("rowheader", { name: "Booted the old firmware" })).toBeVisible();
  // Leave the demo fleet as it was: cancel it (or, waiting for approval, reject it).
  const cancel = page.getByRole("button", { name: "Cancel deployment" });
  if (await cancel.count()) await cancel.click();
  await context.close();
});
