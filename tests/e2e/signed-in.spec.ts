import { expect, type Page, test } from "./client-address";

// The signed-in pages as a person meets them: the welcome cards per role, signing out from
// the header with and without JavaScript, changing the password with and without it, and
// the idle sign-out after 15 minutes (Playwright's clock stands in for the wait).

const DEMO_PASSWORD = "radios-demo-2025";
const NEW_PASSWORD = "amber-harbor-signal-77";

/** Signs in through the plain call (spec §7); page.request shares the browser's cookies. */
async function signIn(page: Page, baseURL: string | undefined, email: string, password = DEMO_PASSWORD) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function currentUser(page: Page): Promise<{ ok: boolean; user?: string }> {
  return (await page.request.get("/api/me")).json();
}

function areaLinks(page: Page) {
  return page.getByRole("navigation", { name: "Areas you can open" }).getByRole("link");
}

function area(page: Page, name: string) {
  return page.getByRole("navigation", { name: "Areas you can open" }).getByRole("link", { name });
}

/** The sign-in form a signed-out visitor of a signed-in page gets, at the same URL. */
async function expectSignInForm(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response?.status()).toBe(401);
  await expect(page).toHaveTitle("Sign in · Configuration Tool");
  await expect(page.getByRole("main").getByLabel("Email")).toBeVisible();
}

/** Signed out on the public home page: the header offers Sign in again. */
async function expectSignedOutHome(page: Page, baseURL: string | undefined) {
  await expect(page).toHaveURL(`${baseURL}/`);
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign in" })).toBeVisible();
  await expect(page.getByRole("button", { name: /^Signed in as / })).toHaveCount(0);
}

/** Signs out from the header's profile menu (a menu button with JavaScript). */
async function signOutFromMenu(page: Page) {
  await page
    .getByRole("banner")
    .getByRole("button", { name: /^Signed in as / })
    .click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
}

/**
 * A sign-out the timers would start begins while fastForward runs them; give its request a
 * moment to show before saying none came.
 */
async function noSignOutFollows(page: Page, signOuts: () => number) {
  await page.waitForTimeout(500);
  expect(signOuts()).toBe(0);
  await expect(page.getByRole("button", { name: /^Signed in as / })).toBeVisible();
}

/** The idle timer has hydrated once it has shared the page's start as the last activity. */
async function idleTimerRunning(page: Page) {
  await expect.poll(() => page.evaluate(() => localStorage.getItem("last-activity-at"))).not.toBeNull();
}

/** The shell script runs first; a form's React island hydrates after it (a click before that is a plain post). */
async function formIslandHydrated(page: Page) {
  await page.waitForFunction(() =>
    [...document.querySelectorAll("[data-island]")].some((island) =>
      Object.keys(island).some((key) => key.startsWith("__reactContainer")),
    ),
  );
}

test.describe("welcome", () => {
  test("an owner gets a card for every area, each a real link", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/");
    await expect(page).toHaveURL(`${baseURL}/welcome`);
    await expect(page.getByRole("heading", { level: 1, name: "Welcome" })).toBeVisible();
    await expect(areaLinks(page)).toHaveText([
      "Accounts",
      "Organizations",
      "Users",
      "Subscriptions",
      "Devices",
      "Getting started",
      "Security",
    ]);
    await expect(area(page, "Users")).toHaveAttribute("href", "/settings/users");
    await expect(page.getByRole("banner")).toContainText("owner@example.com");

    await area(page, "Getting started").click();
    await expect(page.getByRole("heading", { level: 1, name: "Getting started" })).toBeVisible();
    await page
      .getByRole("navigation", { name: "On this page" })
      .getByRole("link", { name: "Roles and what each may do" })
      .click();
    await expect(page).toHaveURL(/#roles$/);
    await expect(page.getByRole("rowheader", { name: "Technician" })).toBeInViewport();
  });

  test("a viewer gets no Devices, Users or Subscriptions card", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/welcome");
    await expect(areaLinks(page)).toHaveText(["Accounts", "Organizations", "Getting started", "Security"]);

    await area(page, "Security").click();
    await expect(page.getByRole("heading", { level: 1, name: "Security" })).toBeVisible();
    await expect(page.getByText("No passkeys yet.")).toBeVisible();
    await expect(page.getByText("No linked identities yet.")).toBeVisible();
    await expect(page.getByText(/^Last signed in: /)).toBeVisible();
  });
});

