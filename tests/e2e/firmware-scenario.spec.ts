import { createHash, createPublicKey, verify } from "node:crypto";
import { type APIRequestContext, expect, type Page, test } from "./client-address";
import { call, signIn } from "./procedure-calls";

// Issue 26's rollout, end to end in a browser: an admin uploads firmware 2.0.0 (in parts, with
// JavaScript) and the 1.0.0 its radios run (the plain form, without); a configurator saves a
// group of the radios and rolls 2.0.0 out to it in phases, rolling back to 1.0.0 if need be.
// Three radios follow it: one from this test (download, hash and signature checked, install,
// reboot), one in /simulator (its download cut midway and resumed), one whose download arrives
// corrupted (its verification fails and the error threshold pauses the rollout). The two others
// finish; the page shows it live with JavaScript and, refreshed, without. Roll back returns both
// to 1.0.0. Lakeside North is used by no other deployment test; everything is named after this run.

const ACCOUNT = "acc_lakeside_north";
const REGISTRY = `/accounts/${ACCOUNT}/registry`;

type Radio = { uid: string; secret: string };
type Offer = {
  deployment: { id: string };
  package: { id: string; version: string; size: number; sha256: string; signature: string; keyId: string; url: string };
  yourState: string;
};

const auth = (radio: Radio) => ({ Authorization: `Bearer ${radio.uid}:${radio.secret}` });

async function checkIn(request: APIRequestContext, radio: Radio, body: unknown = {}): Promise<Offer | null> {
  const response = await request.post("/device/v1/check-in", { data: body, headers: auth(radio) });
  expect(response.status()).toBe(200);
  return ((await response.json()) as { firmware: Offer | null }).firmware;
}

async function report(request: APIRequestContext, radio: Radio, offer: Offer, body: Record<string, unknown>) {
  const response = await request.post(`/device/v1/deployments/${offer.deployment.id}/status`, {
    data: body,
    headers: auth(radio),
  });
  expect(response.status(), JSON.stringify(body)).toBe(200);
}

/** The keys the radio's configuration trusts (docs/device-protocol.md). */
async function trustedKeys(request: APIRequestContext, radio: Radio) {
  const response = await request.get("/device/v1/config", { headers: auth(radio) });
  return ((await response.json()) as { firmwareKeys: { keyId: string; publicKey: string }[] }).firmwareKeys;
}

/** What a radio checks before installing: the file's SHA-256, and the signature over the manifest. */
function verifies(offer: Offer, file: Buffer, keys: { keyId: string; publicKey: string }[]): boolean {
  const pkg = offer.package;
  if (createHash("sha256").update(file).digest("hex") !== pkg.sha256) return false;
  const key = keys.find((k) => k.keyId === pkg.keyId);
  if (!key) return false;
  const manifest = `configuration-tool-firmware/1\n${pkg.id}\n${pkg.version}\n${pkg.sha256}\n${pkg.size}\n`;
  const publicKey = createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(key.publicKey, "base64").toString("base64url") },
    format: "jwk",
  });
  return verify(null, Buffer.from(manifest), publicKey, Buffer.from(pkg.signature, "base64"));
}

/** A radio of this test taking the firmware it is offered: download, verify, install, reboot, confirm. */
async function install(request: APIRequestContext, radio: Radio, offer: Offer) {
  const download = await request.get(offer.package.url);
  expect(download.status()).toBe(200);
  const file = await download.body();
  await report(request, radio, offer, { state: "downloading", progress: 100 });
  await report(request, radio, offer, { state: "downloaded" });
  expect(verifies(offer, file, await trustedKeys(request, radio))).toBe(true);
  for (const state of ["verified", "installing", "rebooting", "updated"]) await report(request, radio, offer, { state });
  await checkIn(request, radio, { firmware: offer.package.version });
}

function firmwareFile(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed) & 0xff;
  return bytes;
}

/** Chooses the option of a select whose text names `text` (option labels add models and counts). */
async function chooseOption(page: Page, label: string, text: string) {
  const select = page.getByLabel(label);
  const value = await select.locator("option", { hasText: text }).first().getAttribute("value");
  await select.selectOption(value ?? "");
}

const idOf = (url: string) => decodeURIComponent(url.split("/").pop()?.split("?")[0] ?? "");

