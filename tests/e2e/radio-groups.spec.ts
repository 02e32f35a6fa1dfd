import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";

// Saved groups (issue 25) in a browser: a configurator saves "North garage, old firmware" (a
// site and a firmware version) from the inventory, sees its live count linking to the radios it
// holds, edits and deletes it; and the create form works without JavaScript, errors on fields.

const DEMO_PASSWORD = "radios-demo-2025";
const INVENTORY = "/accounts/acc_metro_bus/registry/devices";
const GROUPS = `${INVENTORY}/groups`;

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "configurator@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A run that stopped halfway left its group behind: delete it first, by the page. */
async function deleteIfThere(page: Page, name: string) {
  await page.goto(GROUPS);
  const link = page.getByRole("link", { name, exact: true });
  if ((await link.count()) === 0) return;
  await link.click();
  await page.getByRole("link", { name: "Delete group" }).click();
  await page.getByRole("button", { name: /^Delete group/ }).click();
  await expect(page).toHaveURL(GROUPS);
}

test("a group is saved from the inventory, counted live, edited and deleted (with JavaScript)", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const name = "North garage, old firmware";
  await deleteIfThere(page, name);
  await deleteIfThere(page, "North garage");

  await page.goto(INVENTORY);
  await page.getByRole("link", { name: "Groups", exact: true }).click();
  await expect(page).toHaveURL(GROUPS);
  await page.getByRole("link", { name: "New group" }).first().click();
  await page.getByLabel("Group name").fill(name);
  await page.getByLabel("Site", { exact: true }).selectOption({ label: "North Garage" });
  await page.getByLabel("Firmware").fill("1.8.2");
  await page.getByRole("button", { name: "Create group" }).click();

  await expect(page).toHaveURL(GROUPS);
  await expect(page.getByText(`Group “${name}” created.`).first()).toBeVisible();
  const row = page.getByRole("listitem").filter({ has: page.getByRole("link", { name, exact: true }) });
  await expect(row).toContainText("Site: North Garage · Firmware: 1.8.2");
  const count = row.getByRole("link", { name: /^\d+ \(show in the inventory\)$/ });
  const held = Number((await count.textContent())?.match(/^\d+/)?.[0]);
  expect(held).toBeGreaterThan(0);
  await count.click();
  await expect(page).toHaveURL(`${INVENTORY}?site=site_mta_north&firmware=1.8.2`);
  await expect(page.locator("tbody tr")).toHaveCount(held);

  // Edit: the whole garage, whatever its firmware, holds more radios.
  await page.goto(GROUPS);
  await page.getByRole("link", { name, exact: true }).click();
  await expect(page.getByText(`Radios in this group now: ${held}`)).toBeVisible();
  await page.getByLabel("Group name").fill("North garage");
  await page.getByLabel("Firmware").fill("");
  await page.getByRole("button", { name: "Save group" }).click();
  await expect(page).toHaveURL(GROUPS);
  const edited = page.getByRole("listitem").filter({ has: page.getByRole("link", { name: "North garage", exact: true }) });
  await expect(edited).toContainText("Site: North Garage");
  const all = Number((await edited.getByRole("link", { name: /show in the inventory/ }).textContent())?.match(/^\d+/)?.[0]);
  expect(all).toBeGreaterThan(held);

  await page.getByRole("link", { name: "North garage", exact: true }).click();
  await page.getByRole("link", { name: "Delete group" }).click();
  await expect(page.getByText("Delete the group “North garage”?")).toBeVisible();
  await page.getByRole("button", { name: /^Delete group/ }).click();
  await expect(page).toHaveURL(GROUPS);
  await expect(page.getByText("Group “North garage” deleted.").first()).toBeVisible();
  await expect(page.getByRole("link", { name: "North garage", exact: true })).toHaveCount(0);
  await context.close();
});

test("the create form posts without JavaScript, with errors on their fields", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const name = "Dispatch consoles, plain form";
  await deleteIfThere(page, name);

  await page.goto(`${GROUPS}/new`);
  await page.getByLabel("Site", { exact: true }).selectOption({ label: "Dispatch Center" });
  // Blank but for spaces: the browser lets it through, the server says what to do.
  await page.getByLabel("Group name").fill("   ");
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page.getByLabel("Group name")).toHaveAttribute("aria-invalid", "true");
  await expect(page.getByText("Enter a group name.")).toBeVisible();
  // What was chosen is kept.
  await expect(page.getByLabel("Site", { exact: true })).toHaveValue("site_mta_dispatch");

  await page.getByLabel("Group name").fill(name);
  await page.getByRole("button", { name: "Create group" }).click();
  await expect(page).toHaveURL(GROUPS);
  await expect(page.getByRole("link", { name, exact: true })).toBeVisible();
  await deleteIfThere(page, name);
  await expect(page.getByRole("link", { name, exact: true })).toHaveCount(0);
  await context.close();
});

test("the group screens pass axe and fit a 320 px phone, in every language's longest words too", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const name = "Bus yard radios on a long-named phone check";
  await deleteIfThere(page, name);
  const created = await page.request.post("/api/radioGroups.create", {
    data: { accountId: "acc_metro_bus", name, siteId: "site_mta_central", locationId: "loc_mta_central_yard", tag: "night" },
    headers: { Origin: baseURL ?? "" },
  });
  const group = (await created.json()).result.data as { id: string; version: number };
  for (const language of ["en", "fr-CA", "pt-BR", "es-MX"]) {
    await context.addCookies([{ name: "lang", value: language, url: baseURL ?? "" }]);
    for (const path of [GROUPS, `${GROUPS}/new`, `${GROUPS}/${group.id}`, `${GROUPS}/${group.id}/delete`]) {
      await page.goto(path);
      await page.waitForLoadState("networkidle");
      expect(await page.evaluate(() => document.documentElement.scrollWidth), `${language} ${path}`).toBeLessThanOrEqual(320);
      if (language !== "en") continue;
      const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"]).analyze();
      expect(results.violations.map((v) => `${path}: ${v.id}`)).toEqual([]);
    }
  }
  await context.clearCookies({ name: "lang" });
  await page.request.post("/api/radioGroups.delete", {
    data: { accountId: "acc_metro_bus", groupId: group.id, version: group.version },
    headers: { Origin: baseURL ?? "" },
  });
  await context.close();
});
