import { expect, type Page, test } from "./client-address";
import { withRadio } from "./radio-lock";
import { holdScripts } from "./slow-scripts";

// Commands to radios (issue 13), as people meet them: a technician pings, locates and messages
// a demo radio and watches each reach the simulator (the radio's live connection brings them at
// once) while the command's page follows its steps; an admin stuns a radio, which then ignores
// a ping, and revives it; without JavaScript a message goes out by a plain form and arrives at
// the radio's next check-in. Demo radios HD-0003…HD-0005 (the deployments spec uses HD-0001/2).

const DEMO_PASSWORD = "radios-demo-2025";
const REGISTRY = "/accounts/acc_harbor_demo/registry/devices";

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** The simulator switched on as a demo radio; with JavaScript it then holds its live connection. */
async function switchOn(radio: Page, uid: string, live: boolean) {
  await radio.goto("/simulator");
  await radio.getByLabel("Demo radio").selectOption(uid);
  await radio.getByRole("button", { name: "Switch on and check in" }).click();
  await expect(radio.getByTestId("radio-screen")).toContainText(uid);
  if (live) await expect(radio.getByTestId("simulator-live")).toHaveAttribute("data-status", "connected");
}

async function send(page: Page, uid: string, type: RegExp, fill?: (page: Page) => Promise<void>) {
  await page.goto(`${REGISTRY}/${uid}/send-command`);
  await page.getByRole("radio", { name: type }).check();
  if (fill) await fill(page);
  await page.getByRole("button", { name: "Send command" }).click();
  await expect(page).toHaveURL(new RegExp(`${REGISTRY}/${uid}/commands/[0-9a-f-]{36}$`), { timeout: 20_000 });
}

test("a technician pings, locates and messages a demo radio and watches each reach the simulator", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(180_000);
  await withRadio("HD-0004", async () => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    const radio = await context.newPage();
    await signIn(page, baseURL, "technician@example.com");
    await switchOn(radio, "HD-0004", true);

    await send(page, "HD-0004", /^Ping/);
    await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "succeeded", { timeout: 20_000 });
    await expect(page.getByTestId("command-live").locator('[data-step="delivered"]')).toHaveAttribute("data-done", "yes");

    await send(page, "HD-0004", /^Locate/, (p) => p.getByLabel("Beep for (seconds, locate)").fill("7"));
    await expect(radio.getByTestId("radio-commands")).toContainText("♪ Beep for 7 s — position 45.", { timeout: 20_000 });
    await expect(page.getByTestId("command-position")).toContainText("Position: 45.", { timeout: 20_000 });

    const text = `Meet at dock ${Date.now() % 1000}`;
    await send(page, "HD-0004", /^Message/, (p) => p.getByLabel("Message text").fill(text));
    await expect(radio.getByTestId("radio-messages")).toContainText(text, { timeout: 20_000 });
    await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "succeeded", { timeout: 20_000 });

    // The radio's history lists all three, newest first, with who sent them.
    await page.goto(`${REGISTRY}/HD-0004/commands`);
    const rows = page.getByRole("row");
    await expect(rows.nth(1)).toContainText("Message");
    await expect(rows.nth(1)).toContainText(text);
    await expect(rows.nth(1)).toContainText("technician@example.com");

    // The connectivity test shows each step and the round trip.
    await page.goto(`${REGISTRY}/test/HD-0004`);
    await page.getByRole("button", { name: "Start the test" }).click();
    await expect(page.getByTestId("round-trip")).toContainText(/The radio answered in [\d,]+ ms/, { timeout: 20_000 });
    await context.close();
  });
});

