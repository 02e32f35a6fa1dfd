import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { allAtOnce } from "@/schema/fleet/deployment-plan";
import { firmwareManifest, packageObjectKey } from "@/schema/fleet/firmware-manifest";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, RADIO_SECRET, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm } from "./helpers";

// A firmware rollout watched from /simulator without JavaScript (issue 26): each click is a plain
// form post carrying the radio's memory in hidden fields. A radio's download is cut midway and
// resumed, verified (hash and signature), installed and rebooted into the new version; another fails at install. The
// server's per-radio stages and the radio's firmware follow.

const PACKAGE = "fw_sim_rollout";
const SIZE = 64_000;
const file = new Uint8Array(SIZE).map((_, i) => (i * 13 + 5) & 0xff);
const KEY_ID = "key_sim_rollout";
const toBase64 = (bytes: ArrayBuffer) => btoa(String.fromCharCode(...new Uint8Array(bytes)));

let accountId = "";
let deploymentId = "";
let radios: string[] = [];

const decode = (text: string) =>
  text
    .replaceAll("&quot;", '"')
    .replaceAll("&#x27;", "'")
    .replaceAll("&lt;", "<")
    .replaceAll("&gt;", ">")
    .replaceAll("&amp;", "&");

/** The hidden fields of the simulator's form: what a browser posts back with the next click. */
function carried(html: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const match of html.matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)"/g))
    fields[match[1] as string] = decode(match[2] as string);
  return fields;
}

async function click(fields: Record<string, string>, step: string, extra: Record<string, string> = {}): Promise<string> {
  const response = await postForm("/simulator", { ...fields, step, ...extra }, { Origin: ORIGIN });
  expect(response.status).toBe(200);
  return response.text();
}

const rowOf = (uid: string) =>
  env.DB.prepare("SELECT state, stage, progress FROM deployment_devices WHERE uid = ? AND deployment_id = ?")
    .bind(uid, deploymentId)
    .first<{ state: string; stage: string | null; progress: number | null }>();

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Simulated firmware rollout");
  await giveSeats(owner.orgId, accountId, 5);
  radios = await registerRadios(owner.orgId, accountId, "SIMRO", 3);
  await env.DB.prepare("UPDATE devices SET firmware = '1.0.0', model = 'NW-400' WHERE account_id = ?").bind(accountId).run();
  await env.FIRMWARE?.put(packageObjectKey(PACKAGE), file);
  const sha256 = [...new Uint8Array(await crypto.subtle.digest("SHA-256", file))]
    .map((b) => b.toString(16).padStart(2, "0"))
    .join("");
  // The organization's signing key (its public half is in the radios' configuration) signs the manifest.
  const keys = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = toBase64((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  await env.DB.prepare(
    "INSERT INTO firmware_signing_keys (org_id, key_id, public_key, private_key) VALUES (?, ?, ?, 'not used here')",
  )
    .bind(owner.orgId, KEY_ID, publicKey)
    .run();
  const manifest = firmwareManifest({ packageId: PACKAGE, version: "2.0.0", sha256, size: SIZE });
  const signature = toBase64(await crypto.subtle.sign("Ed25519", keys.privateKey, new TextEncoder().encode(manifest)));
  await env.DB.prepare(
    `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, signature, key_id, created_by)
     VALUES (?, ?, '2.0.0', '["NW-400"]', 'ready', ?, ?, ?, ?, ?, 'test')`,
  )
    .bind(PACKAGE, owner.orgId, packageObjectKey(PACKAGE), SIZE, sha256, signature, KEY_ID)
    .run();
  const cookie = await sessionCookie(owner.email);
  const created = data(
    await call<{ id: string }>(
      "deployments.create",
      { accountId, firmwarePackageId: PACKAGE, plan: allAtOnce() },
      cookie,
      "POST",
    ),
  );
  deploymentId = created.id;
});

it("a radio's download is cut, resumed, verified, installed and rebooted into 2.0.0, each stage reaching the server", async () => {
  const uid = radios[0] as string;
  let page = await click({ uid, secret: RADIO_SECRET, firmware: "1.0.0" }, "check-in");
  expect(page).toContain('data-testid="radio-firmware-panel"');
  expect(page).toMatch(/version 2\.0\.0, deployment #\d+ \(running\), this radio: pending/);

  page = await click(carried(page), "fw-download-cut");
  expect(carried(page).fwHave).toBe(String(SIZE / 2));
  expect(page).toContain("Resume the download");
  expect(await rowOf(uid)).toMatchObject({ state: "applying", stage: "downloading", progress: 50 });
  expect(page).toContain("50 % downloaded");

  page = await click(carried(page), "fw-resume");
  expect(page).toContain(`GET firmware bytes=${SIZE / 2}- → 206`);
  expect(carried(page).fwHave).toBe(String(SIZE));
  expect(await rowOf(uid)).toMatchObject({ state: "applying", stage: "downloaded" });

  // The hash of the file and the organization's signature, with the key the radio's configuration lists.
  page = await click(carried(page), "fw-verify");
  expect(await rowOf(uid)).toMatchObject({ state: "applying", stage: "verified" });
  expect(page).toContain("Install");
  page = await click(carried(page), "fw-install");
  expect(await rowOf(uid)).toMatchObject({ stage: "installing" });
  page = await click(carried(page), "fw-reboot");
  expect(await rowOf(uid)).toMatchObject({ state: "applied", stage: "updated" });
  expect(page).toMatch(/data-testid="radio-firmware"[^>]*>2\.0\.0</);
  expect(page).not.toContain('data-testid="radio-firmware-panel"');
  const device = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
  expect(device?.firmware).toBe("2.0.0");
});

it("another fails at install, chosen in the form, and the server counts the failure at that stage", async () => {
  const uid = radios[1] as string;
  const page = await click({ uid, secret: RADIO_SECRET, firmware: "1.0.0" }, "check-in");
  const failed = await click(carried(page), "fw-fail", { failStage: "install" });
  expect(await rowOf(uid)).toMatchObject({ state: "failed", stage: "install" });
  expect(failed).toMatch(/this radio: failed to install/);
  expect(failed).not.toContain('data-testid="radio-firmware-panel"');
});

it("a third boots the old firmware after the reboot: a failure at boot, and it keeps running 1.0.0", async () => {
  const uid = radios[2] as string;
  const page = await click({ uid, secret: RADIO_SECRET, firmware: "1.0.0" }, "check-in");
  // A tampered form (an ETag no header may carry, a byte count beyond the file) resumes nothing and breaks nothing.
  const tampered = await click(carried(page), "fw-resume", { fwEtag: '\u0000"é"', fwHave: String(SIZE * 9) });
  expect(tampered).toMatch(/GET firmware → 200/);
  const booted = await click(carried(tampered), "fw-boot-old");
  expect(await rowOf(uid)).toMatchObject({ state: "failed", stage: "booted-old" });
  expect(booted).toMatch(/this radio: booted the old firmware \(failed\)/);
  expect(booted).toMatch(/data-testid="radio-firmware"[^>]*>1\.0\.0</);
});
