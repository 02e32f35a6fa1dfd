import { expect, type Page, test } from "./client-address";
import { holdScripts } from "./slow-scripts";

// Profiles and rules of "Harbor Demo Fleet" as a configurator meets them: a channels profile
// and a device settings profile, a rule assigning both, two rules reordered (by keyboard with
// JavaScript, with the small forms without it), in English and in French; deleting a profile
// a rule uses, as its page says; stale edits and moves; and a technician kept out.
// The tests share one account's rule order, so they run one after another; each works on
// names of its own and removes what it made.

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_demo";
const PROFILES = `/accounts/${ACCOUNT}/profiles`;
const RULES = `/accounts/${ACCOUNT}/rules`;

test.describe.configure({ mode: "serial" });

async function signIn(page: Page, baseURL: string | undefined, email = "configurator@example.com") {
  const response = await page.request.post("/api/sign-in", {
    data: { username: email, password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

async function chooseLanguage(page: Page, baseURL: string | undefined, language: string) {
  const response = await page.request.post("/language", {
    form: { language, next: "/" },
    headers: { Origin: baseURL ?? "" },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(303);
}

/** A name no other test, or earlier run against the same server, uses. */
function unique(prefix: string): string {
  return `${prefix} ${Date.now().toString(36).slice(-5)}${Math.random().toString(36).slice(2, 5)}`;
}

/** Uncaught errors and console errors (a hydration mismatch is one), not the notes about refused posts. */
function watchErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on("pageerror", (error) => errors.push(error.message));
  page.on("console", (message) => {
    if (message.type() === "error" && !message.text().startsWith("Failed to load resource")) errors.push(message.text());
  });
  return errors;
}

/** A procedure called as the signed-in page (for setup, and to play "someone else"). */
async function call<T>(page: Page, baseURL: string | undefined, path: string, input: unknown): Promise<T> {
  const response = await page.request.post(`/api/${path}`, { data: input, headers: { Origin: baseURL ?? "" } });
  const body = (await response.json()) as { result?: { data: T }; error?: unknown };
  if (!body.result) throw new Error(`${path}: ${JSON.stringify(body.error)}`);
  return body.result.data;
}

/** Removes what a test made (rules first: a profile in use is only deleted with its rules named). */
async function cleanUp(page: Page, baseURL: string | undefined, ruleNames: string[], profileNames: string[]) {
  const rules = await page.request.get(
    `/api/rules.list?input=${encodeURIComponent(JSON.stringify({ accountId: ACCOUNT, pageSize: 100 }))}`,
  );
  const listed = ((await rules.json()) as { result: { data: { items: { id: string; name: string; version: number }[] } } }).result
    .data.items;
  for (const rule of listed.filter((r) => ruleNames.includes(r.name))) {
    await call(page, baseURL, "rules.delete", { id: rule.id, version: rule.version });
  }
  for (const name of profileNames) {
    const found = await page.request.get(
      `/api/profiles.list?input=${encodeURIComponent(JSON.stringify({ accountId: ACCOUNT, search: name }))}`,
    );
    const items = ((await found.json()) as { result: { data: { items: { id: string; name: string; version: number }[] } } })
      .result.data.items;
    for (const profile of items.filter((p) => p.name === name)) {
      await call(page, baseURL, "profiles.delete", { id: profile.id, version: profile.version, detachFromRules: [] });
    }
  }
}

const main = (page: Page) => page.getByRole("main");

/** Without JavaScript a flash is the status message that stays on the page. */
async function expectPlainFlash(page: Page, text: string) {
  await expect(page.getByRole("status").filter({ hasText: text })).toBeVisible();
}

/** With JavaScript a confirmation is a toast and also a status that stays on the page (issue 9 §4). */
async function expectConfirmation(page: Page, text: string) {
  await expect(page.getByRole("region", { name: /^(Notifications|Notificaciones|Notificações)/ }).getByText(text)).toBeVisible();
  await expect(page.locator("[data-flash]").getByRole("status")).toHaveText(text);
}

/** Islands hydrate after load; with JavaScript, wait for them before using their forms. */
async function settle(page: Page, javaScript: boolean) {
  if (javaScript) await page.waitForLoadState("networkidle");
}

/** The names of the rules on the list page, top first. */
async function ruleOrder(page: Page): Promise<string[]> {
  return main(page).locator("tbody tr td:nth-child(2) a").allTextContents();
}

async function expectBefore(page: Page, first: string, second: string) {
  await expect
    .poll(async () => {
      const order = await ruleOrder(page);
      return order.indexOf(first) >= 0 && order.indexOf(first) < order.indexOf(second);
    })
    .toBe(true);
}

test.describe("with JavaScript, in English", () => {
  test("adds a channels and a device profile, a rule assigning both, and reorders rules by keyboard", async ({
    page,
    baseURL,
  }) => {
    test.slow(); // a whole journey of many pages: its budget follows its length
    const errors = watchErrors(page);
    await signIn(page, baseURL);
    const channelsName = unique("Dock channels");
    const deviceName = unique("Dock radios");
    const ruleName = unique("Dock crew");
    const nightName = unique("Night crew");
    try {
      // Channels: the form checks before posting, rows are added in place.
      await page.goto(PROFILES);
      await main(page).getByRole("link", { name: "Add profile" }).first().click();
      await main(page)
        .getByRole("link", { name: /^Channels/ })
        .click();
      await expect(page).toHaveURL(`${PROFILES}/add?type=channels`);
      await settle(page, true);
      await page.getByLabel("Profile name").fill(channelsName);
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(page.locator("[data-error-summary]").getByText("Fill in at least one channel.")).toBeVisible();
      const first = page.getByRole("group", { name: "Channel 1", exact: true });
      await first.getByLabel("Name").fill("Dock 1");
      await first.getByLabel("Receive (MHz)").fill("462.5625");
      await first.getByLabel("Transmit (MHz)").fill("467.5625");
      await first.getByLabel("Tone").fill("67.0");
      await page.getByRole("button", { name: "Add another channel" }).click();
      const second = page.getByRole("group", { name: "Channel 2", exact: true });
      await expect(second.getByLabel("Name")).toBeFocused();
      await second.getByLabel("Name").fill("Dock 2");
      // 151 MHz is VHF; the profile is UHF.
      await second.getByLabel("Receive (MHz)").fill("151.0");
      await second.getByLabel("Transmit (MHz)").fill("467.5875");
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(second.getByLabel("Receive (MHz)")).toHaveAttribute("aria-invalid", "true");
      await expect(second.getByText(/Enter a frequency in MHz within the profile's band/)).toBeVisible();
      await second.getByLabel("Receive (MHz)").fill("462.5875");
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(page).toHaveURL(`${PROFILES}?type=channels`);
      await expectConfirmation(page, `Profile “${channelsName}” added.`);
      await expect(main(page).getByRole("row").filter({ hasText: channelsName })).toContainText("No rule");

      // Device settings: a rule only the server knows (lowest ≤ highest volume) comes back inline.
      await page.goto(`${PROFILES}/add?type=device`);
      await settle(page, true);
      await page.getByLabel("Profile name").fill(deviceName);
      await page.getByLabel("Display brightness").fill("7");
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(page.getByRole("alert").getByRole("link", { name: "Enter a whole number from 1 to 5." })).toBeVisible();
      await page.getByLabel("Display brightness").fill("4");
      await page.getByLabel("Lowest volume").fill("10");
      await page.getByLabel("Highest volume").fill("5");
      await page.getByLabel("Language of the radio's menus").selectOption({ label: "Spanish" });
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(
        page.locator("[data-error-summary]").getByText("The highest volume must be at least the lowest one."),
      ).toBeVisible();
      await expect(page.getByLabel("Profile name")).toHaveValue(deviceName);
      await page.getByLabel("Highest volume").fill("14");
      await page.getByRole("button", { name: "Add profile" }).click();
      await expect(page).toHaveURL(`${PROFILES}?type=device`);
      await expectConfirmation(page, `Profile “${deviceName}” added.`);

      // A rule assigning both: slots are added and reordered in place.
      await page.goto(`${RULES}/add`);
      await settle(page, true);
      await page.getByLabel("Rule name").fill(ruleName);
      await page.getByLabel("Tags").fill("dock, crane");
      await page.getByLabel("Profile 1").selectOption({ label: deviceName });
      await page.getByRole("button", { name: "Add another profile" }).click();
      await expect(page.getByLabel("Profile 2")).toBeFocused();
      await page.getByLabel("Profile 2").selectOption({ label: channelsName });
      await page.getByRole("button", { name: "Move up Profile 2" }).click();
      await expect(page.getByLabel("Profile 1").locator("option:checked")).toHaveText(channelsName);
      await expect(page.getByLabel("Profile 2").locator("option:checked")).toHaveText(deviceName);
      await page.getByRole("button", { name: "Add rule" }).click();
      await expectConfirmation(page, `Rule “${ruleName}” added.`);
      const row = main(page).getByRole("row").filter({ hasText: ruleName });
      await expect(row).toContainText("Tags: dock, crane");
      await expect(row.getByRole("listitem")).toHaveText([channelsName, deviceName]);

      // A second rule goes last; moved up by keyboard, it swaps with the first in place.
      await page.goto(`${RULES}/add`);
      await settle(page, true);
      await page.getByLabel("Rule name").fill(nightName);
      await page.getByRole("button", { name: "Add rule" }).click();
      await expectConfirmation(page, `Rule “${nightName}” added.`);
      await settle(page, true);
      await expectBefore(page, ruleName, nightName);
      await page.getByRole("button", { name: `Move up ${nightName}` }).focus();
      await page.keyboard.press("Enter");
      await expectBefore(page, nightName, ruleName);
      await expect(page.getByText(new RegExp(`“${nightName}” is now number \\d+\\.`))).toBeAttached();
      // The focus stays with the moved rule, ready for the next key press.
      await expect(page.locator(":focus")).toContainText(nightName);
      await page.reload();
      await expectBefore(page, nightName, ruleName);
      expect(errors).toEqual([]);
    } finally {
      await cleanUp(page, baseURL, [ruleName, nightName], [channelsName, deviceName]);
    }
  });

  test("deleting a profile a rule uses: the page names the rule and takes the profile out of it", async ({ page, baseURL }) => {
    await signIn(page, baseURL);
    const deviceName = unique("Shared radios");
    const keptName = unique("Kept channels");
    const ruleName = unique("Uses shared");
    try {
      const device = await call<{ id: string }>(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: deviceName,
        type: "device",
        settings: {
          brightness: 3,
          backlight: "10",
          volumeMin: 2,
          volumeMax: 12,
          powerSave: "standard",
          gpsIntervalSeconds: 60,
          menuLanguage: "en",
        },
      });
      const kept = await call<{ id: string }>(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: keptName,
        type: "buttons",
        settings: { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" },
      });
      await call(page, baseURL, "rules.add", { accountId: ACCOUNT, name: ruleName, profileIds: [kept.id, device.id] });

      await page.goto(`${PROFILES}?type=device&q=${encodeURIComponent(deviceName)}`);
      const row = main(page).getByRole("row").filter({ hasText: deviceName });
      await expect(row).toContainText("1 rule");
      await row.getByRole("link", { name: `Delete ${deviceName}` }).click();
      await expect(page.getByRole("heading", { level: 1, name: "Delete profile" })).toBeVisible();
      await expect(main(page).getByText("1 rule assigns this profile:")).toBeVisible();
      await expect(main(page).getByRole("link", { name: ruleName })).toBeVisible();
      await expect(main(page).getByText("Deleting the profile also removes it from this rule.")).toBeVisible();
      await settle(page, true);
      await page.getByRole("button", { name: `Delete and remove from 1 rule ${deviceName}` }).click();
      await expect(page).toHaveURL(`${PROFILES}?type=device`);
      await expectConfirmation(page, `Profile “${deviceName}” deleted and removed from 1 rule.`);
      await expect(main(page).getByRole("row").filter({ hasText: deviceName })).toHaveCount(0);

      // The rule stays, with its other profile.
      await page.goto(RULES);
      const ruleRow = main(page).getByRole("row").filter({ hasText: ruleName });
      await expect(ruleRow.getByRole("listitem")).toHaveText([keptName]);
    } finally {
      await cleanUp(page, baseURL, [ruleName], [deviceName, keptName]);
    }
  });

  test("stale edits: a profile saved meanwhile keeps what was typed; a stale move offers the current order", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, baseURL);
    const deviceName = unique("Stale radios");
    const ruleA = unique("Stale A");
    const ruleB = unique("Stale B");
    const settings = {
      brightness: 3,
      backlight: "10",
      volumeMin: 2,
      volumeMax: 12,
      powerSave: "standard",
      gpsIntervalSeconds: 60,
      menuLanguage: "en",
    };
    try {
      const profile = await call<{ id: string }>(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: deviceName,
        type: "device",
        settings,
      });
      await page.goto(`${PROFILES}/edit/${profile.id}`);
      await settle(page, true);
      // Someone else saves first.
      await call(page, baseURL, "profiles.update", {
        id: profile.id,
        version: 1,
        name: deviceName,
        type: "device",
        settings: { ...settings, brightness: 1 },
      });
      await page.getByLabel("Display brightness").fill("5");
      await page.getByRole("button", { name: "Save changes" }).click();
      const alert = main(page).getByRole("alert").filter({ hasText: "Someone else changed this while you were editing." });
      await expect(alert).toBeVisible();
      await expect(page.getByLabel("Display brightness")).toHaveValue("5");
      await alert.getByRole("link", { name: "Load the current version (discards what you typed)" }).click();
      await expect(page.getByLabel("Display brightness")).toHaveValue("1");

      await call(page, baseURL, "rules.add", { accountId: ACCOUNT, name: ruleA });
      const b = await call<{ id: string }>(page, baseURL, "rules.add", { accountId: ACCOUNT, name: ruleB });
      await page.goto(RULES);
      await settle(page, true);
      const { setVersion } = await (
        await page.request.get(`/api/rules.list?input=${encodeURIComponent(JSON.stringify({ accountId: ACCOUNT }))}`)
      )
        .json()
        .then((body: { result: { data: { setVersion: number } } }) => body.result.data);
      await call(page, baseURL, "rules.reorder", {
        accountId: ACCOUNT,
        version: setVersion,
        move: { id: b.id, direction: "up" },
      });
      await page.getByRole("button", { name: `Move up ${ruleB}` }).click();
      const refusal = main(page).getByRole("alert").filter({ hasText: "Someone else changed the order of the rules meanwhile." });
      await expect(refusal).toBeVisible();
      await refusal.getByRole("link", { name: "Load the current order" }).click();
      await expectBefore(page, ruleB, ruleA);
    } finally {
      await cleanUp(page, baseURL, [ruleA, ruleB], [deviceName]);
    }
  });
});

test.describe("on a slow phone, before the form's script has loaded", () => {
  const deviceSettings = {
    brightness: 3,
    backlight: "10",
    volumeMin: 2,
    volumeMax: 12,
    powerSave: "standard",
    gpsIntervalSeconds: 60,
    menuLanguage: "en",
  };

  test("a contact whose Remove was ticked is gone once the script runs, and the save leaves it out", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, baseURL);
    const name = unique("Slow contacts");
    try {
      const profile = await call<{ id: string }>(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name,
        type: "contacts",
        settings: {
          contacts: [
            { name: "Dock office", callType: "group", id: 101 },
            { name: "Old crane", callType: "private", id: 202 },
          ],
        },
      });
      const release = await holdScripts(page);
      await page.goto(`${PROFILES}/edit/${profile.id}`, { waitUntil: "commit" });
      await page.getByRole("group", { name: "Contact 2", exact: true }).getByLabel("Remove").check();
      release();
      // Hydrated: Remove is a button (it was a box without the script).
      const first = page.getByRole("group", { name: "Contact 1", exact: true });
      await expect(first.getByRole("button", { name: "Remove Contact 1" })).toBeVisible();
      // One more render: a row added in place (after the kept one and the page's empty one).
      await page.getByRole("button", { name: "Add another contact" }).click();
      await expect(page.locator('input[value="Old crane"]')).toHaveCount(0);
      await expect(first.getByLabel("Name")).toHaveValue("Dock office");
      await expect(page.getByRole("group", { name: "Contact 3", exact: true }).getByLabel("Name")).toBeFocused();
      await page.getByRole("button", { name: "Save changes" }).click();
      await expectConfirmation(page, `Profile “${name}” saved.`);
      const details = await page.request.get(
        `/api/profiles.details?input=${encodeURIComponent(JSON.stringify({ id: profile.id }))}`,
      );
      const saved = ((await details.json()) as { result: { data: { settings: { contacts: { name: string }[] } } } }).result.data;
      expect(saved.settings.contacts.map((contact) => contact.name)).toEqual(["Dock office"]);
    } finally {
      await cleanUp(page, baseURL, [], [name]);
    }
  });

  test("a profile chosen for a new rule stays chosen once the script runs, and the rule assigns it", async ({
    page,
    baseURL,
  }) => {
    await signIn(page, baseURL);
    const deviceName = unique("Slow radios");
    const buttonsName = unique("Slow buttons");
    const ruleName = unique("Slow rule");
    try {
      await call(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: deviceName,
        type: "device",
        settings: deviceSettings,
      });
      await call(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: buttonsName,
        type: "buttons",
        settings: { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" },
      });
      const release = await holdScripts(page);
      await page.goto(`${RULES}/add`, { waitUntil: "commit" });
      await page.getByLabel("Rule name").fill(ruleName);
      await page.getByLabel("Profile 1").selectOption({ label: deviceName });
      release();
      // Hydrated: slots can be moved in place.
      await expect(page.getByRole("button", { name: "Move up Profile 1" })).toBeVisible();
      // One more render: a second slot added in place, and a profile chosen in it.
      await page.getByRole("button", { name: "Add another profile" }).click();
      await page.getByLabel("Profile 2").selectOption({ label: buttonsName });
      await expect(page.getByLabel("Profile 1").locator("option:checked")).toHaveText(deviceName);
      await page.getByRole("button", { name: "Add rule" }).click();
      await expectConfirmation(page, `Rule “${ruleName}” added.`);
      const row = main(page).getByRole("row").filter({ hasText: ruleName });
      await expect(row.getByRole("listitem")).toHaveText([deviceName, buttonsName]);
    } finally {
      await cleanUp(page, baseURL, [ruleName], [deviceName, buttonsName]);
    }
  });
});