test.describe("signing out with JavaScript", () => {
  test("posts, refreshes the current user, and lands on / signed out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);

    const posted = page.waitForRequest((r) => r.url().endsWith("/api/sign-out") && r.method() === "POST");
    const refreshed = page.waitForRequest((r) => r.url().endsWith("/api/me"));
    await signOutFromMenu(page);
    await posted;
    await refreshed;
    await expectSignedOutHome(page, baseURL);

    expect(await currentUser(page)).toEqual({ ok: false });
    await expectSignInForm(page, "/welcome");
  });

  test("a failed sign-out is logged with its status and still goes to /", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);
    await page.route("**/api/sign-out", (route) => route.fulfill({ status: 503, body: "" }));
    const errors: string[] = [];
    page.on("console", (message) => {
      if (message.type() === "error") errors.push(message.text());
    });

    const home = page.waitForRequest((r) => r.isNavigationRequest() && new URL(r.url()).pathname === "/");
    await signOutFromMenu(page);
    await home;
    expect(errors.some((text) => text.includes("503"))).toBe(true);
    // The server never heard the sign-out, so / sends the still signed-in user on to /welcome.
    await expect(page).toHaveURL(`${baseURL}/welcome`);
  });
});

test.describe("signing out without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the header's plain form ends the session and lands on / signed out", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "owner@example.com");
    await page.goto("/welcome");
    await expect(page.getByRole("banner")).toContainText("owner@example.com");
    // The profile menu is a disclosure without JavaScript.
    await page.getByRole("banner").locator("summary", { hasText: "Olivia Owner" }).click();
    await page.getByRole("banner").getByRole("button", { name: "Sign out" }).click();
    await expectSignedOutHome(page, baseURL);
    expect(await currentUser(page)).toEqual({ ok: false });
    await expectSignInForm(page, "/welcome");
  });
});

/** A confirmation with JavaScript: a toast, and a status that stays on the page (issue 9 §4). */
async function expectConfirmation(page: Page, text: string) {
  await expect(page.getByRole("region", { name: /^Notifications/ }).getByText(text)).toBeVisible();
  await expect(page.locator("[data-flash]").getByRole("status")).toHaveText(text);
}

/** Fills the three password fields of /security and submits. */
async function submitPasswordChange(page: Page, current: string, next: string, confirmation = next) {
  await page.getByLabel("Current password").fill(current);
  await page.getByLabel("New password", { exact: true }).fill(next);
  await page.getByLabel("Confirm new password").fill(confirmation);
  await page.getByRole("button", { name: "Change password" }).click();
}

