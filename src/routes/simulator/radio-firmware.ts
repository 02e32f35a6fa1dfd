import { firmwareManifest } from "@/schema/fleet/firmware-manifest";
import type { Env } from "@/server/env";
import { firmwareDownload } from "@/server/firmware/download-route";
import { DOWNLOAD_PATH } from "@/server/firmware/download-url";

/**
 * The simulator radio's firmware (issue 26, docs/device-protocol.md "Firmware over the air"):
 * one click, one step of an update: download (optionally cut midway), resume with Range and
 * If-Range, verify SHA-256 and the Ed25519 signature, install, reboot into the new firmware or
 * the old one, or fail at a stage. A browser-driven radio keeps nothing between clicks but
 * hidden fields, so it remembers how many bytes it holds and their ETag; at "verify" it reads
 * the same bytes again into the hash (streamed, never buffered).
 */
export const FIRMWARE_STEPS = [
  "fw-download",
  "fw-download-cut",
  "fw-resume",
  "fw-verify",
  "fw-install",
  "fw-reboot",
  "fw-boot-old",
  "fw-fail",
] as const;
export type FirmwareStep = (typeof FIRMWARE_STEPS)[number];
export const FAIL_STAGES = ["download", "verify", "install", "reboot"] as const;
export type FailStage = (typeof FAIL_STAGES)[number];

/** The check-in's `firmware` block (docs/device-protocol.md, "What the check-in tells a radio"). */
export type FirmwareOffer = {
  deployment: { id: string; number: number; state: string };
  package: {
    id: string;
    version: string;
    size: number;
    sha256: string;
    signature: string;
    keyId: string;
    /** Null when the server holds no signing secret (then it hands out no downloads). */
    url: string | null;
    urlExpiresAt: string | null;
  };
  yourState: string;
  /** After a failure: the stage it happened at. */
  failedAt?: string | null;
  progress: number | null;
  retry?: { attempt: number; notBefore: string };
};

/** What the radio remembers of its update between clicks (hidden fields). */
export type FirmwareMemory = {
  /** The firmware it runs: sent at every check-in. */
  running: string;
  deploymentId: string;
  /** Bytes of the package file it holds, and the ETag they came with. */
  have: number;
  etag: string;
  /** The last stage this radio reported (its own view; the server's is `yourState`). */
  stage: string;
};

export const START_FIRMWARE = "sim-1.0";

export function firmwareMemoryFrom(posted: Record<string, string | undefined>): FirmwareMemory {
  const have = Number(posted.fwHave ?? "0");
  return {
    running: (posted.firmware ?? "").trim().slice(0, 40) || START_FIRMWARE,
    deploymentId: (posted.fwDeploymentId ?? "").slice(0, 64),
    have: Number.isSafeInteger(have) && have > 0 ? have : 0,
    // Sent back in If-Range: only what a header may carry (anything else would make the request throw).
    etag: /^[\x21-\x7e]{1,200}$/.test(posted.fwEtag ?? "") ? (posted.fwEtag as string) : "",
    stage: (posted.fwStage ?? "").slice(0, 20),
  };
}

type Report = (deploymentId: string, body: Record<string, unknown>) => Promise<{ status: number }>;
type Keys = () => Promise<{ keyId: string; publicKey: string }[]>;

/** GET the signed URL through the download route itself, in process, as the radio would over HTTPS. */
function fetchPackage(env: Env, url: string | null, headers: Record<string, string>): Promise<Response> | null {
  if (!url?.startsWith(DOWNLOAD_PATH)) return null;
  return Promise.resolve(firmwareDownload.request(`/${url.slice(DOWNLOAD_PATH.length)}`, { headers }, env));
}

const hex = (buffer: ArrayBuffer) => [...new Uint8Array(buffer)].map((b) => b.toString(16).padStart(2, "0")).join("");
const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

/** SHA-256 of a stream without holding it: the Workers runtime's DigestStream. */
async function sha256Of(stream: ReadableStream<Uint8Array>): Promise<string> {
  const runtime = crypto as unknown as {
    DigestStream: new (algorithm: string) => WritableStream<Uint8Array> & { digest: Promise<ArrayBuffer> };
  };
  const digest = new runtime.DigestStream("SHA-256");
  await stream.pipeTo(digest);
  return hex(await digest.digest);
}

async function signatureHolds(
  offer: FirmwareOffer,
  keys: Awaited<ReturnType<Keys>>,
): Promise<"ok" | "unknown-key" | "bad-signature"> {
  const key = keys.find((k) => k.keyId === offer.package.keyId);
  if (!key) return "unknown-key";
  try {
    const publicKey = await crypto.subtle.importKey("raw", fromBase64(key.publicKey), { name: "Ed25519" }, false, ["verify"]);
    const text = firmwareManifest({
      packageId: offer.package.id,
      version: offer.package.version,
      sha256: offer.package.sha256,
      size: offer.package.size,
    });
    const holds = await crypto.subtle.verify(
      "Ed25519",
      publicKey,
      fromBase64(offer.package.signature),
      new TextEncoder().encode(text),
    );
    return holds ? "ok" : "bad-signature";
  } catch {
    return "bad-signature";
  }
}

/**
 * Reads the answer's body, counting bytes and reporting `downloading` at each 10 % the radio
 * crosses; stops at `stopAt` bytes (a cut link).
 */
