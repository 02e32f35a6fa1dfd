import { expect, type Page, test } from "./client-address";

// Notifications (issue 25), as a person meets them without JavaScript: the owner chooses which
// events of an account to hear about by email; adds a webhook to the organization, sees its
// secret once, sends a test event and finds the delivery in the log (the receiver is this very
// server, which answers the unsigned-in POST with an error: the log shows it), then deletes it.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "/accounts/acc_harbor_demo";
const WEBHOOKS = "/settings/organizations/webhooks/org_harbor";

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

test("a person chooses their email events; an admin adds a webhook, sees its secret once, sends a test and reads the log", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL, viewport: { width: 320, height: 900 } });
  const page = await context.newPage();
  await signIn(page, baseURL, "owner@example.com");

  // Email choices, reached from the account home.
  await page.goto(ACCOUNT);
  await page.getByRole("link", { name: "Notifications", exact: true }).click();
  await expect(page).toHaveURL(`${ACCOUNT}/notifications`);
  const paused = page.getByRole("checkbox", { name: "A deployment pauses itself" });
  const batch = page.getByRole("checkbox", { name: "A bulk command batch ends with failed radios" });
  await paused.check();
  await batch.check();
  await page.getByRole("button", { name: "Save choices" }).click();
  await expect(page).toHaveURL(`${ACCOUNT}/notifications`);
  await expect(page.getByText("Your notification choices are saved.")).toBeVisible();
  await expect(paused).toBeChecked();
  await expect(batch).toBeChecked();
  await expect(page.getByRole("checkbox", { name: "A deployment finishes" })).not.toBeChecked();

  // Webhooks, reached from the organizations list.
  await page.goto("/settings/organizations");
  await page.locator(`a[href="${WEBHOOKS}"]`).first().click();
  await expect(page).toHaveURL(WEBHOOKS);
  // A bad address is refused on its field, the typed values kept.
  await page.getByLabel("Address").fill("ftp://hooks.example.com/x");
  await page.getByRole("checkbox", { name: "A deployment pauses itself" }).check();
  await page.getByRole("button", { name: "Add webhook" }).click();
  // The summary takes the focus and links to the field, which names the problem too.
  await expect(page.locator("[data-error-summary]")).toBeFocused();
  await expect(page.getByRole("link", { name: "Use an https:// address." })).toHaveAttribute("href", "#field-url");
  await expect(page.getByLabel("Address")).toHaveAccessibleDescription(/Use an https:\/\/ address\./);
  await expect(page.getByLabel("Address")).toHaveValue("ftp://hooks.example.com/x");

  const receiver = `${baseURL}/e2e-webhook-receiver-${Date.now()}`;
  await page.getByLabel("Address").fill(receiver);
  await page.getByRole("button", { name: "Add webhook" }).click();
  const secret = page.locator("[data-webhook-secret]");
  await expect(secret).toHaveText(/^whsec_/);
  const shown = (await secret.textContent()) ?? "";
  await expect(page.getByText("Copy it now: it will not be shown again.")).toBeVisible();

  // Never again: the page opened afresh has the webhook and not its secret.
  await page.goto(WEBHOOKS);
  const card = page.getByRole("listitem").filter({ hasText: receiver });
  await expect(card).toContainText("A deployment pauses itself");
  await expect(card).toContainText("On");
  expect(await page.content()).not.toContain(shown);

  await card.getByRole("button", { name: "Send a test event" }).click();
  await expect(page).toHaveURL(/\/deliveries\/wh_/);
  await expect(page.getByText("Test event queued")).toBeVisible();
  const row = page.getByRole("row").filter({ hasText: "Test event" });
  await expect(row).toHaveCount(1);
  // The queue tries it soon: this server refuses the unsigned-in POST, and the log says so.
  await expect(async () => {
    await page.reload();
    await expect(page.getByRole("row").filter({ hasText: "Test event" })).toContainText(/HTTP \d{3}/);
  }).toPass({ timeout: 30_000 });

  // Delete, after confirming.
  await page.getByRole("link", { name: "Back to webhooks" }).click();
  await page.getByRole("listitem").filter({ hasText: receiver }).getByRole("link", { name: "Delete" }).click();
  await expect(page.getByText(`Delete the webhook ${receiver}?`)).toBeVisible();
  await page.getByRole("button", { name: "Delete webhook" }).click();
  await expect(page).toHaveURL(WEBHOOKS);
  await expect(page.getByText("Webhook deleted.")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: receiver })).toHaveCount(0);
  await context.close();
});
