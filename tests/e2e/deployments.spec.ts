import { expect, type Page, test } from "./client-address";

// Issue 12 end to end: a configurator reviews the changes of Harbor Demo Fleet, confirms a
// phased deployment, the demo radios in the simulator receive it phase by phase, a failure
// crosses the error threshold and pauses it, the configurator resumes and advances, a radio
// applies, the deployment finishes, and is rolled back — with JavaScript (live counts, the
// simulator's live connection) and without (forms and a Refresh link).
// The demo radios HD-0001…HD-0005 fall in rollout buckets 3986, 5133, 6280, 7427 and 8574:
// with phases "50, 100" only HD-0001 is in the first phase; the others keep the baseline.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_demo";

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email = "configurator@example.com") {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function simulatorCheckIn(page: Page, uid: string) {
  await page.goto("/simulator");
  await page.getByLabel("Demo radio").selectOption(uid);
  await page.getByRole("button", { name: "Switch on and check in" }).click();
  await expect(page.getByTestId("radio-screen")).toContainText(uid);
}

async function confirmPhased(page: Page) {
  await page.goto(`/accounts/${ACCOUNT}/changes`);
  await page.getByRole("link", { name: "Deploy…" }).click();
  await expect(page).toHaveURL(new RegExp(`/accounts/${ACCOUNT}/confirm-deployment$`));
  await expect(page.getByText(/This deployment targets \d+ radios?\./)).toBeVisible();
  await page.getByLabel("In phases").check();
  await page.getByLabel("Phases (% of radios, cumulative)").fill("50, 100");
  await page.getByLabel("Success threshold (% applied)").fill("25");
  await page.getByLabel("Error threshold").selectOption("count");
  await page.getByLabel("Pause at (failed or rejected)").fill("1");
  await page.getByLabel("Note").fill("Phased by the browser test");
  await page.getByRole("button", { name: "Confirm and deploy" }).click();
  await expect(page.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
  return page.url();
}

for (const javaScript of [true, false]) {
  test(`deploy, watch the simulator, pause on failure, resume, finish and roll back (${javaScript ? "with" : "without"} JavaScript)`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ javaScriptEnabled: javaScript, baseURL });
    const page = await context.newPage();
    const radio = await context.newPage();
    await signIn(page, baseURL);
    // A deployment before this one, so there is a revision to roll back to.
    const baseline = await page.request.post("/api/deployments.create", {
      data: { accountId: ACCOUNT, note: "Baseline" },
      headers: { Origin: baseURL ?? "" },
    });
    expect(baseline.status()).toBe(200);
    const baselineNumber = ((await baseline.json()) as { result: { data: { number: number } } }).result.data.number;
    const deploymentUrl = await confirmPhased(page);

    // The first phase's radio receives it; the second phase's does not yet.
    const badge = page.locator('[data-live-part="deployment-state"]');
    await expect(badge).toHaveText("running");
    await expect(page.getByRole("button", { name: "Pause" })).toBeVisible();
    // With JavaScript the page stays open from here on: a reload would lose this mark.
    if (javaScript) await page.evaluate(() => Object.assign(window, { notReloaded: true }));
    // The second phase's radio is not given the phased deployment yet: it keeps what the baseline,
    // an earlier decision, gave it (never sent back to anything older).
    await simulatorCheckIn(radio, "HD-0002");
    await expect(radio.getByTestId("radio-deployment")).toContainText(`Deployment #${baselineNumber} (superseded)`);
    // Without scripts the simulator never connects live, and says so instead of "connecting…".
    if (!javaScript) await expect(radio.getByTestId("simulator-live")).toContainText("needs JavaScript");
    await simulatorCheckIn(radio, "HD-0001");
    await expect(radio.getByTestId("radio-offer")).toBeVisible();
    await radio.getByRole("button", { name: "Fail" }).click();
    await expect(radio.getByTestId("radio-deployment")).toContainText("failed");

    // The failure crossed the error threshold: paused, in the same request. With JavaScript the
    // open page's badge, banner and buttons follow; without, its Refresh link shows the same.
    if (!javaScript) await page.getByRole("link", { name: "Refresh" }).click();
    await expect(page.getByTestId("count-failed")).toHaveText("1");
    await expect(badge).toHaveText("paused");
    await expect(page.getByText("Paused automatically: the error threshold was crossed.")).toBeVisible();
    await expect(page.getByRole("button", { name: "Resume" })).toBeVisible();
    await expect(page.getByRole("button", { name: "Pause" })).toHaveCount(0);
    if (javaScript) expect(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded)).toBe(true);

    await page.getByRole("button", { name: "Resume" }).click();
    await expect(page.getByTestId("deployment-live-state")).toContainText("running");
    await page.getByRole("button", { name: "Advance to the next phase" }).click();
    await expect(page.getByTestId("deployment-live-state")).toContainText("phase 2");

    // The second phase's radio now gets it and applies it: 1 of 4 is the 25 % success threshold.
    await simulatorCheckIn(radio, "HD-0002");
    await expect(radio.getByTestId("radio-offer")).toBeVisible();
    await radio.getByRole("button", { name: "Accept and apply" }).click();
    await expect(radio.getByTestId("radio-revision")).toContainText("Running revision");

    await page.goto(deploymentUrl);
    await expect(page.getByTestId("deployment-live-state")).toContainText("finished");
    await expect(page.getByTestId("count-applied")).toHaveText("1");

    await page.getByRole("button", { name: "Roll back to the previous revision" }).click();
    await expect(page.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
    expect(page.url()).not.toBe(deploymentUrl);
    await context.close();
  });
}

test("a viewer cannot confirm deployments, and another tenant's deployment is not found", async ({ page, baseURL }) => {
  await signIn(page, baseURL, "viewer@example.com");
  await page.goto(`/accounts/${ACCOUNT}/confirm-deployment`);
  await expect(page.getByRole("heading", { level: 1 })).not.toHaveText("Confirm deployment");
  await signIn(page, baseURL, "outsider@example.net");
  const response = await page.goto(`/accounts/${ACCOUNT}/deployments`);
  expect(response?.status()).toBe(404);
});

test("the simulator refuses wrong credentials with a clear message", async ({ page }) => {
  await page.goto("/simulator");
  await page.getByLabel("Radio uid").fill("HD-0001");
  await page.getByLabel("Device secret").fill("wrong-secret");
  await page.getByRole("button", { name: "Switch on and check in" }).click();
  await expect(page.getByText(/The server refused the radio \(HTTP 401\)/)).toBeVisible();
});
