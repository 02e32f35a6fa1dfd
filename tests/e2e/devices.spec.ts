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