async function receive(
  response: Response,
  from: number,
  size: number,
  stopAt: number,
  progressed: (percent: number) => Promise<void>,
): Promise<number> {
  let have = from;
  let reported = Math.floor((from / size) * 10) * 10;
  const reader = (response.body as ReadableStream<Uint8Array>).getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    have = Math.min(have + value.byteLength, stopAt);
    const percent = Math.floor((have / size) * 10) * 10;
    if (percent > reported && percent < 100) {
      reported = percent;
      await progressed(percent);
    }
    if (have >= stopAt) {
      await reader.cancel();
      break;
    }
  }
  return have;
}

/**
 * One firmware step against the offer a check-in just gave. Returns the radio's new memory
 * and lines for the protocol log.
 */
export async function firmwareStep(
  env: Env,
  offer: FirmwareOffer,
  step: FirmwareStep,
  failStage: FailStage,
  memory: FirmwareMemory,
  io: { report: Report; keys: Keys },
): Promise<{ memory: FirmwareMemory; log: string[] }> {
  const log: string[] = [];
  const pkg = offer.package;
  // A new deployment (or a retry of the same): the radio starts from nothing.
  let next: FirmwareMemory =
    memory.deploymentId === offer.deployment.id && !offer.retry
      ? { ...memory }
      : { ...memory, deploymentId: offer.deployment.id, have: 0, etag: "", stage: "" };
  const report = async (body: Record<string, unknown>) => {
    const answer = await io.report(offer.deployment.id, body);
    log.push(`firmware ${String(body.state)}${body.progress === undefined ? "" : ` ${body.progress} %`} → ${answer.status}`);
    if (answer.status === 200) next = { ...next, stage: String(body.state === "failed" ? `failed-${body.stage}` : body.state) };
    return answer;
  };

  if (next.running === pkg.version) {
    await report({ state: "already_in_sync" });
    return { memory: next, log };
  }

  if (step === "fw-download" || step === "fw-download-cut" || step === "fw-resume") {
    const resuming = step === "fw-resume" && next.have > 0 && next.have < pkg.size;
    const headers: Record<string, string> = resuming
      ? { Range: `bytes=${next.have}-`, ...(next.etag ? { "If-Range": next.etag } : {}) }
      : {};
    const pending = fetchPackage(env, pkg.url, headers);
    if (!pending) {
      log.push("firmware download: not a download URL");
      return { memory: next, log };
    }
    const response = await pending;
    log.push(`GET firmware${resuming ? ` ${headers.Range}` : ""} → ${response.status}`);
    if (response.status !== 200 && response.status !== 206) {
      await response.body?.cancel();
      return { memory: next, log };
    }
    // 200 to a resume: the file changed (If-Range), so it starts over.
    const from = response.status === 206 ? next.have : 0;
    if (from === 0) await report({ state: "downloading", progress: 0 });
    const stopAt = step === "fw-download-cut" ? Math.floor(pkg.size / 2) : pkg.size;
    const have = await receive(response, from, pkg.size, stopAt, async (progress) => {
      await report({ state: "downloading", progress });
    });
    next = { ...next, have, etag: response.headers.get("etag") ?? "" };
    if (have < pkg.size) log.push(`firmware download cut at ${have} of ${pkg.size} bytes`);
    else await report({ state: "downloaded" });
    return { memory: next, log };
  }

  if (step === "fw-verify") {
    if (next.have < pkg.size) {
      log.push("firmware verify: the file is not all here yet");
      return { memory: next, log };
    }
    const response = await fetchPackage(env, pkg.url, {});
    if (response?.status !== 200 || !response.body) {
      await response?.body?.cancel();
      log.push(`firmware verify: the file could not be read again (${response?.status ?? "no URL"})`);
      return { memory: next, log };
    }
    const digest = await sha256Of(response.body as ReadableStream<Uint8Array>);
    if (digest !== pkg.sha256) {
      await report({ state: "failed", stage: "verify", code: "hash-mismatch", detail: `SHA-256 ${digest.slice(0, 16)}…` });
      return { memory: { ...next, have: 0, etag: "" }, log };
    }
    const signature = await signatureHolds(offer, await io.keys());
    if (signature !== "ok") {
      await report({ state: "failed", stage: "verify", code: signature, detail: `key ${pkg.keyId}` });
      return { memory: { ...next, have: 0, etag: "" }, log };
    }
    await report({ state: "verified" });
    return { memory: next, log };
  }

  if (step === "fw-install") await report({ state: "installing" });
  else if (step === "fw-reboot" || step === "fw-boot-old") {
    await report({ state: "rebooting" });
    if (step === "fw-boot-old")
      await report({ state: "booted-old", code: "sim-boot-old", detail: "The boot loader fell back to the old firmware." });
    else {
      const updated = await report({ state: "updated" });
      // The new firmware started: sent at every check-in from now on.
      if (updated.status === 200) next = { ...next, running: pkg.version };
    }
  } else if (step === "fw-fail") {
    await report({ state: "failed", stage: failStage, code: `sim-${failStage}`, detail: `Simulated failure at ${failStage}.` });
    if (failStage === "download" || failStage === "verify") next = { ...next, have: 0, etag: "" };
  }
  return { memory: next, log };
}
