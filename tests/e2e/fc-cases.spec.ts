import { expect, type Page, test } from "./client-address";
import { withRadio } from "./radio-lock";

// The customer-care desk (issue 15) as the demo agent works it: Ada opens a session about a
// caller's radio, locates and messages it from the session, sees the outcomes on the timeline
// once the radio (the simulator) has answered, hands the session to Ben and closes it; the
// dashboard and the closed list show it. Then the same desk without JavaScript. Demo radio
// HD-0004 (Rosa Díaz's); the simulator here is not live, so it takes commands at its check-in.
// commands.spec.ts drives HD-0004 too: the session test holds its lock (radio-lock.ts).

const DEMO_PASSWORD = "radios-demo-2025";
const DESK = "/accounts/acc_harbor_demo/fc-cases";

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

function radioForm(page: Page, uid: string) {
  return page.locator(`[data-session-radio="${uid}"]`);
}

test("the demo agent works a session end to end: locate, message, hand over, close", async ({ browser, baseURL }) => {
  test.setTimeout(180_000);
  await withRadio("HD-0004", async () => {
    const context = await browser.newContext({ baseURL });
    const page = await context.newPage();
    await signIn(page, baseURL, "agent@example.com");

    // The sidebar's Customer care opens the dashboard.
    await page.goto("/accounts/acc_harbor_demo");
    await page.getByRole("navigation", { name: "Account sections" }).getByRole("link", { name: "Customer care" }).click();
    await expect(page).toHaveURL(`${DESK}/fc-dashboard`);
    await expect(page.getByRole("heading", { level: 1 })).toHaveText("Customer care dashboard");

    const subject = `Caller cannot hear dispatch ${Date.now() % 100_000}`;
    await page.getByRole("link", { name: "Open a session" }).click();
    await page.getByLabel("Subject", { exact: true }).fill(subject);
    await page.getByLabel("Radios", { exact: true }).fill("HD-0004");
    await page.getByLabel("Customer", { exact: true }).selectOption({ label: "Rosa Díaz" });
    await page.getByLabel("Priority", { exact: true }).selectOption("high");
    await page.getByRole("button", { name: "Open session" }).click();
    await expect(page).toHaveURL(new RegExp(`${DESK}/list-fc-sessions/fcs_`));
    await expect(page.getByRole("heading", { level: 1 })).toHaveText(subject);
    const sessionUrl = page.url();

    // Locate, then a message, from the radio's form on the session.
    await radioForm(page, "HD-0004").getByLabel("Command", { exact: true }).selectOption("locate");
    await radioForm(page, "HD-0004").getByRole("button", { name: "Send" }).click();
    await expect(page.getByText("Command sent to HD-0004").first()).toBeVisible();
    const text = `Go to channel 3 ${Date.now() % 1000}`;
    await radioForm(page, "HD-0004").getByLabel("Command", { exact: true }).selectOption("message");
    await radioForm(page, "HD-0004").getByLabel("Message text (for Message)").fill(text);
    await radioForm(page, "HD-0004").getByRole("button", { name: "Send" }).click();
    await expect(page.locator('[data-timeline-command="message"]')).toContainText("HD-0004");
    await expect(page.locator('[data-timeline-kind="command"]').last()).toContainText(text);

    // The radio checks in and answers both; the timeline reads their outcomes.
    const radio = await context.newPage();
    await radio.goto("/simulator");
    await radio.getByLabel("Demo radio").selectOption("HD-0004");
    await radio.getByRole("button", { name: "Switch on and check in" }).click();
    await expect(radio.getByTestId("radio-screen")).toContainText("HD-0004");
    await expect(async () => {
      await page.goto(sessionUrl);
      await expect(page.locator('[data-timeline-command="locate"] [data-command-state]')).toHaveAttribute(
        "data-command-state",
        "succeeded",
        {
          timeout: 1_000,
        },
      );
      await expect(page.locator('[data-timeline-command="message"] [data-command-state]')).toHaveAttribute(
        "data-command-state",
        "succeeded",
        {
          timeout: 1_000,
        },
      );
    }).toPass({ timeout: 30_000 });

    // Hand it to Ben and close it in one save.
    await page.getByLabel("Assignee", { exact: true }).selectOption({ label: "Ben Agent (agent2@example.com)" });
    await page.getByLabel("Status", { exact: true }).selectOption("closed");
    await page.getByRole("button", { name: "Save" }).click();
    await expect(page.locator("[data-session-assignee]")).toHaveText("Ben Agent");
    await expect(page.locator("dd [data-session-status]")).toHaveAttribute("data-session-status", "closed");
    await expect(page.locator('[data-timeline-kind="assignee"]')).toContainText("Ben Agent");
    await expect(page.locator('[data-timeline-kind="closed"]')).toBeVisible();

    // The dashboard counts it among today's closed; the closed list has it.
    await page.goto(`${DESK}/fc-dashboard`);
    await expect(page.locator("figcaption")).toContainText(/[1-9]\d* closed/);
    await page.goto(`${DESK}/list-fc-sessions?status=closed`);
    await expect(page.getByRole("link", { name: subject })).toBeVisible();
    await context.close();
  });
});

test("without JavaScript the agent opens a session, notes it and sees a refused command", async ({ browser, baseURL }) => {
  test.setTimeout(120_000);
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, baseURL, "agent@example.com");
  await page.goto(`${DESK}/list-fc-sessions/add`);
  // A radio of no account of this desk comes back on its field, with what was typed.
  await page.getByLabel("Subject", { exact: true }).fill("Static on the handset");
  await page.getByLabel("Radios", { exact: true }).fill("NOT-OURS-1");
  await page.getByRole("button", { name: "Open session" }).click();
  await expect(page.getByText("NOT-OURS-1 is not a radio of this account.").first()).toBeVisible();
  await page.getByLabel("Subject", { exact: true }).fill("Static on the handset");
  await page.getByLabel("Radios", { exact: true }).fill("HD-0004");
  await page.getByRole("button", { name: "Open session" }).click();
  await expect(page.getByRole("heading", { level: 1 })).toHaveText("Static on the handset");
  await page.getByLabel("Note for the timeline").fill("Asked the caller to change the battery.");
  await page.getByRole("button", { name: "Add note" }).click();
  await expect(page.locator('[data-timeline-kind="note"]')).toContainText("Asked the caller to change the battery.");
  // A message with no text is refused on its field, and nothing reaches the timeline.
  await radioForm(page, "HD-0004").getByLabel("Command", { exact: true }).selectOption("message");
  await radioForm(page, "HD-0004").getByRole("button", { name: "Send" }).click();
  await expect(radioForm(page, "HD-0004")).toContainText("This field is required.");
  await expect(page.locator('[data-timeline-kind="command"]')).toHaveCount(0);
  await context.close();
});