test.describe("without JavaScript", () => {
  test.use({ javaScriptEnabled: false });

  test("ajoute des profils et une règle, et réordonne avec les boutons", async ({ page, baseURL }) => {
    test.slow(); // a whole journey of many pages: its budget follows its length
    // Chosen before signing in: this browser's choice only. Chosen while signed in, it would be
    // kept with the shared demo user and follow it into other specs' browsers.
    await chooseLanguage(page, baseURL, "fr-CA");
    await signIn(page, baseURL);
    const channelsName = unique("Canaux quai");
    const deviceName = unique("Radios quai");
    const ruleName = unique("Équipe quai");
    const nightName = unique("Équipe nuit");
    try {
      await page.goto(`${PROFILES}/add`);
      await expect(page.getByRole("heading", { level: 1, name: "Ajouter un profil" })).toBeVisible();
      await main(page)
        .getByRole("link", { name: /^Canaux/ })
        .click();
      await page.getByLabel("Nom du profil").fill(channelsName);
      const first = page.getByRole("group", { name: "Canal 1", exact: true });
      await first.getByLabel("Nom").fill("Quai 1");
      await first.getByLabel("Réception (MHz)").fill("462.5625");
      await first.getByLabel("Émission (MHz)").fill("467.5625");
      // "Add another" posts the form back: one more row, nothing typed lost.
      await page.getByRole("button", { name: "Ajouter un autre canal" }).click();
      await expect(page.getByLabel("Nom du profil")).toHaveValue(channelsName);
      await expect(first.getByLabel("Réception (MHz)")).toHaveValue("462.5625");
      const second = page.getByRole("group", { name: "Canal 2", exact: true });
      await second.getByLabel("Nom").fill("Quai 1");
      await second.getByLabel("Réception (MHz)").fill("462.5875");
      await second.getByLabel("Émission (MHz)").fill("467.5875");
      await second.getByLabel("Tonalité").fill("D023N");
      await page.getByRole("button", { name: "Ajouter le profil" }).click();
      // Two channels with one name: the server says so on the second, with everything kept.
      await expect(second.getByText("Un autre canal de ce profil porte déjà ce nom.")).toBeVisible();
      await expect(second.getByLabel("Tonalité")).toHaveValue("D023N");
      await second.getByLabel("Nom").fill("Quai 2");
      await page.getByRole("button", { name: "Ajouter le profil" }).click();
      await expect(page).toHaveURL(`${PROFILES}?type=channels`);
      await expectPlainFlash(page, `Profil « ${channelsName} » ajouté.`);

      await page.goto(`${PROFILES}/add?type=device`);
      await page.getByLabel("Nom du profil").fill(deviceName);
      await page.getByLabel("Intervalle de transmission GPS (secondes)").fill("5");
      await page.getByRole("button", { name: "Ajouter le profil" }).click();
      await expect(
        page.locator("[data-error-summary]").getByText("Entrez 0 (désactivé) ou un nombre entier de secondes de 10 à 3600."),
      ).toBeVisible();
      await page.getByLabel("Intervalle de transmission GPS (secondes)").fill("0");
      await page.getByRole("button", { name: "Ajouter le profil" }).click();
      await expectPlainFlash(page, `Profil « ${deviceName} » ajouté.`);

      await page.goto(`${RULES}/add`);
      await page.getByLabel("Nom de la règle").fill(ruleName);
      await page.getByLabel("Profil 1").selectOption({ label: channelsName });
      await page.getByRole("button", { name: "Ajouter un autre profil" }).click();
      await expect(page.getByLabel("Nom de la règle")).toHaveValue(ruleName);
      await page.getByLabel("Profil 2").selectOption({ label: deviceName });
      await page.getByRole("button", { name: "Ajouter la règle" }).click();
      await expectPlainFlash(page, `Règle « ${ruleName} » ajoutée.`);
      const row = main(page).getByRole("row").filter({ hasText: ruleName });
      await expect(row.getByRole("listitem")).toHaveText([channelsName, deviceName]);
      await expect(row).toContainText("Tous les appareils");

      await page.goto(`${RULES}/add`);
      await page.getByLabel("Nom de la règle").fill(nightName);
      await page.getByRole("button", { name: "Ajouter la règle" }).click();
      await expectPlainFlash(page, `Règle « ${nightName} » ajoutée.`);
      await expectBefore(page, ruleName, nightName);
      await page.getByRole("button", { name: `Monter ${nightName}` }).click();
      await expectPlainFlash(page, `« ${nightName} » est maintenant en position`);
      await expectBefore(page, nightName, ruleName);
      await page.getByRole("button", { name: `Descendre ${nightName}` }).click();
      await expectBefore(page, ruleName, nightName);
    } finally {
      await cleanUp(page, baseURL, [ruleName, nightName], [channelsName, deviceName]);
    }
  });

  test("deleting a used profile without JavaScript says what happens, then does it", async ({ page, baseURL }) => {
    await signIn(page, baseURL);
    const deviceName = unique("Old radios");
    const ruleName = unique("Old rule");
    try {
      const device = await call<{ id: string }>(page, baseURL, "profiles.add", {
        accountId: ACCOUNT,
        name: deviceName,
        type: "device",
        settings: {
          brightness: 3,
          backlight: "10",
          volumeMin: 2,
          volumeMax: 12,
          powerSave: "standard",
          gpsIntervalSeconds: 60,
          menuLanguage: "en",
        },
      });
      await call(page, baseURL, "rules.add", { accountId: ACCOUNT, name: ruleName, profileIds: [device.id] });
      await page.goto(`${PROFILES}/delete/${device.id}`);
      await expect(main(page).getByRole("link", { name: ruleName })).toBeVisible();
      await expect(main(page).getByText(`Afterwards these rules assign no profile at all: ${ruleName}.`)).toBeVisible();
      await page.getByRole("button", { name: `Delete and remove from 1 rule ${deviceName}` }).click();
      await expectPlainFlash(page, `Profile “${deviceName}” deleted and removed from 1 rule.`);
      await page.goto(RULES);
      await expect(main(page).getByRole("row").filter({ hasText: ruleName })).toContainText("None");
    } finally {
      await cleanUp(page, baseURL, [ruleName], [deviceName]);
    }
  });
});

test("a technician may not add rules", async ({ page, baseURL }) => {
  await signIn(page, baseURL, "technician@example.com");
  await page.goto(`${RULES}/add`);
  await expect(page.getByText("This route is protected.")).toBeVisible();
  await page.goto(RULES);
  await expect(page.getByText("This route is protected.")).toBeVisible();
});