test.describe("changing the password with JavaScript", () => {
  test("checks on submit, then on change; the server checks the current password", async ({ page, baseURL }) => {
    const email = "technician@example.com";
    await signIn(page, baseURL, email);
    await page.goto("/security");
    await idleTimerRunning(page);
    await formIslandHydrated(page);
    const posts: string[] = [];
    page.on("request", (r) => {
      if (r.method() === "POST" && r.url().endsWith("/security")) posts.push(r.url());
    });

    // Client rules first, without a request: required, at least 8 characters, confirmed.
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.getByRole("alert").getByRole("link", { name: "Enter your current password." })).toBeVisible();
    await expect(page.getByRole("alert").getByRole("link", { name: "Enter a new password." })).toBeVisible();
    await expect(page.locator("[data-error-summary]")).toBeFocused();
    await page.getByLabel("Current password").fill("not-my-password");
    await page.getByLabel("New password", { exact: true }).fill("short");
    await expect(page.getByRole("link", { name: "The password must be at least 8 characters." })).toBeVisible();
    await page.getByLabel("New password", { exact: true }).fill(NEW_PASSWORD);
    await page.getByLabel("Confirm new password").fill(`${NEW_PASSWORD}!`);
    await expect(page.locator("[data-error-summary]").getByText("The passwords do not match.")).toBeVisible();
    await page.getByLabel("Confirm new password").fill(NEW_PASSWORD);
    await expect(page.getByText("The passwords do not match.")).toHaveCount(0);
    expect(posts).toEqual([]);

    // A wrong current password is the server's answer, shown inline without a reload.
    await page.getByRole("button", { name: "Change password" }).click();
    await expect(page.locator("[data-error-summary]").getByText("That is not your current password.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveAttribute("aria-invalid", "true");
    await expect(page.getByLabel("New password", { exact: true })).toHaveValue(NEW_PASSWORD);

    await submitPasswordChange(page, DEMO_PASSWORD, NEW_PASSWORD);
    await expectConfirmation(page, "Your password was changed. You were signed out everywhere else.");
    await expect(page).toHaveURL(`${baseURL}/security`);
    expect(await currentUser(page)).toMatchObject({ ok: true, user: email });

    // The new password signs in; then put the demo password back.
    await signIn(page, baseURL, email, NEW_PASSWORD);
    await page.goto("/security");
    await submitPasswordChange(page, NEW_PASSWORD, DEMO_PASSWORD);
    await expectConfirmation(page, "Your password was changed. You were signed out everywhere else.");
    await signIn(page, baseURL, email, DEMO_PASSWORD);
  });
});

test.describe("changing the password without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("the plain form shows the server's errors and then changes it", async ({ page, baseURL }) => {
    const email = "admin@example.com";
    await signIn(page, baseURL, email);
    await page.goto("/security");

    await submitPasswordChange(page, "not-my-password", NEW_PASSWORD);
    await expect(page.locator("[data-error-summary]").getByText("That is not your current password.")).toBeVisible();
    await expect(page.getByLabel("Current password")).toHaveValue("");

    await submitPasswordChange(page, DEMO_PASSWORD, "short");
    await expect(page.getByRole("link", { name: "The password must be at least 8 characters." })).toBeVisible();

    await submitPasswordChange(page, DEMO_PASSWORD, NEW_PASSWORD, "something-else-entirely");
    await expect(page.locator("[data-error-summary]").getByText("The passwords do not match.")).toBeVisible();

    await submitPasswordChange(page, DEMO_PASSWORD, NEW_PASSWORD);
    await expect(page).toHaveURL(`${baseURL}/security`);
    await expect(page.getByRole("status")).toHaveText("Your password was changed. You were signed out everywhere else.");

    // Put the demo password back.
    await submitPasswordChange(page, NEW_PASSWORD, DEMO_PASSWORD);
    await expect(page.getByRole("status")).toHaveText("Your password was changed. You were signed out everywhere else.");
    await signIn(page, baseURL, email, DEMO_PASSWORD);
  });
});

