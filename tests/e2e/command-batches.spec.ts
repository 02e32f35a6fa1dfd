import { expect, type Page, test } from "./client-address";
import { withRadio } from "./radio-lock";

// Bulk command batches (issue 25), as a person meets them without JavaScript: a ping to two
// demo radios by the bulk form lands on the batch's page; one radio checks in and answers, the
// page's counts say so; cancel leaves the answered one alone and cancels the other.

const DEMO_PASSWORD = "radios-demo-2025";
const REGISTRY = "/accounts/acc_harbor_demo/registry/devices";

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

const count = (page: Page, state: string) => page.locator(`[data-count="${state}"]`);

test("a bulk ping becomes a batch page with counts per state; cancel stops only what was not delivered", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await withRadio("HD-0004", () =>
    withRadio("HD-0005", async () => {
      const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
      const page = await context.newPage();
      const radio = await context.newPage();
      await signIn(page, baseURL, "technician@example.com");

      await page.goto(`${REGISTRY}/send-command?uid=HD-0004,HD-0005`);
      await page.getByRole("radio", { name: /^Ping/ }).check();
      await page.getByRole("button", { name: "Send to these radios" }).click();
      await expect(page).toHaveURL(new RegExp(`${REGISTRY}/batches/[0-9a-f-]{36}$`));
      const batchPage = page.url();
      await expect(page.getByRole("heading", { name: "Batch: Ping" })).toBeVisible();
      await expect(count(page, "queued")).toHaveText("2");

      // HD-0004 checks in and answers its ping; HD-0005 stays off.
      await radio.goto("/simulator");
      await radio.getByLabel("Demo radio").selectOption("HD-0004");
      await radio.getByRole("button", { name: "Switch on and check in" }).click();
      await expect(radio.getByTestId("radio-screen")).toContainText("HD-0004");
      await expect(async () => {
        await page.goto(`${batchPage}?state=queued`);
        await expect(count(page, "queued")).toHaveText("1");
        await expect(count(page, "succeeded")).toHaveText("1");
      }).toPass({ timeout: 20_000 });
      await expect(page.getByRole("link", { name: "HD-0005" })).toBeVisible();

      await page.getByRole("button", { name: "Cancel undelivered commands" }).click();
      await expect(page).toHaveURL(batchPage);
      await expect(count(page, "cancelled")).toHaveText("1");
      await expect(count(page, "succeeded")).toHaveText("1");
      await expect(count(page, "queued")).toHaveText("0");
      await expect(page.getByRole("button", { name: "Cancel undelivered commands" })).toHaveCount(0);

      // The batch is listed with the others, reachable from the bulk form.
      await page.goto(`${REGISTRY}/send-command?uid=HD-0004`);
      await page.getByRole("link", { name: "Command batches" }).click();
      await expect(page.locator(`a[href="${new URL(batchPage).pathname}"]`)).toBeVisible();
      await context.close();
    }),
  );
});
