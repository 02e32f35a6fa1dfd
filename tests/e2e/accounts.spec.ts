import { expect, type Page, test } from "./client-address";
import { holdScripts } from "./slow-scripts";

// The accounts screens as a person meets them, with JavaScript and without: adding an
// account, finding it by search, editing its General tab, a stale edit from a second page,
// the network settings with a write-only Wi-Fi passphrase, deleting by typing the name; one
// pass in French; and a viewer, who may look but not add. Every test works on accounts it
// creates itself (the demo accounts are shared with other specs), with names that match none
// of the demo names other specs search for (Harbor, Metro, Lakeside).

const DEMO_PASSWORD = "radios-demo-2025";

async function signIn(page: Page, baseURL: string | undefined, email = "owner@example.com") {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

/** A name no other test (or earlier run against the same server) uses. */
function uniqueName(prefix: string): string {
  return `${prefix} ${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Uncaught errors and console errors (a hydration mismatch is one); not the browser's notes
 * about answers with an error status, which refused forms get on purpose.
 */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}

/**
 * Saves a form that comes back to its own page: with JavaScript the island posts and then
 * loads the page again, without it the browser posts and follows the redirect. Either way,
 * wait for the new page before looking at it (a toast of the last save may still show).
 */
async function saveAndReload(page: Page, button: ReturnType<Page["getByRole"]>) {
  const navigated = page.waitForEvent("framenavigated", (frame) => frame === page.mainFrame());
  await button.click();
  await navigated;
  await page.waitForLoadState();
}

const main = (page: Page) => page.getByRole("main");

/** Islands hydrate after load; with JavaScript, wait for them before using their forms. */
async function settle(page: Page, javaScript: boolean) {
  if (javaScript) await page.waitForLoadState("networkidle");
}

/** The flash of a redirected post: a toast with JavaScript, a status message without. */
async function expectFlash(page: Page, text: string) {
  await expect(page.getByText(text, { exact: true }).first()).toBeVisible();
}

async function addAccount(page: Page, javaScript: boolean, name: string): Promise<string> {
  await page.goto("/accounts");
  await main(page).getByRole("link", { name: "Add account" }).first().click();
  await expect(page.getByRole("heading", { level: 1, name: "Add account" })).toBeVisible();
  await settle(page, javaScript);
  // Without a name the form says so and adds nothing.
  await page.getByRole("button", { name: "Add account" }).click();
  await expect(main(page).getByRole("alert").getByRole("link", { name: "Enter the account name." })).toBeVisible();
  await expect(page.getByLabel("Account name")).toHaveAttribute("aria-invalid", "true");

  await page.getByLabel("Account name").fill(name);
  await page.getByLabel("Subscription level").selectOption("advanced");
  await page.getByLabel("Time zone").selectOption("America/Chicago");
  await page.getByLabel("Organization").selectOption("org_metro");
  await page.getByRole("button", { name: "Add account" }).click();
  await expect(page).toHaveURL(/\/accounts\/acc_[a-z0-9]+$/);
  await expectFlash(page, `Account “${name}” added.`);
  return new URL(page.url()).pathname.split("/").at(-1) ?? "";
}

async function findBySearch(page: Page, name: string, id: string) {
  await page.goto("/accounts");
  await main(page).getByLabel("Search by name").fill(name);
  await main(page).getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/accounts\?q=/);
  await expect(main(page).getByText(`1 account matches “${name}”`)).toBeVisible();
  const row = main(page).getByRole("row").filter({ hasText: name });
  await expect(row).toContainText("Metro Transit Authority");
  await expect(row).toContainText("Advanced");
  await expect(row.getByRole("link", { name })).toHaveAttribute("href", `/accounts/${id}`);
}

async function editGeneral(page: Page, javaScript: boolean, id: string, name: string) {
  await page.goto(`/accounts/edit/${id}`);
  await expect(page).toHaveURL(`/accounts/edit/${id}/general`);
  await expect(page.getByRole("link", { name: "General" })).toHaveAttribute("aria-current", "page");
  await settle(page, javaScript);
  await expect(page.getByLabel("Time zone")).toHaveValue("America/Chicago");
  await page.getByLabel("Account name").fill(name);
  await page.getByLabel("Time zone").selectOption("Europe/Paris");
  await saveAndReload(page, page.getByRole("button", { name: "Save changes" }));
  await expectFlash(page, `Account “${name}” saved.`);
  await expect(page.getByLabel("Account name")).toHaveValue(name);
  await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Paris");
}

const network = (page: Page, number: number) => page.getByRole("group", { name: `Network ${number}`, exact: true });

async function editNetwork(page: Page, javaScript: boolean, id: string) {
  const passphrase = `depot-${Math.random().toString(36).slice(2, 10)}`;
  await page.getByRole("link", { name: "Network config" }).click();
  await expect(page).toHaveURL(`/accounts/edit/${id}/network`);
  await settle(page, javaScript);
  // Stored: nothing yet, so one empty row.
  await expect(network(page, 2)).toHaveCount(0);
  await network(page, 1).getByLabel("Network name (SSID)").fill("Depot");
  await network(page, 1).getByLabel("Passphrase").fill(passphrase);
  await network(page, 1).getByLabel("Priority").fill("5");

  await page.getByRole("button", { name: "Add another network" }).click();
  await expect(network(page, 2)).toBeVisible();
  // Nothing typed was lost on the way (without JavaScript the form went to the server and back).
  await expect(network(page, 1).getByLabel("Network name (SSID)")).toHaveValue("Depot");
  await network(page, 2).getByLabel("Network name (SSID)").fill("Guest");
  await network(page, 2).getByLabel("Security").selectOption("open");
  if (javaScript) {
    await expect(network(page, 2).getByLabel("Passphrase")).toBeDisabled();
    await expect(network(page, 2).getByText("Open networks have no passphrase.")).toBeVisible();
  }
  await page.getByLabel("DNS servers").fill("1.1.1.1\n8.8.8.8");
  await saveAndReload(page, page.getByRole("button", { name: "Save network settings" }));
  await expectFlash(page, "Network settings saved. Deploy the changes to send them to the radios.");
  await settle(page, javaScript);

  // Write-only: the passphrase is never shown again, only that one is set.
  await expect(network(page, 1).getByLabel("Network name (SSID)")).toHaveValue("Depot");
  await expect(network(page, 1).getByLabel("Passphrase")).toHaveValue("");
  await expect(network(page, 1).getByText("Set — leave blank to keep it.")).toBeVisible();
  await expect(network(page, 2).getByLabel("Security")).toHaveValue("open");
  expect(await page.content()).not.toContain(passphrase);

  // A later save with the passphrase left blank keeps it; the Guest network is removed.
  await network(page, 1).getByLabel("Priority").fill("9");
  if (javaScript) await network(page, 2).getByRole("button", { name: "Remove this network" }).click();
  else await network(page, 2).getByLabel("Remove this network").check();
  await saveAndReload(page, page.getByRole("button", { name: "Save network settings" }));
  await expectFlash(page, "Network settings saved. Deploy the changes to send them to the radios.");
  await expect(network(page, 1).getByLabel("Priority")).toHaveValue("9");
  await expect(network(page, 1).getByText("Set — leave blank to keep it.")).toBeVisible();
  await expect(network(page, 2).getByLabel("Network name (SSID)")).toHaveValue(""); // the empty row again
  expect(await page.content()).not.toContain(passphrase);
}

async function deleteAccount(page: Page, javaScript: boolean, id: string, name: string) {
  await page.goto(`/accounts/edit/${id}/general`);
  await settle(page, javaScript);
  const section = page.getByRole("region", { name: "Delete account" });
  await expect(section).toContainText("This cannot be undone.");
  await section.getByLabel(`Type “${name}” to confirm`).fill(name.toLowerCase());
  await section.getByRole("button", { name: "Delete account" }).click();
  await expect(section.getByRole("link", { name: "Type the account’s exact name to confirm." })).toBeVisible();
  await section.getByLabel(`Type “${name}” to confirm`).fill(name);
  await section.getByRole("button", { name: "Delete account" }).click();
  await expect(page).toHaveURL("/accounts");
  await expectFlash(page, `Account “${name}” deleted.`);
  await page.goto(`/accounts?q=${encodeURIComponent(name)}`);
  await expect(main(page).getByText("No accounts found")).toBeVisible();
}

/** Two pages edit the same account; the second save is stale and says so. */
async function staleEdit(page: Page, javaScript: boolean, id: string) {
  const other = await page.context().newPage();
  await other.goto(`/accounts/edit/${id}/general`);
  await page.goto(`/accounts/edit/${id}/general`);
  await settle(page, javaScript);

  const theirs = uniqueName("Saved First");
  await other.getByLabel("Account name").fill(theirs);
  await saveAndReload(other, other.getByRole("button", { name: "Save changes" }));
  await expectFlash(other, `Account “${theirs}” saved.`);
  await other.close();

  const mine = uniqueName("Typed Second");
  await page.getByLabel("Account name").fill(mine);
  await page.getByLabel("Subscription level").selectOption("advanced");
  await page.getByRole("button", { name: "Save changes" }).click();
  const alert = main(page).getByRole("alert");
  await expect(alert).toContainText("Someone else changed this while you were editing.");
  await expect(page.getByLabel("Account name")).toHaveValue(mine);
  await expect(page.getByLabel("Subscription level")).toHaveValue("advanced");

  await alert.getByRole("link", { name: "Load the current version (discards what you typed)" }).click();
  await expect(page.getByLabel("Account name")).toHaveValue(theirs);
  await expect(main(page).getByRole("alert")).toHaveCount(0);
}

for (const javaScript of [true, false]) {
  test.describe(javaScript ? "with JavaScript" : "without JavaScript", () => {
    test.use({ javaScriptEnabled: javaScript });

    test("adds an account, finds it, edits General and Network config, then deletes it", async ({ page, baseURL }) => {
      test.slow(); // a whole journey on a two-core machine
      const errors = watchErrors(page);
      await signIn(page, baseURL);
      const name = uniqueName(javaScript ? "Ferry Line JS" : "Ferry Line NoJS");
      const id = await addAccount(page, javaScript, name);
      await findBySearch(page, name, id);
      const renamed = `${name} Renamed`;
      await editGeneral(page, javaScript, id, renamed);
      await editNetwork(page, javaScript, id);
      await deleteAccount(page, javaScript, id, renamed);
      expect(errors).toEqual([]);
    });

    test("a stale edit keeps what was typed and offers the current version", async ({ page, baseURL }) => {
      const errors = watchErrors(page);
      await signIn(page, baseURL);
      const id = await addAccount(page, javaScript, uniqueName("Contested Fleet"));
      await staleEdit(page, javaScript, id);
      expect(errors).toEqual([]);
    });
  });
}

test.describe("sorting and paging through the URL", () => {
  test.use({ javaScriptEnabled: false });

  test("sorts by a header link and says how it is sorted", async ({ page, baseURL }) => {
    await signIn(page, baseURL);
    await page.goto("/accounts");
    const nameHeader = main(page).getByRole("columnheader", { name: /Name/ });
    await expect(nameHeader).toHaveAttribute("aria-sort", "ascending");
    await nameHeader.getByRole("link").click();
    await expect(page).toHaveURL("/accounts?sort=-name");
    await expect(main(page).getByRole("columnheader", { name: /Name/ })).toHaveAttribute("aria-sort", "descending");
    await main(page)
      .getByRole("columnheader", { name: /Last updated/ })
      .getByRole("link")
      .click();
    await expect(page).toHaveURL("/accounts?sort=-updated");
    // Pages are cursor links (Previous / Next) shown only when there is more than one page.
    await expect(main(page).getByText(/^[\d,]+\+? accounts?$/)).toBeVisible();
  });
});

test.describe("in French", () => {
  test("adds an account with French labels, messages and flash", async ({ page, baseURL }) => {
    await page.context().addCookies([{ name: "lang", value: "fr-CA", url: baseURL ?? "" }]);
    await signIn(page, baseURL);
    await page.goto("/accounts/add");
    await expect(page.getByRole("heading", { level: 1, name: "Ajouter un compte" })).toBeVisible();
    await settle(page, true);
    await page.getByRole("button", { name: "Ajouter le compte" }).click();
    await expect(page.locator("[data-error-summary]").getByText("Entrez le nom du compte.")).toBeVisible();
    const name = uniqueName("Flotte du port");
    await page.getByLabel("Nom du compte").fill(name);
    await page.getByLabel("Niveau d'abonnement").selectOption("essential");
    await page.getByRole("button", { name: "Ajouter le compte" }).click();
    await expectFlash(page, `Le compte « ${name} » a été ajouté.`);
    await page.goto(`/accounts?q=${encodeURIComponent(name)}`);
    await expect(main(page).getByText(`1 compte correspond à « ${name} »`)).toBeVisible();
    await expect(main(page).getByRole("row").filter({ hasText: name })).toContainText("Essentiel");
  });
});

test.describe("in Toronto", () => {
  test.use({ timezoneId: "America/Toronto" });

  test("a new account starts from the browser's time zone", async ({ page, baseURL }) => {
    await signIn(page, baseURL);
    await page.goto("/accounts/add");
    await settle(page, true);
    await expect(page.getByLabel("Time zone")).toHaveValue("America/Toronto");
  });

  test("on a slow phone, a time zone chosen before the form's script has loaded is the one the account gets", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, baseURL);
    const name = uniqueName("Slow Ferry");
    const release = await holdScripts(page);
    await page.goto("/accounts/add", { waitUntil: "commit" });
    await page.getByLabel("Account name").fill(name);
    await page.getByLabel("Time zone").selectOption("Europe/Lisbon");
    release();
    // Hydrated (the island's effects have run once the page is quiet).
    await settle(page, true);
    await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Lisbon");
    // One more render (the pending post), and the server gets the person's zone.
    await page.getByRole("button", { name: "Add account" }).click();
    await expect(page).toHaveURL(/\/accounts\/acc_[a-z0-9]+$/);
    await expectFlash(page, `Account “${name}” added.`);
    const id = new URL(page.url()).pathname.split("/").at(-1) ?? "";
    await page.goto(`/accounts/edit/${id}/general`);
    await expect(page.getByLabel("Time zone")).toHaveValue("Europe/Lisbon");
  });
});

test.describe("a viewer", () => {
  test("sees the accounts without an Add button and may not open /accounts/add", async ({ page, baseURL }) => {
    await signIn(page, baseURL, "viewer@example.com");
    await page.goto("/accounts");
    await expect(page.getByRole("heading", { level: 1, name: "Accounts" })).toBeVisible();
    await expect(main(page).getByRole("row").nth(1)).toBeVisible();
    await expect(main(page).getByRole("link", { name: "Add account" })).toHaveCount(0);
    const response = await page.goto("/accounts/add");
    expect(response?.status()).toBe(403);
    await expect(page.getByText("This route is protected.").first()).toBeVisible();
  });
});