test("an admin stuns a radio, which then obeys nothing but revive", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  const radio = await context.newPage();
  await signIn(page, baseURL, "admin@example.com");
  await switchOn(radio, "HD-0005", true);

  // Stun asks for the uid: a wrong one is refused on the form, nothing is sent.
  await page.goto(`${REGISTRY}/HD-0005/send-command`);
  await page.getByRole("radio", { name: /^Stun/ }).check();
  await page.getByLabel(/To stun, type the radio's uid/).fill("HD-0004");
  await page.getByRole("button", { name: "Send command" }).click();
  await expect(page.getByText("Type the radio's uid exactly to confirm the stun.")).toBeVisible();
  await page.getByLabel(/To stun, type the radio's uid/).fill("HD-0005");
  await page.getByRole("button", { name: "Send command" }).click();
  await expect(page).toHaveURL(/\/commands\/[0-9a-f-]{36}$/);
  await expect(radio.getByTestId("radio-stunned")).toBeVisible({ timeout: 20_000 });

  await send(page, "HD-0005", /^Ping/);
  await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "failed", { timeout: 20_000 });
  await expect(page.getByTestId("command-live")).toContainText("STUNNED");

  await send(page, "HD-0005", /^Revive/);
  await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "succeeded", { timeout: 20_000 });
  await expect(radio.getByTestId("radio-stunned")).toHaveCount(0);
  await context.close();
});

test("a stun chosen and confirmed before the form's script has loaded stays chosen once it runs", async ({
  browser,
  baseURL,
}) => {
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL, "admin@example.com");
  // The page's scripts wait until the choice is made, as on a slow phone.
  const release = await holdScripts(page);
  await page.goto(`${REGISTRY}/HD-0005/send-command`, { waitUntil: "commit" });
  await page.getByRole("radio", { name: /^Stun/ }).check();
  await page.getByLabel(/To stun, type the radio's uid/).fill("HD-0005");
  release();
  // Hydrated: the other types' fields are hidden, the stun and its confirmation are still there.
  await expect(page.getByLabel("Message text")).toHaveCount(0);
  await expect(page.getByRole("radio", { name: /^Stun/ })).toBeChecked();
  await expect(page.getByLabel(/To stun, type the radio's uid/)).toHaveValue("HD-0005");
  await expect(page.getByRole("button", { name: "Send command" })).toBeVisible();
  await context.close();
});

test("a command's page follows the command: its badge and Cancel change when the radio takes it, without a reload", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  await withRadio("HD-0003", async () => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    // The radio checks in by hand (no live connection), so the command waits queued until then.
    const radioContext = await browser.newContext({ javaScriptEnabled: false, baseURL });
    const radio = await radioContext.newPage();
    await signIn(page, baseURL, "technician@example.com");
    await switchOn(radio, "HD-0003", false);

    const text = `Follow me ${Date.now() % 1000}`;
    await send(page, "HD-0003", /^Message/, (p) => p.getByLabel("Message text").fill(text));
    const badge = page.locator('[data-live-part="command-state"]');
    await expect(badge).toHaveText("Queued");
    await expect(page.getByRole("button", { name: "Cancel command" })).toBeVisible();
    // Anything the page keeps in memory is lost by a reload: it must still be there at the end.
    await page.evaluate(() => Object.assign(window, { notReloaded: true }));

    await radio.getByRole("button", { name: "Check in now" }).click();
    await expect(radio.getByTestId("radio-messages")).toContainText(text);
    await expect(badge).toHaveText("Succeeded", { timeout: 10_000 });
    await expect(page.getByRole("button", { name: "Cancel command" })).toHaveCount(0);
    expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);
    await radioContext.close();
    await context.close();
  });
});

test("without JavaScript a message goes out by a plain form and arrives at the radio's next check-in; a queued one can be cancelled", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ javaScriptEnabled: false, baseURL });
  const page = await context.newPage();
  const radio = await context.newPage();
  await signIn(page, baseURL, "technician@example.com");
  await switchOn(radio, "HD-0003", false);

  // Without JavaScript every field shows; the server uses the chosen type's.
  const text = `Radio check ${Date.now() % 1000}`;
  await send(page, "HD-0003", /^Message/, (p) => p.getByLabel("Message text").fill(text));
  await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "queued");
  await radio.getByRole("button", { name: "Check in now" }).click();
  await expect(radio.getByTestId("radio-messages")).toContainText(text);
  await page.getByRole("link", { name: "Refresh" }).click();
  await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "succeeded");

  // A reboot the radio has not taken yet is cancelled from its page.
  await send(page, "HD-0003", /^Reboot/);
  await page.getByRole("button", { name: "Cancel command" }).click();
  await expect(page.getByTestId("command-live")).toHaveAttribute("data-state", "cancelled");
  await radio.getByRole("button", { name: "Check in now" }).click();
  await expect(radio.getByTestId("radio-commands")).not.toContainText("Reboot");
  await context.close();
});
