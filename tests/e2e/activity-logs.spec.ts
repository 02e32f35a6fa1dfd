import { type APIRequestContext, expect, type Page, test } from "./client-address";

// The activity log, the changes to deploy and the account home as people meet them in Harbor
// Demo Fleet: a configurator changes the network settings and finds the change (with its diff)
// on the log, filters it, loads more (with JavaScript and without), downloads the CSV, sees
// the banner and reviews the pending changes; a technician sees the banner without the
// button; one pass in French. The tests share the account's network settings, so they run
// one after another.

const DEMO_PASSWORD = "radios-demo-2025";
// Its own demo account: other specs change Harbor Demo Fleet, and the pending count must be ours.
const HARBOR = "acc_harbor_depot";
const LOG = `/accounts/${HARBOR}/activity-logs`;

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function apiQuery<T>(request: APIRequestContext, path: string, input: unknown): Promise<T> {
  const response = await request.get(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`);
  const body = (await response.json()) as { result: { data: T } };
  return body.result.data;
}

/**
 * Network changes through the API, each a log entry, so the log has more than a page of
 * them. The settings read back go back unchanged but for the NTP servers (secrets stay kept).
 */
async function networkChanges(request: APIRequestContext, baseURL: string | undefined, count: number) {
  for (let n = 0; n < count; n += 1) {
    const { version, config } = await apiQuery<{ version: number; config: Record<string, unknown> }>(
      request,
      "accounts.networkConfig",
      { id: HARBOR },
    );
    const response = await request.post("/api/accounts.updateNetworkConfig", {
      data: { id: HARBOR, version, config: { ...config, ntpServers: [`ntp${n}-${Date.now().toString(36)}.example.com`] } },
      headers: { Origin: baseURL ?? "" },
    });
    // Someone else saved first (another spec on the same server): read again and retry.
    if (response.status() === 409) n -= 1;
    else expect(response.status()).toBe(200);
  }
}

async function pendingCount(request: APIRequestContext): Promise<number> {
  return (await apiQuery<{ count: number }>(request, "activityLogs.listChangesToDeploy", { accountId: HARBOR, limit: 0 })).count;
}

/** Uncaught errors and console errors (a hydration mismatch is one). */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}

const entries = (page: Page) => page.locator("[data-activity-entry]");

async function entryIds(page: Page): Promise<string[]> {
  return entries(page).evaluateAll((items) => items.map((item) => item.getAttribute("data-activity-entry") ?? ""));
}

/** A DNS server address no earlier run used. */
function uniqueDns(): string {
  const part = () => Math.floor(Math.random() * 250) + 1;
  return `10.${part()}.${part()}.${part()}`;
}

/** The configurator changes the DNS servers on the Network tab, as a person does. */
async function changeDns(page: Page, javaScript: boolean, dns: string) {
  await page.goto(`/accounts/edit/${HARBOR}/network`);
  if (javaScript) await page.waitForLoadState("networkidle");
  await page.getByLabel("DNS servers").fill(dns);
  const navigated = page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame());
  await page.getByRole("button", { name: "Save network settings" }).click();
  await navigated;
  await page.waitForLoadState();
  // Back on the tab, read from the server: the new value is the stored one.
  await expect(page.getByLabel("DNS servers")).toHaveValue(dns);
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: javaScript });

    test("a change reaches the log with its diff, the banner, the review and the home", async ({ page, baseURL }) => {
      await signIn(page, baseURL, "configurator@example.com");
      const dns = uniqueDns();
      await changeDns(page, javaScript, dns);

      await page.goto(LOG);
      await expect(page.getByRole("heading", { level: 1, name: "Activity logs" })).toBeVisible();
      const newest = entries(page).first();
      await expect(newest).toContainText("Network settings");
      await expect(newest).toContainText("Harbor Depot Radios");
      await expect(newest).toContainText("by configurator@example.com");
      await expect(newest).toContainText("Not deployed yet");
      await expect(newest.getByRole("listitem").filter({ hasText: "DNS servers" })).toContainText(dns);
      await expect(page.getByText("Times are in the account's time zone (Eastern Time – New York).")).toBeVisible();

      // The banner counts what waits to be deployed, and offers the review.
      const count = await pendingCount(page.request);
      expect(count).toBeGreaterThan(0);
      const banner = page.locator("[data-pending-changes]");
      await expect(banner).toContainText(`${count.toLocaleString("en")} change${count === 1 ? "" : "s"} not deployed yet`);
      await banner.getByRole("link", { name: "Review changes" }).click();
      await expect(page).toHaveURL(`/accounts/${HARBOR}/changes`);
      await expect(page.getByRole("heading", { level: 1, name: "Review changes" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Deploy…" })).toBeVisible();
      await expect(entries(page).first()).toContainText(dns);
      await expect(page.getByRole("button", { name: /confirm/i })).toHaveCount(0);

      // The home sums up the account and names this change as the last one.
      await page.getByRole("navigation", { name: "Account sections" }).getByRole("link", { name: "Home" }).click();
      await expect(page.getByRole("heading", { name: "Configured in this account" })).toBeVisible();
      const last = page.getByRole("region", { name: "Last configuration change" });
      await expect(last).toContainText("Network settings");
      await expect(last).toContainText(dns);
      const devices = page.getByRole("region", { name: "Devices" });
      await expect(devices.getByRole("link", { name: "See the account's radios" })).toHaveAttribute(
        "href",
        `/accounts/${HARBOR}/registry/devices`,
      );
      await expect(page.getByRole("link", { name: /^Sites: \d+$/ })).toHaveAttribute("href", `/accounts/${HARBOR}/sites`);
    });

    test("filters by type, loads more, and downloads the filtered CSV", async ({ page, baseURL }) => {
      const errors = watchErrors(page);
      await signIn(page, baseURL, "configurator@example.com");
      await networkChanges(page.request, baseURL, 27);
      await page.goto(LOG);
      if (javaScript) await page.waitForLoadState("networkidle");

      await page.getByLabel("Type").selectOption("network-config");
      await page.getByRole("button", { name: "Apply filters" }).click();
      // A GET form: the filters are in the URL (the empty ones too), so the view can be shared.
      await expect(page).toHaveURL(/\/activity-logs\?type=network-config&/);
      const filteredUrl = page.url();
      await expect(entries(page)).toHaveCount(25);
      for (const text of await entries(page).allInnerTexts()) expect(text).toContain("Network settings");
      const firstPage = await entryIds(page);

      if (javaScript) {
        await page.waitForLoadState("networkidle");
        await page.getByRole("button", { name: "Load more" }).click();
        await expect.poll(() => entries(page).count()).toBeGreaterThan(25);
        const ids = await entryIds(page);
        expect(new Set(ids).size).toBe(ids.length);
        expect(ids.slice(0, 25)).toEqual(firstPage);
        // Appended in place: still the same page, and a screen reader hears how many are shown.
        expect(page.url()).toBe(filteredUrl);
        await expect(page.getByRole("status").filter({ hasText: /^Entries shown: \d+$/ })).toHaveCount(1);
        // Either more remain (the button again) or the log ended: then the focus is on the line that says so.
        const end = page.getByText("No older entries.");
        await expect(end.or(page.getByRole("button", { name: "Load more" }))).toBeVisible();
        if (await end.isVisible()) await expect(end).toBeFocused();
      } else {
        await page.getByRole("link", { name: "Load more" }).click();
        await expect(page).toHaveURL(/[?&]type=network-config&cursor=[\w-]+$/);
        await expect(entries(page)).not.toHaveCount(0);
        const next = await entryIds(page);
        expect(next.some((id) => firstPage.includes(id))).toBe(false);
        for (const text of await entries(page).allInnerTexts()) expect(text).toContain("Network settings");
        await page.getByRole("link", { name: "Back to the newest" }).click();
        await expect(page).toHaveURL(`${LOG}?type=network-config`);
      }

      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Download CSV" }).click();
      const file = await download;
      expect(file.suggestedFilename()).toBe(`activity-log-${HARBOR}.csv`);
      const text = (await (await file.createReadStream()).toArray()).join("");
      const records = text
        .replace(/^\uFEFF/, "")
        .split("\r\n")
        .filter(Boolean);
      expect(records[0]).toBe('Time (America/New_York),"Time (UTC, ISO 8601)",Changed by,Action,Type,Name,ID,Changes,Deployment');
      expect(records.length).toBeGreaterThan(27);
      for (const record of records.slice(1)) expect(record).toContain(",Updated,Network settings,Harbor Depot Radios,");
      expect(errors).toEqual([]);
    });
  });
}

test("a technician sees the banner without the Review changes button, and may not open the review", async ({ page, baseURL }) => {
  await signIn(page, baseURL, "technician@example.com");
  const count = await pendingCount(page.request);
  await page.goto(`/accounts/${HARBOR}`);
  const banner = page.locator("[data-pending-changes]");
  await expect(banner).toContainText(`${count.toLocaleString("en")} changes not deployed yet`);
  await expect(banner.getByRole("link")).toHaveCount(0);
  await page.goto(`/accounts/${HARBOR}/changes`);
  await expect(page.getByText("This route is protected.")).toBeVisible();
  // The log is open to everyone in the account.
  await page.goto(LOG);
  await expect(entries(page).first()).toBeVisible();
});

test("in French: the log, the banner and its plural, dates in French", async ({ page, baseURL }) => {
  const errors = watchErrors(page);
  await signIn(page, baseURL, "configurator@example.com");
  await page.context().addCookies([{ name: "lang", value: "fr-CA", url: baseURL ?? "" }]);
  const count = await pendingCount(page.request);
  await page.goto(`${LOG}?type=network-config`);
  await expect(page.getByRole("heading", { level: 1, name: "Journal d'activité" })).toBeVisible();
  const banner = page.locator("[data-pending-changes]");
  await expect(banner).toContainText(`${count.toLocaleString("fr-CA")} changements pas encore déployés`);
  await expect(banner.getByRole("link", { name: "Réviser les changements" })).toBeVisible();
  const newest = entries(page).first();
  await expect(newest).toContainText("Paramètres réseau");
  await expect(newest).toContainText("par configurator@example.com");
  // French dates: the month in French, the 24-hour clock, the account's time zone named.
  await expect(newest.locator("time")).toHaveText(/^\d{1,2}\s[a-zéû]+\.?\s\d{4},\s\d{1,2}\sh\s\d{2}\s\S+$/);
  await page.waitForLoadState("networkidle");
  await page.getByRole("button", { name: "Afficher plus" }).click();
  await expect.poll(() => entries(page).count()).toBeGreaterThan(25);
  await expect(entries(page).nth(25)).toContainText("Paramètres réseau");
  await expect(entries(page).nth(25).locator("time")).toHaveText(/^\d{1,2}\s[a-zéû]+\.?\s\d{4},\s\d{1,2}\sh\s\d{2}\s\S+$/);
  expect(errors).toEqual([]);
});
