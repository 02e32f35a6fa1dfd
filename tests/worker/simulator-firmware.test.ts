import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import {
  type FailStage,
  type FirmwareMemory,
  type FirmwareOffer,
  type FirmwareStep,
  firmwareMemoryFrom,
  firmwareStep,
  START_FIRMWARE,
} from "@/routes/simulator/radio-firmware";
import { firmwareManifest, packageObjectKey } from "@/schema/fleet/firmware-manifest";
import type { Env } from "@/server/env";
import { firmwareSecret, signDownloadUrl } from "@/server/firmware/download-url";
import { createAccount, createUser } from "./fixtures";
import { giveSeats, RADIO_SECRET, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm } from "./helpers";

// The /simulator radio's firmware steps (issue 26) against a real package in the FIRMWARE bucket,
// through the real download route, with a real Ed25519 signature: what it reports to the server
// at each step, and that verification catches a wrong hash, a wrong signature and an unknown key.

const SIZE = 50_000;
const PACKAGE = "fw_simulator_test";
const UID = "HD-SIM-FW-1";
const file = new Uint8Array(SIZE).map((_, i) => (i * 7 + 3) & 0xff);

const toBase64 = (bytes: ArrayBuffer | Uint8Array) => btoa(String.fromCharCode(...new Uint8Array(bytes)));
const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");

let offer: FirmwareOffer;
let publicKey: string;
let otherKeys: CryptoKeyPair;

async function signWith(keys: CryptoKeyPair, fields: { id: string; version: string; sha256: string; size: number }) {
  const text = firmwareManifest({ packageId: fields.id, version: fields.version, sha256: fields.sha256, size: fields.size });
  return toBase64(await crypto.subtle.sign("Ed25519", keys.privateKey, new TextEncoder().encode(text)));
}

beforeAll(async () => {
  await env.FIRMWARE?.put(packageObjectKey(PACKAGE), file);
  const keys = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  otherKeys = (await crypto.subtle.generateKey({ name: "Ed25519" }, true, ["sign", "verify"])) as CryptoKeyPair;
  publicKey = toBase64((await crypto.subtle.exportKey("raw", keys.publicKey)) as ArrayBuffer);
  const sha256 = hex(await crypto.subtle.digest("SHA-256", file));
  const signed = await signDownloadUrl(firmwareSecret(env) as string, PACKAGE, UID, new Date());
  const fields = { id: PACKAGE, version: "2.4.0", sha256, size: SIZE };
  offer = {
    deployment: { id: "dep_sim_fw", number: 7, state: "running" },
    package: {
      ...fields,
      signature: await signWith(keys, fields),
      keyId: "key_sim",
      url: signed.url,
      urlExpiresAt: signed.expiresAt,
    },
    yourState: "pending",
    progress: null,
  };
});

type Sent = Record<string, unknown>;

async function run(
  step: FirmwareStep,
  memory: FirmwareMemory,
  options: { offer?: FirmwareOffer; failStage?: FailStage; keys?: { keyId: string; publicKey: string }[] } = {},
) {
  const sent: Sent[] = [];
  const result = await firmwareStep(env as Env, options.offer ?? offer, step, options.failStage ?? "download", memory, {
    report: async (_id, body) => {
      sent.push(body);
      return { status: 200 };
    },
    keys: async () => options.keys ?? [{ keyId: "key_sim", publicKey }],
  });
  return { ...result, sent };
}

const fresh: FirmwareMemory = { running: START_FIRMWARE, deploymentId: "", have: 0, etag: "", stage: "" };

