import { createHash } from "node:crypto";
import AxeBuilder from "@axe-core/playwright";
import { expect, type Page, test } from "./client-address";

// Firmware packages (issue 26) in a browser: an admin uploads a package from an account's
// registry; the page sends it in parts of 8 MiB with a progress bar; a part that keeps failing
// stops the upload, "Resume upload" carries on from it; the package page shows the SHA-256 the
// server measured. Without JavaScript the same form posts the file whole. Then it is deleted.

const DEMO_PASSWORD = "radios-demo-2025";
const FIRMWARE = "/accounts/acc_metro_bus/registry/firmware";

async function signIn(page: Page, baseURL: string | undefined) {
  const response = await page.request.post("/api/sign-in", {
    data: { username: "owner@example.com", password: DEMO_PASSWORD },
    headers: { Origin: baseURL ?? "" },
  });
  expect(await response.json()).toEqual({ ok: true });
}

function firmwareFile(size: number, seed: number): Buffer {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 7 + seed) & 0xff;
  return bytes;
}

async function deletePackage(page: Page) {
  await page.getByRole("link", { name: "Delete package" }).click();
  await page.getByRole("button", { name: /^Delete package/ }).click();
  await expect(page).toHaveURL(FIRMWARE);
}

test("a package is uploaded in parts with progress, resumed after a failed part, then deleted", async ({ browser, baseURL }) => {
  test.setTimeout(90_000);
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const version = `e2e-${Date.now()}`;
  const file = firmwareFile(8 * 1024 * 1024 + 300_000, 3);

  await page.goto("/accounts/acc_metro_bus/registry/devices");
  await page.getByRole("link", { name: "Firmware", exact: true }).click();
  await expect(page).toHaveURL(FIRMWARE);
  await page.getByRole("link", { name: "Upload a package" }).first().click();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Other models").fill("XR-E2E");
  await page.getByLabel("Release notes").fill("Uploaded by the browser test.");
  await page.getByLabel("Firmware file").setInputFiles({ name: "radio.bin", mimeType: "application/octet-stream", buffer: file });

  // Part 2 fails every time until the network "comes back".
  let failing = true;
  await page.route(/\/api\/firmware\/[^/]+\/parts\/2/, (route) => (failing ? route.abort("connectionreset") : route.continue()));
  await page.getByRole("button", { name: "Upload package" }).click();
  const bar = page.getByRole("progressbar", { name: "Upload of radio.bin" });
  await expect(bar).toHaveAttribute("aria-valuenow", "50", { timeout: 15_000 });
  await expect(page.getByText(/The upload stopped at part 2/)).toBeVisible({ timeout: 20_000 });
  failing = false;
  await page.getByRole("button", { name: "Resume upload" }).click();

  await expect(page).toHaveURL(/\/registry\/firmware\/view\/fw_/, { timeout: 20_000 });
  await expect(page.getByRole("heading", { level: 1 })).toContainText(version);
  await expect(page.getByText(createHash("sha256").update(file).digest("hex")).first()).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);

  await page.goto(FIRMWARE);
  await expect(page.getByRole("link", { name: version, exact: true })).toBeVisible();
  expect((await new AxeBuilder({ page }).analyze()).violations).toEqual([]);
  await page.getByRole("link", { name: version, exact: true }).click();
  await deletePackage(page);
  await expect(page.getByRole("link", { name: version, exact: true })).toHaveCount(0);
  await context.close();
});

test("without JavaScript the form posts the file whole; a missing model is said on its field", async ({ browser, baseURL }) => {
  const context = await browser.newContext({ baseURL, javaScriptEnabled: false });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const version = `e2e-plain-${Date.now()}`;
  const file = firmwareFile(200_000, 5);

  await page.goto(`${FIRMWARE}/new`);
  await page.getByLabel("Version").fill(version);
  await page.getByLabel("Firmware file").setInputFiles({ name: "radio.bin", mimeType: "application/octet-stream", buffer: file });
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page.getByText("Choose or enter at least one radio model.").first()).toBeVisible();
  // The typed version is kept; the file is chosen again (browsers never keep one).
  await expect(page.getByLabel("Version")).toHaveValue(version);

  await page.getByLabel("Other models").fill("XR-E2E");
  await page.getByLabel("Firmware file").setInputFiles({ name: "radio.bin", mimeType: "application/octet-stream", buffer: file });
  await page.getByRole("button", { name: "Upload package" }).click();
  await expect(page).toHaveURL(/\/registry\/firmware\/view\/fw_/);
  await expect(page.getByText(createHash("sha256").update(file).digest("hex")).first()).toBeVisible();
  await deletePackage(page);
  await context.close();
});

