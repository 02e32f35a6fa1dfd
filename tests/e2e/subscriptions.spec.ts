import { randomUUID } from "node:crypto";
import { type Browser, expect, type Page, test } from "./client-address";

// Subscriptions and allocations as people meet them, with JavaScript on and off: an owner of
// Harbor (a dealer) issues seats to its customer Metro Transit Authority, gives some to an
// account, changes and takes them back; two people grabbing the last free seats at the same
// moment (exactly one gets them); and who may not. Every test makes its own subscription.

const DEMO_PASSWORD = "radios-demo-2025";
const METRO = "org_metro";

function unique(prefix: string): string {
  return `${prefix} ${randomUUID().slice(0, 8)}`;
}

/** Signs in through the plain call (spec §7); page.request shares the browser's cookies. */
async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A form's flash on the page it led to: a toast with JavaScript, a status message without. */
async function expectFlash(page: Page, javaScriptEnabled: boolean, text: string) {
  if (javaScriptEnabled) await expect(page.getByRole("region", { name: /alt\+T/ }).getByText(text)).toBeVisible();
  else await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();
}

/** The cells of a table row, by column header, as a person reads them. */
async function rowOf(page: Page, text: string) {
  const row = page.getByRole("row").filter({ hasText: text });
  await expect(row).toHaveCount(1);
  return row;
}