describe("a whole update, step by step", () => {
  it("cut midway, resumed, verified, installed, rebooted: every stage reported, then it runs the new version", async () => {
    const cut = await run("fw-download-cut", fresh);
    expect(cut.memory.have).toBe(SIZE / 2);
    expect(cut.memory.etag).toMatch(/^"/);
    const progress = cut.sent.map((s) => s.progress);
    expect(cut.sent.every((s) => s.state === "downloading")).toBe(true);
    expect(progress[0]).toBe(0);
    expect(progress.every((p) => typeof p === "number" && p % 10 === 0 && p <= 50)).toBe(true);
    expect(cut.log.some((line) => line.includes("cut at 25000"))).toBe(true);

    const resumed = await run("fw-resume", cut.memory);
    expect(resumed.log).toContain(`GET firmware bytes=${SIZE / 2}- → 206`);
    expect(resumed.memory.have).toBe(SIZE);
    expect(resumed.sent.at(-1)).toEqual({ state: "downloaded" });
    expect(resumed.sent.slice(0, -1).every((s) => s.state === "downloading" && Number(s.progress) > 50)).toBe(true);

    const verified = await run("fw-verify", resumed.memory);
    expect(verified.sent).toEqual([{ state: "verified" }]);
    const installing = await run("fw-install", verified.memory);
    expect(installing.sent).toEqual([{ state: "installing" }]);
    const rebooted = await run("fw-reboot", installing.memory);
    expect(rebooted.sent).toEqual([{ state: "rebooting" }, { state: "updated" }]);
    expect(rebooted.memory.running).toBe("2.4.0");

    // The next offer of the same version: the radio says it already runs it.
    const again = await run("fw-download", rebooted.memory);
    expect(again.sent).toEqual([{ state: "already_in_sync" }]);
  });

  it("booting the old firmware reports rebooting then booted-old, and keeps the old version", async () => {
    const booted = await run("fw-boot-old", { ...fresh, deploymentId: offer.deployment.id, stage: "installing", have: SIZE });
    expect(booted.sent.map((s) => s.state)).toEqual(["rebooting", "booted-old"]);
    expect(booted.memory.running).toBe(START_FIRMWARE);
  });

  it("failing at a chosen stage reports failed with that stage and a code", async () => {
    for (const stage of ["download", "verify", "install", "reboot"] as const) {
      const failed = await run("fw-fail", fresh, { failStage: stage });
      expect(failed.sent).toEqual([{ state: "failed", stage, code: `sim-${stage}`, detail: expect.any(String) }]);
    }
  });

  it("verifying before the whole file is here reports nothing", async () => {
    const early = await run("fw-verify", { ...fresh, deploymentId: offer.deployment.id, have: 10 });
    expect(early.sent).toEqual([]);
  });
});

describe("verification catches", () => {
  const downloaded = () => ({ ...fresh, deploymentId: offer.deployment.id, have: SIZE, stage: "downloaded" });

  it("a file whose SHA-256 is not the package's", async () => {
    const wrong = { ...offer, package: { ...offer.package, sha256: "0".repeat(64) } };
    const result = await run("fw-verify", downloaded(), { offer: wrong });
    expect(result.sent).toEqual([{ state: "failed", stage: "verify", code: "hash-mismatch", detail: expect.any(String) }]);
    expect(result.memory.have).toBe(0);
  });

  it("a signature by another key, or over another version", async () => {
    const byOther = { ...offer, package: { ...offer.package, signature: await signWith(otherKeys, offer.package) } };
    expect((await run("fw-verify", downloaded(), { offer: byOther })).sent[0]).toMatchObject({ code: "bad-signature" });
    const relabelled = { ...offer, package: { ...offer.package, version: "9.9.9" } };
    expect((await run("fw-verify", downloaded(), { offer: relabelled })).sent[0]).toMatchObject({ code: "bad-signature" });
  });

  it("a key the radio's configuration does not hold", async () => {
    const result = await run("fw-verify", downloaded(), { keys: [] });
    expect(result.sent[0]).toMatchObject({ state: "failed", stage: "verify", code: "unknown-key" });
  });
});

it("the memory posted back keeps only what is sound: a header-safe ETag, a whole byte count, a short version", () => {
  expect(firmwareMemoryFrom({ fwEtag: '\u0000"é"', fwHave: "1e309", firmware: "" })).toEqual({
    running: START_FIRMWARE,
    deploymentId: "",
    have: 0,
    etag: "",
    stage: "",
  });
  expect(firmwareMemoryFrom({ fwEtag: '"abc"', fwHave: "12", firmware: "x".repeat(99), fwStage: "downloaded" })).toMatchObject({
    running: "x".repeat(40),
    have: 12,
    etag: '"abc"',
    stage: "downloaded",
  });
});

it("a URL that is not a firmware download is not fetched", async () => {
  const elsewhere = { ...offer, package: { ...offer.package, url: "/api/trpc/accounts.list" } };
  const result = await run("fw-download", fresh, { offer: elsewhere });
  expect(result.sent).toEqual([]);
  expect(result.log).toContain("firmware download: not a download URL");
});

describe("the /simulator page", () => {
  it("shows the firmware the radio runs, keeps it across clicks and sends it at the check-in", async () => {
    const owner = await createUser({ role: "owner" });
    const accountId = await createAccount(owner.orgId, "Simulator firmware fleet");
    await giveSeats(owner.orgId, accountId, 1);
    const [uid] = await registerRadios(owner.orgId, accountId, "SIMFW", 1);
    const first = await (
      await postForm("/simulator", { uid: uid as string, secret: RADIO_SECRET, step: "check-in" }, { Origin: ORIGIN })
    ).text();
    expect(first).toMatch(/data-testid="radio-firmware"[^>]*>sim-1\.0</);
    expect(first).toContain('name="firmware" value="sim-1.0"');
    const stored = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
    expect(stored?.firmware).toBe("sim-1.0");
    // A radio that runs 2.3.0 (kept in the form) says so; no firmware offer, no firmware buttons.
    const next = await (
      await postForm(
        "/simulator",
        { uid: uid as string, secret: RADIO_SECRET, step: "check-in", firmware: "2.3.0" },
        { Origin: ORIGIN },
      )
    ).text();
    expect(next).toMatch(/data-testid="radio-firmware"[^>]*>2\.3\.0</);
    expect(next).not.toContain('data-testid="radio-firmware-panel"');
    const after = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
    expect(after?.firmware).toBe("2.3.0");
    // Hostile hidden fields (a header-breaking ETag, a huge byte count, an unknown stage) are dropped, never a 5xx.
    const hostile = await postForm(
      "/simulator",
      {
        uid: uid as string,
        secret: RADIO_SECRET,
        step: "fw-resume",
        firmware: "2.3.0",
        fwEtag: '\u0000\n"é"',
        fwHave: "1e309",
        failStage: "../x",
      },
      { Origin: ORIGIN },
    );
    expect(hostile.status).toBe(200);
    await hostile.text();
    // A firmware step with nothing offered changes nothing and says so in the log.
    const idle = await (
      await postForm(
        "/simulator",
        { uid: uid as string, secret: RADIO_SECRET, step: "fw-download", firmware: "2.3.0" },
        { Origin: ORIGIN },
      )
    ).text();
    expect(idle).toContain("no firmware offered");
  });
});