test("the firmware screens fit 320 px in every language", async ({ browser, baseURL }) => {
  const origin = baseURL ?? "";
  const context = await browser.newContext({ baseURL, viewport: { width: 320, height: 640 } });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const call = async (name: string, input: unknown) => {
    const response = await page.request.post(`/api/${name}`, { data: input, headers: { Origin: origin } });
    return ((await response.json()) as { result: { data: { id: string } } }).result.data;
  };
  const created = await call("firmware.create", {
    accountId: "acc_metro_bus",
    version: `e2e-narrow-${Date.now()}`,
    models: ["XR-E2E-WITH-A-RATHER-LONG-MODEL-NAME"],
    notes: "Notes",
  });
  const part = await page.request.put(`/api/firmware/${created.id}/parts/1`, {
    data: firmwareFile(5000, 9),
    headers: { Origin: origin, "Content-Type": "application/octet-stream" },
  });
  expect(part.status()).toBe(200);
  await call("firmware.complete", { id: created.id, accountId: "acc_metro_bus" });
  const wide: string[] = [];
  for (const language of ["en", "es-MX", "fr-CA", "pt-BR"]) {
    await context.addCookies([{ name: "lang", value: language, url: origin }]);
    for (const path of [
      FIRMWARE,
      `${FIRMWARE}/new`,
      `${FIRMWARE}/view/${created.id}`,
      `/devices/firmware/view/${created.id}/delete`,
    ]) {
      await page.goto(path);
      const width = await page.evaluate(() => document.documentElement.scrollWidth);
      if (width > 320) wide.push(`${language} ${path}: ${width}px`);
    }
  }
  expect(wide).toEqual([]);
  await call("firmware.delete", { id: created.id, accountId: "acc_metro_bus" });
  await context.close();
});

test("an upload left unfinished resumes from its package page, keeping the parts already stored", async ({
  browser,
  baseURL,
}) => {
  test.setTimeout(60_000);
  const origin = baseURL ?? "";
  const context = await browser.newContext({ baseURL });
  const page = await context.newPage();
  await signIn(page, baseURL);
  const file = firmwareFile(8 * 1024 * 1024 + 70_000, 21);
  // Begun earlier: the first part arrived, then the browser was closed.
  const start = await page.request.post("/api/firmware.create", {
    data: { accountId: "acc_metro_bus", version: `e2e-resume-${Date.now()}`, models: ["XR-E2E"] },
    headers: { Origin: origin },
  });
  const { id } = ((await start.json()) as { result: { data: { id: string } } }).result.data;
  const first = await page.request.put(`/api/firmware/${id}/parts/1?accountId=acc_metro_bus`, {
    data: file.subarray(0, 8 * 1024 * 1024),
    headers: { Origin: origin, "Content-Type": "application/octet-stream" },
  });
  expect(first.status()).toBe(200);

  const sent: string[] = [];
  page.on("request", (request) => {
    if (request.method() === "PUT") sent.push(new URL(request.url()).pathname);
  });
  await page.goto(`${FIRMWARE}/view/${id}`);
  await expect(page.getByText("Upload not finished")).toBeVisible();
  await page.getByLabel("Firmware file").setInputFiles({ name: "radio.bin", mimeType: "application/octet-stream", buffer: file });
  await page.getByRole("button", { name: "Resume upload" }).click();
  await expect(page.getByText(createHash("sha256").update(file).digest("hex")).first()).toBeVisible({ timeout: 20_000 });
  // Only the second part travelled again.
  expect(sent).toEqual([`/api/firmware/${id}/parts/2`]);
  await deletePackage(page);
  await context.close();
});