async function addThroughApi(page: Page, baseURL: string | undefined, plan: string, quantity: number): Promise<string> {
  const response = await page.request.post("/api/subscriptions.add", {
    data: { orgId: METRO, plan, quantity, startsAt: "2025-01-01", endsAt: null },
    headers: { Origin: baseURL ?? "" },
  });
  const body = await response.json();
  expect(body.result?.data?.plan).toBe(plan);
  return body.result.data.id;
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(`seats ${mode}`, () => {
    test.use({ javaScriptEnabled });

    test("an owner issues a subscription to Metro, allocates, edits and takes back seats, then removes it", async ({
      page,
      baseURL,
    }) => {
      test.slow(); // a whole journey of many pages: its budget follows its length
      const plan = unique("Fleet Basic");
      await signIn(page, baseURL, "owner@example.com");
      await page.goto(`/settings/subscriptions?orgId=${METRO}`);
      await expect(page.getByRole("heading", { level: 1, name: "Subscriptions" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Subscriptions", exact: true })).toHaveAttribute("aria-current", "page");
      await expect(page.getByRole("link", { name: "Allocations", exact: true })).toHaveAttribute(
        "href",
        `/settings/allocations?orgId=${METRO}`,
      );
      // The demo's subscription, with its seats counted.
      const demo = await rowOf(page, "HC-2025-014");
      await expect(demo.getByRole("cell").nth(1)).toHaveText("50");

      // Add: the empty form is refused field by field first.
      await page.getByRole("link", { name: "Add subscription" }).click();
      await expect(page.getByLabel("Organization")).toHaveValue(METRO);
      await page.getByRole("button", { name: "Add subscription" }).click();
      await expect(page.getByLabel("Plan")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByLabel("Seats")).toHaveAttribute("aria-invalid", "true");
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter the plan’s name." })).toBeVisible();
      await page.getByLabel("Plan").fill(plan);
      await page.getByLabel("Seats").fill("12");
      await page.getByLabel("Starts").fill("2025-01-01");
      await page.getByLabel("Ends").fill("2027-12-31");
      await page.getByLabel("Reference").fill("PO-E2E");
      await page.getByRole("button", { name: "Add subscription" }).click();
      await expect(page).toHaveURL(`${baseURL}/settings/subscriptions?orgId=${METRO}`);
      await expectFlash(page, javaScriptEnabled, `Subscription ${plan} added.`);
      const row = await rowOf(page, plan);
      const cells = row.getByRole("cell");
      await expect(cells.nth(0)).toHaveText(`${plan}PO-E2E`);
      await expect(cells.nth(1)).toHaveText("12");
      await expect(cells.nth(2)).toHaveText("0");
      await expect(cells.nth(3)).toHaveText("12");
      await expect(cells.nth(4)).toHaveText("Jan 1, 2025 – Dec 31, 2027");
      await expect(cells.nth(5)).toHaveText("Active");

      // Allocate: more than is free is refused with a clear message, what was typed stays.
      await row.getByRole("link", { name: `Allocate seats ${plan}` }).click();
      await expect(page.getByText(`${plan}: 12 of 12 seats free.`)).toBeVisible();
      await page.getByLabel("Account").selectOption({ label: "Metro Rail Maintenance" });
      await page.getByLabel("Seats").fill("13");
      await page.getByRole("button", { name: "Allocate seats" }).click();
      await expect(page.getByText(/^Not enough free seats\./).first()).toBeVisible();
      await expect(page.getByLabel("Seats")).toHaveValue("13");
      await page.getByLabel("Seats").fill("5");
      await page.getByRole("button", { name: "Allocate seats" }).click();
      await expect(page).toHaveURL(`${baseURL}/settings/subscriptions?orgId=${METRO}`);
      await expectFlash(page, javaScriptEnabled, `5 seats of ${plan} allocated to Metro Rail Maintenance.`);
      const allocatedRow = await rowOf(page, plan);
      await expect(allocatedRow.getByRole("cell").nth(2)).toHaveText("5");
      await expect(allocatedRow.getByRole("cell").nth(3)).toHaveText("7");

      // Edit the allocation from the Allocations tab (which keeps the organization).
      await page.getByRole("link", { name: "Allocations", exact: true }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Allocations" })).toBeVisible();
      const allocation = await rowOf(page, plan);
      await expect(allocation.getByRole("cell").first()).toHaveText("Metro Rail Maintenance");
      await allocation.getByRole("link", { name: `Edit Metro Rail Maintenance · ${plan}` }).click();
      await expect(page.getByText(`Metro Rail Maintenance holds 5 seats of ${plan}. 7 more are free.`)).toBeVisible();
      await page.getByLabel("Seats").fill("0");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter at least 1 seat." })).toBeVisible();
      await page.getByLabel("Seats").fill("9");
      await page.getByRole("button", { name: "Save changes" }).click();
      await expect(page).toHaveURL(`${baseURL}/settings/allocations?orgId=${METRO}`);
      await expectFlash(page, javaScriptEnabled, `Metro Rail Maintenance now holds 9 seats of ${plan}.`);
      await expect((await rowOf(page, plan)).getByRole("cell").nth(2)).toHaveText("9");

      // Take the seats back.
      await (await rowOf(page, plan)).getByRole("link", { name: `Take back seats Metro Rail Maintenance · ${plan}` }).click();
      await expect(page.getByText(`Take back the 9 seats of ${plan} from Metro Rail Maintenance?`)).toBeVisible();
      await page.getByRole("button", { name: "Take back seats" }).click();
      await expect(page).toHaveURL(`${baseURL}/settings/allocations?orgId=${METRO}`);
      await expectFlash(page, javaScriptEnabled, `9 seats of ${plan} taken back from Metro Rail Maintenance.`);
      await expect(page.getByRole("row").filter({ hasText: plan })).toHaveCount(0);

      // Remove the subscription, now that no account holds its seats.
      await page.getByRole("link", { name: "Subscriptions", exact: true }).click();
      await (await rowOf(page, plan)).getByRole("link", { name: `Remove ${plan}` }).click();
      await expect(page.getByText(`Remove the subscription ${plan} of Metro Transit Authority?`)).toBeVisible();
      await page.getByRole("button", { name: "Remove subscription" }).click();
      await expect(page).toHaveURL(`${baseURL}/settings/subscriptions?orgId=${METRO}`);
      await expectFlash(page, javaScriptEnabled, `Subscription ${plan} removed.`);
      await expect(page.getByRole("row").filter({ hasText: plan })).toHaveCount(0);
    });

    test("two people allocating the last free seats at once: exactly one gets them", async ({ browser, baseURL }) => {
      const plan = unique("Last seats");
      const people = await Promise.all([
        openAllocateForm(browser, javaScriptEnabled),
        openAllocateForm(browser, javaScriptEnabled),
      ]);
      const [first, second] = people;
      if (!first || !second) throw new Error("two browsers expected");
      await signIn(first.page, baseURL, "owner@example.com");
      const subscriptionId = await addThroughApi(first.page, baseURL, plan, 3);
      await signIn(second.page, baseURL, "admin@example.com");
      const allocate = `/settings/subscriptions/allocate?subscriptionId=${subscriptionId}`;
      await Promise.all(people.map(({ page }) => page.goto(allocate)));
      await first.page.getByLabel("Account").selectOption({ label: "Metro Bus Operations" });
      await second.page.getByLabel("Account").selectOption({ label: "Metro Rail Maintenance" });
      for (const { page } of people) {
        await expect(page.getByText(`${plan}: 3 of 3 seats free.`)).toBeVisible();
        await page.getByLabel("Seats").fill("3");
      }

      await Promise.all(people.map(({ page }) => page.getByRole("button", { name: "Allocate seats" }).click()));

      const outcomes = await Promise.all(people.map(({ page }) => outcomeOf(page, plan)));
      expect([...outcomes].sort()).toEqual(["got the seats", "told there are not enough"]);
      // The loser still sees the form with its numbers, ready for a smaller one.
      const loser = people[outcomes.indexOf("told there are not enough")]?.page;
      if (!loser) throw new Error("one of them must have been refused");
      await expect(loser.getByLabel("Seats")).toHaveValue("3");
      // Without JavaScript the page comes back with the seats as they are now.
      if (!javaScriptEnabled) await expect(loser.getByText(`${plan}: 0 of 3 seats free.`)).toBeVisible();
      await first.page.goto(`/settings/subscriptions?orgId=${METRO}`);
      const row = await rowOf(first.page, plan);
      await expect(row.getByRole("cell").nth(2)).toHaveText("3");
      await expect(row.getByRole("cell").nth(3)).toHaveText("0");
      await Promise.all(people.map(({ context }) => context.close()));
    });
  });
}

async function openAllocateForm(browser: Browser, javaScriptEnabled: boolean) {
  const context = await browser.newContext({ javaScriptEnabled });
  return { context, page: await context.newPage() };
}

/** Waits for what the person sees after submitting: the list with the success flash, or the refusal. */
async function outcomeOf(page: Page, plan: string): Promise<string> {
  const won = page
    .getByText(new RegExp(`^3 seats of ${plan} allocated to`))
    .first()
    .waitFor()
    .then(() => "got the seats");
  const lost = page
    .getByText(/^Not enough free seats\. Someone may have just allocated them/)
    .first()
    .waitFor()
    .then(() => "told there are not enough");
  return Promise.race([won, lost]);
}

test.describe("who may not", () => {
  test("a viewer reads an account's seats but cannot open or change the organization's", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    for (const path of [`/settings/subscriptions?orgId=${METRO}`, `/settings/allocations?orgId=${METRO}`]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByRole("heading", { name: "This route is protected." })).toBeVisible();
    }
    // The settings area offers them no Subscriptions or Allocations tab.
    await page.goto("/settings/organizations");
    const tabs = page.getByRole("navigation", { name: "Settings sections" });
    await expect(tabs.getByRole("link", { name: "Organizations" })).toBeVisible();
    await expect(tabs.getByRole("link", { name: "Subscriptions" })).toHaveCount(0);
    await expect(tabs.getByRole("link", { name: "Allocations" })).toHaveCount(0);

    // What view-subscriptions-in-accounts allows: an account's seats.
    const seats = await page.request.get(
      `/api/subscriptions.forAccount?input=${encodeURIComponent(JSON.stringify({ accountId: "acc_metro_bus" }))}`,
    );
    expect(seats.status()).toBe(200);
    const { result } = await seats.json();
    expect(result.data.items).toContainEqual(
      expect.objectContaining({ plan: "Fleet Advanced", organizationName: "Metro Transit Authority" }),
    );

    // Allocating is refused however it is asked for.
    const form = await page.request.post("/settings/subscriptions/allocate?subscriptionId=sub_metro_fleet", {
      form: { accountId: "acc_metro_rail", quantity: "1" },
      headers: { Origin: baseURL ?? "" },
    });
    expect(form.status()).toBe(403);
    expect(await form.text()).toContain("This route is protected.");
    const call = await page.request.post("/api/subscriptions.allocate", {
      data: { subscriptionId: "sub_metro_fleet", accountId: "acc_metro_rail", quantity: 1 },
      headers: { Origin: baseURL ?? "" },
    });
    expect(call.status()).toBe(403);
    expect((await call.json()).error.code).toBe(-32003);
  });

  test("a technician gets the protected-route screen", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "technician@example.com");
    for (const path of ["/settings/subscriptions", "/settings/allocations", "/settings/allocations/allocate"]) {
      const response = await page.goto(path);
      expect(response?.status()).toBe(403);
      await expect(page.getByText("This route is protected.")).toBeVisible();
    }
  });
});
