import type { Env } from "../env";

/**
 * Short-lived signed download URLs for firmware files (issue 26): the check-in hands a radio
 * `/device/v1/firmware/<packageId>?uid=…&exp=…&sig=…`; the download route checks the HMAC and
 * the expiry only (no D1 read) and serves the R2 object, with Range for resuming.
 * The key is derived from FIRMWARE_KEY_SECRET (outside production a fixed local key), so the
 * shard that signs and the Worker that serves agree in every isolate.
 */
export const DOWNLOAD_URL_SECONDS = 3600;
export const DOWNLOAD_PATH = "/device/v1/firmware/";
const LOCAL_SECRET = "local-only firmware secret: set FIRMWARE_KEY_SECRET when deployed";

export function firmwareSecret(env: Pick<Env, "FIRMWARE_KEY_SECRET" | "APP_ENV">): string | null {
  if (env.FIRMWARE_KEY_SECRET) return env.FIRMWARE_KEY_SECRET;
  return env.APP_ENV === "production" ? null : LOCAL_SECRET;
}

const keys = new Map<string, Promise<CryptoKey>>();
function hmacKey(secret: string): Promise<CryptoKey> {
  let key = keys.get(secret);
  if (!key) {
    const material = new TextEncoder().encode(`download-url\n${secret}`);
    key = crypto.subtle.importKey("raw", material, { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

async function mac(secret: string, packageId: string, uid: string, exp: number): Promise<string> {
  const signed = await crypto.subtle.sign(
    "HMAC",
    await hmacKey(secret),
    new TextEncoder().encode(`${packageId}\n${uid}\n${exp}`),
  );
  return [...new Uint8Array(signed)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export type SignedDownload = { url: string; expiresAt: string };

/** The path (relative to the server) a radio downloads a package from, valid DOWNLOAD_URL_SECONDS. */
export async function signDownloadUrl(secret: string, packageId: string, uid: string, now: Date): Promise<SignedDownload> {
  // Expiry rounded up to the minute: the same URL for a minute's check-ins.
  const exp = Math.ceil((now.getTime() / 1000 + DOWNLOAD_URL_SECONDS) / 60) * 60;
  const query = new URLSearchParams({ uid, exp: String(exp), sig: await mac(secret, packageId, uid, exp) });
  return {
    url: `${DOWNLOAD_PATH}${encodeURIComponent(packageId)}?${query}`,
    expiresAt: new Date(exp * 1000).toISOString(),
  };
}

/** The URL's signature holds and it has not expired. */
export async function verifyDownloadUrl(
  secret: string,
  packageId: string,
  params: URLSearchParams,
  now: Date,
): Promise<"ok" | "expired" | "invalid"> {
  const uid = params.get("uid") ?? "";
  const exp = Number(params.get("exp"));
  const sig = params.get("sig") ?? "";
  if (!uid || !Number.isInteger(exp) || !/^[0-9a-f]{64}$/.test(sig)) return "invalid";
  const expected = await mac(secret, packageId, uid, exp);
  let diff = 0;
  for (let i = 0; i < 64; i++) diff |= expected.charCodeAt(i) ^ sig.charCodeAt(i);
  if (diff !== 0) return "invalid";
  return exp * 1000 < now.getTime() ? "expired" : "ok";
}
