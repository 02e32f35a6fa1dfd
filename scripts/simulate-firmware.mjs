// The firmware part of `npm run simulate` (docs/device-protocol.md, "Firmware over the air"):
// a radio follows the check-in's `firmware` block: downloads with Range resume (optionally cut
// once midway), verifies SHA-256 and the Ed25519 signature, reports each stage, and fails at a
// stage on request. The file is hashed as it streams, never kept: a thousand radios fit in memory.
import { createHash, createPublicKey, verify } from "node:crypto";

export const FIRMWARE_FAIL_STAGES = ["download", "verify", "install", "reboot", "boot-old"];
/**
 * `yourState`s after which a radio does not act again on the deployment (unless it offers a
 * retry): the final states (docs/device-protocol.md).
 */
const FINAL = new Set(["updated", "failed", "booted-old", "rejected", "already_in_sync"]);

/** The signed text (src/schema/fleet/firmware-manifest.ts): five lines, each ended by a line feed. */
export function firmwareManifest(p) {
  return `configuration-tool-firmware/1\n${p.id}\n${p.version}\n${p.sha256}\n${p.size}\n`;
}

export function newFirmwareStats() {
  return {
    offered: 0,
    downloads: 0,
    bytes: 0,
    resumed: 0,
    interrupted: 0,
    expiredUrls: 0,
    updated: 0,
    alreadyInSync: 0,
    reports: 0,
    reportsRefused: 0,
    failures: { download: 0, verify: 0, install: 0, reboot: 0, "booted-old": 0 },
  };
}

/** The Ed25519 public key from the raw 32 bytes `firmwareKeys` carries (base64). */
function publicKeyOf(raw) {
  return createPublicKey({
    key: { kty: "OKP", crv: "Ed25519", x: Buffer.from(raw, "base64").toString("base64url") },
    format: "jwk",
  });
}

export function signatureHolds(pkg, keys) {
  const key = keys.find((k) => k.keyId === pkg.keyId);
  if (!key) return "unknown-key";
  try {
    return verify(
      null,
      Buffer.from(firmwareManifest(pkg), "utf8"),
      publicKeyOf(key.publicKey),
      Buffer.from(pkg.signature, "base64"),
    )
      ? "ok"
      : "bad-signature";
  } catch {
    return "bad-signature";
  }
}

/**
 * What one radio does with a check-in's `firmware` block. `io` talks to the server:
 * `report(deploymentId, body)`, `configKeys()` (GET /config's firmwareKeys), `checkIn()` (for a
 * fresh URL), `fetch(path, headers)`. `plan`: { interruptOnce, failAt } decided per radio.
 */
export function shouldAct(radio, fw, now = Date.now()) {
  if (!fw?.package || radio.fwBusy) return false;
  const retry = fw.retry;
  if (retry) {
    if (Date.parse(retry.notBefore) > now) return false;
    return radio.fwAttempt?.[fw.deployment.id] !== retry.attempt;
  }
  if (FINAL.has(fw.yourState)) return false;
  return radio.fwDone !== fw.deployment.id;
}

