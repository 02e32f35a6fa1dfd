import { randomUUID } from "node:crypto";
import { readFile } from "node:fs/promises";
import { expect, type Page, test } from "./client-address";
import { holdScripts } from "./slow-scripts";

// The device inventory as a fleet manager meets it, with JavaScript on and off: register a
// radio (its secret shown once), find it, assign it, re-assign it, tag it in bulk, import two
// more from CSV (dry run first), export the filtered list, retire it. Every test makes its own uids.

const DEMO_PASSWORD = "radios-demo-2025";
const DEPOT = "acc_harbor_depot";
const FIELD = "acc_harbor_field";

async function signIn(page: Page, baseURL: string | undefined, email: string) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A radio registered through the API, in an account (or none). */
async function addRadio(page: Page, baseURL: string | undefined, uid: string, accountId: string | null) {
  const response = await page.request.post("/api/devices.add", {
    data: { uid, brand: "Northwind", model: "XR-7", accountId },
    headers: { Origin: baseURL ?? "" },
  });
  expect(response.status()).toBe(200);
}

for (const javaScriptEnabled of [true, false]) {
  const mode = javaScriptEnabled ? "with JavaScript" : "without JavaScript";

  test.describe(`devices ${mode}`, () => {
    test.use({ javaScriptEnabled });

    test("register, find, assign, re-assign, tag, import, export, retire", async ({ page, baseURL }) => {
      // A whole working session: about twenty page loads.
      test.setTimeout(180_000);
      const stem = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
      const uid = `${stem}-1`;
      await signIn(page, baseURL, "owner@example.com");

      // Register: the secret is shown once, with what provisioning needs.
      await page.goto("/devices");
      await page.getByRole("link", { name: "Add radio" }).click();
      await page.getByLabel("UID (serial)").fill(uid);
      await page.getByLabel("Model").fill("XR-7");
      await page.getByLabel("Name").fill("Harbor tug");
      await page.getByRole("button", { name: "Register radio" }).click();
      await expect(page.getByRole("heading", { name: "Device secret: copy it now" })).toBeVisible();
      await expect(page.getByText(`Authorization: Bearer ${uid}:`)).toBeVisible();

      // Find it.
      await page.goto("/devices");
      await page.getByLabel("Search").fill(stem);
      await page.getByRole("button", { name: "Filter" }).click();
      await expect(page.getByRole("link", { name: uid })).toBeVisible();

      // Assign to the depot, then re-assign to the field crews.
      for (const [account, name] of [
        [DEPOT, "Harbor Depot Radios"],
        [FIELD, "Harbor Field Crews"],
      ] as const) {
        await page.goto(`/devices/uid/${uid}/edit`);
        await page.getByLabel("Account").selectOption(account);
        await page.getByRole("button", { name: "Show its sites" }).click();
        await page.getByRole("button", { name: "Save assignment" }).click();
        await expect(page.getByRole("heading", { level: 1, name: "Radio assignment" })).toBeVisible();
        await expect(page.getByText(name)).toBeVisible();
      }

      // Tag it in bulk: tick it, add a tag.
      await page.goto(`/devices?q=${stem}`);
      await page.getByRole("checkbox", { name: `Choose ${uid}` }).check();
      await page.getByLabel("Action").selectOption("addTag");
      await page.getByLabel("Tag", { exact: true }).fill("tugboat");
      await page.getByRole("button", { name: "Apply" }).click();
      await page.goto("/devices?q=tugboat");
      await expect(page.getByRole("link", { name: uid })).toBeVisible();

      // Import two more: the dry run first, then the import with their secrets.
      await page.goto("/devices/import");
      await page.getByLabel("Or paste the rows").fill(`uid,model,name\n${stem}-2,XR-9,Barge 2\n${stem}-3,XR-9,Barge 3\n`);
      await page.getByRole("button", { name: "Check the file" }).click();
      await expect(page.getByRole("heading", { name: "No problems found" })).toBeVisible();
      await page.getByLabel("Import now if there is no problem").check();
      await page.getByRole("button", { name: "Check the file" }).click();
      await expect(page.getByRole("heading", { name: "Imported: 2 registered, 0 updated" })).toBeVisible();
      await expect(page.getByLabel("Secrets (CSV)")).toContainText(`${stem}-3,`);

      // Export what the search finds.
      await page.goto(`/devices?q=${stem}`);
      const download = page.waitForEvent("download");
      await page.getByRole("link", { name: "Export CSV" }).click();
      const file = await (await download).path();
      const csv = await readFile(file, "utf8");
      expect(csv.trim().split("\r\n")).toHaveLength(4);
      expect(csv).toContain(`${uid},Northwind,XR-7,Harbor tug,tugboat,Harbor Field Crews`);

      // Retire it: it leaves the active list.
      await page.goto(`/devices/edit/${uid}`);
      await page.getByRole("button", { name: "Retire radio" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Devices" })).toBeVisible();
      if (javaScriptEnabled)
        await expect(page.getByRole("status").getByText(`Radio ${uid} retired; its seat is free.`)).toBeVisible();
      await page.goto(`/devices/view/${uid}`);
      await expect(page.getByText("Retired", { exact: true })).toBeVisible();
      await page.goto(`/devices?q=${stem}`);
      await expect(page.getByRole("link", { name: uid })).toHaveCount(0);
      await expect(page.getByRole("link", { name: `${stem}-2` })).toBeVisible();
    });

    test("the account chosen on a radio's assignment is the one saved, even chosen before the scripts load", async ({
      page,
      baseURL,
    }) => {
      const uid = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
      await signIn(page, baseURL, "owner@example.com");
      await addRadio(page, baseURL, uid, DEPOT);
      // A slow phone: the account is chosen while the page's scripts are still coming.
      const release = javaScriptEnabled ? await holdScripts(page) : () => {};
      await page.goto(`/devices/uid/${uid}/edit`, { waitUntil: "commit" });
      await page.getByLabel("Account").selectOption(FIELD);
      release();
      await page.getByRole("button", { name: "Save assignment" }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Radio assignment" })).toBeVisible();
      await expect(page.getByText("Harbor Field Crews")).toBeVisible();
      await expect(page.getByText("Harbor Depot Radios")).toHaveCount(0);
    });

    test("assigning a radio of another account names it and asks first; no free seat is said", async ({ page, baseURL }) => {
      const uid = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
      await signIn(page, baseURL, "owner@example.com");
      await addRadio(page, baseURL, uid, FIELD);
      // An account with no seats at all.
      const added = await page.request.post("/api/accounts.add", {
        data: { orgId: "org_harbor", name: `Seatless ${uid}` },
        headers: { Origin: baseURL ?? "" },
      });
      const seatless = ((await added.json()) as { result: { data: { _id: string } } }).result.data._id;

      for (const [account, name] of [
        [seatless, `Seatless ${uid}`],
        [DEPOT, "Harbor Depot Radios"],
      ] as const) {
        await page.goto(`/accounts/${account}/registry/devices/add`);
        await page.getByLabel("UID (serial)").first().fill(uid);
        await page.getByRole("button", { name: "Assign to this account" }).click();
        await expect(page.getByRole("heading", { name: `${uid} is assigned to Harbor Field Crews` })).toBeVisible();
        await page.getByRole("button", { name: `Move it to ${name}` }).click();
        if (account === seatless)
          // Refused with its reason: the radio stays in the field crews.
          await expect(page.getByText("This account has no free seats.")).toBeVisible();
      }
      await expect(page).toHaveURL(new RegExp(`/accounts/${DEPOT}/registry/devices/view/${uid}$`));
      const view = await page.request.get(`/api/devices.details?input=${encodeURIComponent(JSON.stringify({ uid }))}`);
      expect(((await view.json()) as { result: { data: { device: { accountId: string } } } }).result.data.device.accountId).toBe(
        DEPOT,
      );
    });

    test("no free seat is said on the registry's assign form", async ({ page, baseURL }) => {
      const uid = `E2E-${randomUUID().slice(0, 8).toUpperCase()}`;
      await signIn(page, baseURL, "owner@example.com");
      await addRadio(page, baseURL, uid, null);
      const added = await page.request.post("/api/accounts.add", {
        data: { orgId: "org_harbor", name: `Seatless ${uid}` },
        headers: { Origin: baseURL ?? "" },
      });
      const seatless = ((await added.json()) as { result: { data: { _id: string } } }).result.data._id;
      await page.goto(`/accounts/${seatless}/registry/devices/add`);
      await page.getByLabel("UID (serial)").first().fill(uid);
      await page.getByRole("button", { name: "Assign to this account" }).click();
      await expect(
        page.getByText("This account has no free seats. Allocate more seats to it, or unassign a radio first."),
      ).toBeVisible();
      await expect(page.getByLabel("UID (serial)").first()).toHaveValue(uid);
    });

    test("a viewer sees the account's radios but no inventory screens", async ({ page, baseURL }) => {
      await signIn(page, baseURL, "viewer@example.com");
      await page.goto(`/accounts/${DEPOT}/registry/devices`);
      await expect(page.getByRole("heading", { level: 1, name: "Radios of this account" })).toBeVisible();
      await expect(page.getByRole("link", { name: "Add radio" })).toHaveCount(0);
      const answer = await page.goto("/devices");
      expect(answer?.status()).toBe(403);
    });
  });
}

// Hand-over to another management server (issue 23): chosen on the radio's page, cancellable
// until the radio (the simulator, with this radio's own credentials) accepts it at the check-in
// after it was told; then shown as confirmed and no longer cancellable.
for (const javaScriptEnabled of [true, false]) {
  test(`a radio is handed over to another server, cancelled once, then confirmed by the radio (${javaScriptEnabled ? "with" : "without"} JavaScript)`, async ({
    browser,
    baseURL,
  }) => {
    test.setTimeout(90_000);
    const context = await browser.newContext({ javaScriptEnabled, baseURL });
    const page = await context.newPage();
    const radio = await context.newPage();
    await signIn(page, baseURL, "technician@example.com");
    const uid = `E2E-HO-${randomUUID().slice(0, 8).toUpperCase()}`;
    const added = await page.request.post("/api/devices.add", {
      data: { uid, brand: "Northwind", model: "XR-7" },
      headers: { Origin: baseURL ?? "" },
    });
    expect(added.status()).toBe(200);
    const { secret } = ((await added.json()) as { result: { data: { secret: string } } }).result.data;

    await page.goto(`/devices/view/${uid}`);
    await page.getByRole("link", { name: "Hand over…" }).click();
    const state = page.getByTestId("hand-over-state");
    await expect(state).toHaveText("No hand-over: this radio answers to this server.");
    const address = page.getByLabel("Address of the other management server");
    await address.fill("http://fleet.example.net");
    await page.getByRole("button", { name: "Hand over", exact: true }).click();
    await expect(page.getByText("The address must start with https://").first()).toBeVisible();
    await address.fill("https://fleet.example.net/radios");
    await page.getByRole("button", { name: "Hand over", exact: true }).click();
    await expect(state).toContainText("Waiting for the radio: it is told to move to https://fleet.example.net/radios");
    await page.getByRole("button", { name: "Cancel the hand-over" }).click();
    await expect(state).toHaveText("No hand-over: this radio answers to this server.");
    await address.fill("https://fleet.example.net/radios");
    await page.getByRole("button", { name: "Hand over", exact: true }).click();
    await expect(state).toHaveAttribute("data-state", "waiting");

    // The radio is told at its check-in, and accepts at the next one.
    await radio.goto("/simulator");
    await radio.getByLabel("Radio uid").fill(uid);
    await radio.getByLabel("Device secret").fill(secret);
    await radio.getByRole("button", { name: "Switch on and check in" }).click();
    await expect(radio.getByTestId("radio-redirect")).toHaveText("https://fleet.example.net/radios");
    await radio.getByRole("button", { name: "Accept the hand-over" }).click();
    await expect(radio.getByTestId("radio-screen")).toBeVisible();
    await expect(radio.getByTestId("radio-redirect")).toHaveCount(0);

    await page.getByRole("link", { name: "Refresh" }).click();
    await expect(state).toContainText("Handed over: the radio confirmed at");
    await expect(page.getByRole("button", { name: "Cancel the hand-over" })).toHaveCount(0);
    // Every step is in the radio's activity: requested, cancelled, requested, confirmed by the radio.
    await page.goto(`/devices/view/${uid}`);
    await expect(page.getByText("hand-over to another server")).toHaveCount(3);
    await expect(page.getByText(`${uid} · hand-over confirmed by the radio`)).toBeVisible();
    await context.close();
  });
}