test.describe("idle sign-out", () => {
  test("15 minutes without activity sign the user out and land on /", async ({ page, baseURL }) => {
    await page.clock.install();
    await signIn(page, baseURL, "configurator@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);

    const posted = page.waitForRequest((r) => r.url().endsWith("/api/sign-out") && r.method() === "POST");
    await page.clock.fastForward("15:05");
    await posted;
    await expectSignedOutHome(page, baseURL);
    expect(await currentUser(page)).toEqual({ ok: false });
    await expectSignInForm(page, "/welcome");
  });

  test("activity at 10 minutes refreshes the server's idle clock and postpones it", async ({ page, baseURL }) => {
    await page.clock.install();
    await signIn(page, baseURL, "configurator@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);
    let signOuts = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/sign-out")) signOuts += 1;
    });

    await page.clock.fastForward("10:00");
    const refreshed = page.waitForResponse((r) => r.url().endsWith("/api/me"));
    await page.mouse.move(200, 200);
    await page.mouse.move(220, 240);
    expect(await (await refreshed).json()).toMatchObject({ ok: true });

    // 16 minutes after the page loaded, 6 after the activity: still signed in.
    await page.clock.fastForward("06:00");
    await noSignOutFollows(page, () => signOuts);
    await expect(page).toHaveURL(`${baseURL}/welcome`);

    // 15 minutes after the activity: signed out.
    await page.clock.fastForward("09:30");
    await expectSignedOutHome(page, baseURL);
    expect(signOuts).toBe(1);
  });

  test("warns 2 minutes before in a dialog; Stay signed in extends the session on the server", async ({ page, baseURL }) => {
    await page.clock.install();
    await signIn(page, baseURL, "configurator@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);
    let signOuts = 0;
    page.on("request", (r) => {
      if (r.url().endsWith("/api/sign-out")) signOuts += 1;
    });
    const warning = page.getByRole("alertdialog", { name: "Are you still there?" });
    const stay = warning.getByRole("button", { name: "Stay signed in" });

    await page.clock.fastForward("12:50");
    await expect(warning).toBeHidden();
    await page.clock.fastForward("00:20");
    await expect(warning).toBeVisible();
    await expect(warning).toContainText("you will be signed out in 2 minutes");
    await expect(stay).toBeFocused();
    // Once warned, a stray mouse move is no answer: the warning stays.
    await page.mouse.move(300, 300);
    await expect(warning).toBeVisible();

    const extended = page.waitForResponse((r) => r.url().endsWith("/api/session/extend") && r.request().method() === "POST");
    await stay.click();
    expect(await (await extended).json()).toEqual({ ok: true });
    await expect(warning).toBeHidden();

    // 23 minutes after the page loaded, 10 after Stay signed in: no warning, no sign-out.
    await page.clock.fastForward("10:00");
    await expect(warning).toBeHidden();
    await noSignOutFollows(page, () => signOuts);

    // Warned again 13 minutes after the answer; left alone, signed out at 15.
    await page.clock.fastForward("03:10");
    await expect(warning).toBeVisible();
    await page.clock.fastForward("02:00");
    await expectSignedOutHome(page, baseURL);
    expect(signOuts).toBe(1);
  });

  test("Escape answers the warning too, and activity in another tab closes it", async ({ page, context, baseURL }) => {
    await page.clock.install();
    await signIn(page, baseURL, "configurator@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);
    const warning = page.getByRole("alertdialog", { name: "Are you still there?" });
    await page.clock.fastForward("13:10");
    await expect(warning).toBeVisible();
    const extended = page.waitForResponse((r) => r.url().endsWith("/api/session/extend"));
    await page.keyboard.press("Escape");
    await extended;
    await expect(warning).toBeHidden();

    await page.clock.fastForward("13:10");
    await expect(warning).toBeVisible();
    const other = await context.newPage();
    await other.goto("/security");
    await idleTimerRunning(other);
    await other.keyboard.press("Shift");
    await expect(warning).toBeHidden();
    await expect(page).toHaveURL(`${baseURL}/welcome`);
  });

  test("activity in another tab of the site counts", async ({ page, context, baseURL }) => {
    await page.clock.install();
    await signIn(page, baseURL, "configurator@example.com");
    await page.goto("/welcome");
    await idleTimerRunning(page);
    let signOuts = 0;
    context.on("request", (r) => {
      if (r.url().endsWith("/api/sign-out")) signOuts += 1;
    });
    const other = await context.newPage();
    await other.goto("/security");
    await idleTimerRunning(other);

    const lastActivity = () => page.evaluate(() => Number(localStorage.getItem("last-activity-at")));
    const before = await lastActivity();
    await page.clock.fastForward("10:00");
    await other.keyboard.press("Shift");
    await expect.poll(lastActivity).toBeGreaterThanOrEqual(before + 10 * 60_000);

    // 16 minutes after this tab's last own activity, 6 after the other tab's: still signed in.
    await page.clock.fastForward("06:00");
    await noSignOutFollows(page, () => signOuts);
    await expect(page).toHaveURL(`${baseURL}/welcome`);
  });
});