export async function followFirmware(radio, fw, io, plan, stats) {
  radio.fwBusy = true;
  const deploymentId = fw.deployment.id;
  radio.fwAttempt = { ...radio.fwAttempt, [deploymentId]: fw.retry?.attempt ?? 0 };
  const report = async (body) => {
    const answer = await io.report(deploymentId, body);
    if (answer.status === 200) stats.reports++;
    else stats.reportsRefused++;
    return answer;
  };
  try {
    stats.offered++;
    const pkg = fw.package;
    if (radio.firmware === pkg.version) {
      stats.alreadyInSync++;
      await report({ state: "already_in_sync" });
      return;
    }
    const failed = async (stage, code, detail) => {
      stats.failures[stage === "boot-old" ? "booted-old" : stage]++;
      await report(stage === "boot-old" ? { state: "booted-old", code, detail } : { state: "failed", stage, code, detail });
    };
    const got = await download(pkg, io, plan, stats, report);
    if (got.error) return await failed("download", got.error, got.detail);
    await report({ state: "downloaded" });

    let keys = radio.firmwareKeys ?? [];
    if (!keys.some((k) => k.keyId === pkg.keyId)) keys = radio.firmwareKeys = await io.configKeys();
    // A simulated corrupt file: one byte more into the hash, so the real check catches it.
    if (plan.failAt === "verify") got.hash.update(Buffer.from([0]));
    const digest = got.hash.digest("hex");
    if (digest !== pkg.sha256)
      return await failed("verify", "hash-mismatch", `SHA-256 ${digest.slice(0, 16)}… is not the package's`);
    const signature = signatureHolds(pkg, keys);
    if (signature !== "ok") return await failed("verify", signature, `key ${pkg.keyId}`);
    await report({ state: "verified" });

    await report({ state: "installing" });
    if (plan.failAt === "install") return await failed("install", "sim-install", "simulated: flash write failed");
    await report({ state: "rebooting" });
    if (plan.failAt === "reboot") return await failed("reboot", "sim-reboot", "simulated: no boot after restart");
    if (plan.failAt === "boot-old") return await failed("boot-old", "sim-boot-old", "simulated: the boot loader fell back");
    await report({ state: "updated" });
    // Sent at the next check-in (docs/device-protocol.md).
    radio.firmware = pkg.version;
    stats.updated++;
  } finally {
    radio.fwDone = deploymentId;
    radio.fwBusy = false;
  }
}

/** GET the file with resume: cut once midway if the plan says so, then `Range` + `If-Range`. */
async function download(pkg, io, plan, stats, report) {
  let hash = createHash("sha256");
  let url = pkg.url;
  let have = 0;
  let etag = null;
  let reported = 0;
  let cutPending = plan.interruptOnce;
  let expiredOnce = false;
  const failAfter = plan.failAt === "download" ? Math.floor(pkg.size * 0.3) : Number.POSITIVE_INFINITY;
  if (!url) return { error: "no-url", detail: "the check-in gave no download URL" };
  stats.downloads++;
  await report({ state: "downloading", progress: 0 });
  for (let attempt = 0; attempt < 5; attempt++) {
    const headers = have > 0 ? { Range: `bytes=${have}-`, ...(etag ? { "If-Range": etag } : {}) } : {};
    const controller = new AbortController();
    const response = await io.fetch(url, headers, controller.signal);
    if (response.status === 403) {
      const code = (await response.json().catch(() => null))?.error?.code;
      if (code === "URL_EXPIRED" && !expiredOnce) {
        // Check in for a fresh URL and go on where it stopped.
        expiredOnce = true;
        stats.expiredUrls++;
        const fresh = await io.checkIn();
        if (fresh?.package?.url) url = fresh.package.url;
        continue;
      }
      return { error: code === "URL_EXPIRED" ? "url-expired" : "forbidden", detail: `HTTP 403 ${code ?? ""}`.trim() };
    }
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      return { error: `http-${response.status}`, detail: `GET answered ${response.status}` };
    }
    if (response.status === 200 && have > 0) {
      // The file changed since the first part (If-Range): this answer is the whole new file.
      hash = createHash("sha256");
      have = 0;
    }
    if (response.status === 206) stats.resumed++;
    etag = response.headers.get("etag");
    const stopAt = Math.min(cutPending ? Math.floor(pkg.size / 2) : Number.POSITIVE_INFINITY, failAfter);
    const reader = response.body.getReader();
    let stopped = false;
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      const chunk = have + value.byteLength > stopAt ? value.subarray(0, stopAt - have) : value;
      hash.update(chunk);
      have += chunk.byteLength;
      stats.bytes += chunk.byteLength;
      const progress = Math.floor((have / pkg.size) * 10) * 10;
      if (progress > reported && progress < 100) {
        reported = progress;
        await report({ state: "downloading", progress });
      }
      if (have >= stopAt) {
        stopped = true;
        controller.abort();
        break;
      }
    }
    if (stopped && have >= failAfter)
      return { error: "sim-download", detail: `simulated: link lost at ${have} of ${pkg.size} bytes` };
    if (stopped) {
      cutPending = false;
      stats.interrupted++;
      continue;
    }
    if (have === pkg.size) return { hash };
    return { error: "short-file", detail: `${have} of ${pkg.size} bytes` };
  }
  return { error: "too-many-tries", detail: `${have} of ${pkg.size} bytes after 5 requests` };
}