test("firmware: uploaded, rolled out in phases to a group, a cut download resumed, a failed verification pauses it, the rest update, roll back returns them", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(240_000);
  const run = Date.now().toString(36).toUpperCase();
  const model = `FW-${run}`;
  const [oldVersion, newVersion] = [`1.0.0-${run}`, `2.0.0-${run}`];
  const newFile = firmwareFile(9 * 1024 * 1024, 7);

  // Three radios of a model of their own (so no other radio of the account fits the package), on 1.0.0.
  const admin = await (await browser.newContext({ baseURL })).newPage();
  await signIn(admin, baseURL, "admin@example.com");
  const radios: Radio[] = [];
  for (let i = 1; i <= 3; i++) {
    const uid = `FWS-${run}-${i}`;
    const added = await call<{ secret: string }>(admin, baseURL, "devices.add", {
      orgId: "org_lakeside",
      uid,
      brand: "Northwind",
      model,
      accountId: ACCOUNT,
    });
    radios.push({ uid, secret: added.secret });
    await checkIn(admin.request, radios[i - 1] as Radio, { firmware: oldVersion });
  }
  const [mine, simulated, corrupted] = radios as [Radio, Radio, Radio];

  // The admin uploads 2.0.0 with JavaScript (parts of 8 MiB, a progress bar) from the registry.
  await admin.goto(`${REGISTRY}/devices`);
  await admin.getByRole("link", { name: "Firmware", exact: true }).click();
  await admin.getByRole("link", { name: "Upload a package" }).first().click();
  await admin.getByLabel("Version").fill(newVersion);
  await admin.getByLabel("Other models").fill(model);
  await admin.getByLabel("Release notes").fill("Faster scanning.");
  await admin
    .getByLabel("Firmware file")
    .setInputFiles({ name: "radio-2.bin", mimeType: "application/octet-stream", buffer: newFile });
  await admin.getByRole("button", { name: "Upload package" }).click();
  await expect(admin).toHaveURL(/\/registry\/firmware\/view\/fw_/, { timeout: 30_000 });
  await expect(admin.getByText(createHash("sha256").update(newFile).digest("hex")).first()).toBeVisible();

  // And the 1.0.0 the radios run now, without JavaScript (the plain form posts it whole).
  const plain = await (await browser.newContext({ baseURL, javaScriptEnabled: false })).newPage();
  await signIn(plain, baseURL, "admin@example.com");
  await plain.goto(`${REGISTRY}/firmware/new`);
  await plain.getByLabel("Version").fill(oldVersion);
  await plain.getByLabel("Other models").fill(model);
  await plain.getByLabel("Firmware file").setInputFiles({
    name: "radio-1.bin",
    mimeType: "application/octet-stream",
    buffer: firmwareFile(300_000, 1),
  });
  await plain.getByRole("button", { name: "Upload package" }).click();
  await expect(plain).toHaveURL(/\/registry\/firmware\/view\/fw_/);

  // The configurator saves the group and rolls 2.0.0 out to it in phases.
  const configurator = await (await browser.newContext({ baseURL })).newPage();
  await signIn(configurator, baseURL, "configurator@example.com");
  const group = `Firmware pilot ${run}`;
  await configurator.goto(`${REGISTRY}/devices/groups`);
  await configurator.getByRole("link", { name: "New group" }).first().click();
  await configurator.getByLabel("Group name").fill(group);
  await configurator.getByLabel("Model", { exact: true }).fill(model);
  await configurator.getByRole("button", { name: "Create group" }).click();
  const row = configurator.getByRole("listitem").filter({ has: configurator.getByRole("link", { name: group, exact: true }) });
  await expect(row.getByRole("link", { name: "3 (show in the inventory)" })).toBeVisible();

  await configurator.goto(`/accounts/${ACCOUNT}/deployments`);
  await configurator.getByRole("link", { name: "New firmware deployment" }).first().click();
  await chooseOption(configurator, "Package", newVersion);
  await configurator.getByLabel("Saved group").selectOption({ label: group });
  await configurator.getByLabel("In phases").check();
  await configurator.getByLabel("Phases (% of radios, cumulative)").fill("100");
  await configurator.getByLabel("Error threshold").selectOption("count");
  await configurator.getByLabel("Pause at (failed or rejected)").fill("1");
  await configurator.getByRole("button", { name: "Count the radios this package fits" }).click();
  await expect(configurator.getByText("Radios in this target: 3; the package fits 3 of them.")).toBeVisible();
  await chooseOption(configurator, "Rolling it back installs", oldVersion);
  await configurator.getByRole("button", { name: "Confirm and update" }).click();
  await expect(configurator.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
  const deploymentUrl = configurator.url();
  const deploymentId = idOf(deploymentUrl);

  // All three start: this test's radio and the corrupted one download; the simulator's is cut midway.
  const request = configurator.request;
  const offers = await Promise.all([mine, corrupted].map((radio) => checkIn(request, radio)));
  for (const offer of offers) expect(offer).toMatchObject({ deployment: { id: deploymentId }, package: { version: newVersion } });
  const [mineOffer, corruptedOffer] = offers as [Offer, Offer];
  await report(request, mine, mineOffer, { state: "downloading", progress: 10 });

  const simulator = await (await browser.newContext({ baseURL })).newPage();
  await simulator.goto("/simulator");
  await simulator.getByLabel("Radio uid").fill(simulated.uid);
  await simulator.getByLabel("Device secret").fill(simulated.secret);
  await simulator.getByRole("button", { name: "Switch on and check in" }).click();
  await expect(simulator.getByText(`Firmware ${newVersion} is offered`)).toBeVisible();
  await simulator.getByRole("button", { name: "Download, interrupted midway" }).click();
  await expect(simulator.getByText(/The radio holds \d[\d,]* of [\d,]+ bytes/)).toBeVisible();

  // The corrupted radio's file fails its hash: it says so, and one failure pauses the rollout.
  const damaged = await (await request.get(corruptedOffer.package.url)).body();
  damaged[1000] = (damaged[1000] ?? 0) ^ 0xff;
  await report(request, corrupted, corruptedOffer, { state: "downloading", progress: 100 });
  expect(verifies(corruptedOffer, damaged, await trustedKeys(request, corrupted))).toBe(false);
  await report(request, corrupted, corruptedOffer, { state: "failed", stage: "verify", code: "hash-mismatch" });
  await configurator.reload();
  await expect(configurator.getByText("Paused automatically: the error threshold was crossed.")).toBeVisible();

  // The radios that started go on: this test's radio installs; the simulator resumes where it was cut.
  await install(request, mine, mineOffer);
  await simulator.getByRole("button", { name: "Resume the download" }).click();
  await simulator.getByRole("button", { name: "Verify" }).click();
  await simulator.getByRole("button", { name: "Install" }).click();
  await simulator.getByRole("button", { name: "Reboot into the new firmware" }).click();
  await expect(simulator.getByTestId("radio-firmware")).toHaveText(newVersion);

  // With JavaScript the page follows by itself; without, a refresh shows the same.
  const stages = configurator.getByRole("region", { name: "Radios by firmware stage" });
  await expect(stages.getByText("Updated")).toBeVisible();
  await expect(stages).toContainText("2");
  await expect(stages.getByText("Failed verification")).toBeVisible();
  const noScript = await (await browser.newContext({ baseURL, javaScriptEnabled: false })).newPage();
  await signIn(noScript, baseURL, "viewer@example.com");
  await noScript.goto(deploymentUrl);
  const refreshed = noScript.getByRole("region", { name: "Radios by firmware stage" });
  await expect(refreshed.getByText("Updated")).toBeVisible();
  await expect(refreshed.getByText("Failed verification")).toBeVisible();

  // Roll back: both updated radios are offered 1.0.0 again, install it, and run it.
  await configurator.getByRole("button", { name: `Roll back to firmware ${oldVersion}` }).click();
  await expect(configurator.getByRole("heading", { level: 1, name: /Deployment #\d+/ })).toBeVisible();
  const rollbackId = idOf(configurator.url());
  expect(rollbackId).not.toBe(deploymentId);
  for (const radio of [mine, simulated]) {
    const offer = await checkIn(request, radio);
    expect(offer).toMatchObject({ deployment: { id: rollbackId }, package: { version: oldVersion } });
    await install(request, radio, offer as Offer);
  }
  await noScript.goto(`${REGISTRY}/devices/view/${encodeURIComponent(mine.uid)}`);
  // Its firmware history: 1.0.0 → 2.0.0 → 1.0.0.
  const history = noScript.getByRole("table", { name: "Firmware history" });
  await expect(history.getByRole("row").filter({ hasText: newVersion })).toHaveCount(2);
  await expect(noScript.getByText(`Runs: ${oldVersion}`)).toBeVisible();
});
