import type { Db } from "../data/db";
import { readFleetVersion } from "../data/fleet-versions";

/**
 * The config ETag as a signed token (issue 12): `"<etag>.<account>.<version>.<mac>"`, where
 * mac = base64url HMAC-SHA256(key, uid | account | etag | fleet version | sha256(secret)),
 * 22 characters (132 bits). A radio that presents it in If-None-Match together with its
 * credentials proves that, at that fleet version, its credentials held and its config had that
 * ETag; if the account's fleet version has not moved since, GET /config answers 304 without
 * reading D1. The version is cached per isolate for FLEET_VERSION_FRESH_MS: the stated bound on
 * how long a 304 may lag a fleet change (docs/device-protocol.md). Radios told of a change
 * (a push, a new desired revision) ask with `Cache-Control: no-cache`, which takes the full path.
 */
export const FLEET_VERSION_FRESH_MS = 10_000;
const MAC_CHARS = 22;
const MAX_CACHED_ACCOUNTS = 10_000;

export type ConfigToken = { raw: string; etag: string; accountId: string; version: number; mac: string };

const TOKEN = /^"([^".,\s]{1,80})\.([A-Za-z0-9_-]{1,64})\.(\d{1,15})\.([A-Za-z0-9_-]{22})"$/;

/** Tokens in an If-None-Match header (weak prefixes ignored); at most a few, so a long header costs nothing. */
export function parseTokens(header: string | undefined): ConfigToken[] {
  if (!header || header.length > 1024) return [];
  const tokens: ConfigToken[] = [];
  for (const part of header.split(",").slice(0, 4)) {
    const raw = part.trim().replace(/^W\//, "");
    const match = TOKEN.exec(raw);
    if (!match?.[1] || !match[2] || !match[3] || !match[4]) continue;
    tokens.push({ raw, etag: `"${match[1]}"`, accountId: match[2], version: Number(match[3]), mac: match[4] });
  }
  return tokens;
}

/** The plain ETags a header names: signed tokens read as their underlying ETag. */
export function plainEtags(header: string | undefined): string[] {
  if (!header || header.length > 1024) return [];
  return header.split(",").map((part) => {
    const raw = part.trim().replace(/^W\//, "");
    const token = parseTokens(raw)[0];
    return token ? token.etag : raw;
  });
}

/** `Cache-Control: no-cache` (or `Pragma: no-cache`): the caller wants the full path. */
export function wantsFullPath(cacheControl: string | undefined, pragma: string | undefined): boolean {
  return /(^|[\s,])no-cache($|[\s,])/i.test(cacheControl ?? "") || /no-cache/i.test(pragma ?? "");
}

// The key: DEVICE_ETAG_KEY (a wrangler secret), else a random one per isolate (still correct:
// a token from another isolate then fails its check and takes the full path).
let isolateSecret: string | undefined;
const keys = new Map<string, Promise<CryptoKey>>();

function keyOf(configured: string | undefined): Promise<CryptoKey> {
  if (!configured && !isolateSecret) isolateSecret = crypto.randomUUID() + crypto.randomUUID();
  const secret = configured || isolateSecret || "";
  let key = keys.get(secret);
  if (!key) {
    key = crypto.subtle.importKey("raw", new TextEncoder().encode(secret), { name: "HMAC", hash: "SHA-256" }, false, ["sign"]);
    keys.set(secret, key);
  }
  return key;
}

function base64url(bytes: ArrayBuffer): string {
  let text = "";
  for (const byte of new Uint8Array(bytes)) text += String.fromCharCode(byte);
  return btoa(text).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

type Signed = { uid: string; accountId: string; etag: string; version: number; secretHash: string };

async function macOf(configuredKey: string | undefined, s: Signed): Promise<string> {
  const message = `${s.uid}|${s.accountId}|${s.etag}|${s.version}|${s.secretHash}`;
  const signature = await crypto.subtle.sign("HMAC", await keyOf(configuredKey), new TextEncoder().encode(message));
  return base64url(signature).slice(0, MAC_CHARS);
}

/** The token for a radio's current config ETag (a radio without an account gets the plain ETag). */
export async function signConfigToken(
  configuredKey: string | undefined,
  s: Omit<Signed, "accountId"> & { accountId: string | null },
) {
  if (!s.accountId) return s.etag;
  const mac = await macOf(configuredKey, { ...s, accountId: s.accountId });
  return `"${s.etag.slice(1, -1)}.${s.accountId}.${s.version}.${mac}"`;
}

/** The token was issued by this server for this uid and this secret. Constant time in the mac. */
export async function verifyConfigToken(
  configuredKey: string | undefined,
  uid: string,
  secretHash: string,
  token: ConfigToken,
): Promise<boolean> {
  const expected = await macOf(configuredKey, {
    uid,
    accountId: token.accountId,
    etag: token.etag,
    version: token.version,
    secretHash,
  });
  let diff = expected.length ^ token.mac.length;
  for (let i = 0; i < expected.length; i++) diff |= expected.charCodeAt(i) ^ token.mac.charCodeAt(i);
  return diff === 0;
}

// The per-isolate cache of fleet versions: one entry per account, shared by all its radios.
const versions = new Map<string, { version: number; readAt: number }>();

/** Remember a version read at `readAt` (a full path's read, or a write in this isolate). */
export function noteFleetVersion(accountId: string, version: number, readAt: number): void {
  const known = versions.get(accountId);
  if (known && known.readAt > readAt) return;
  if (!known && versions.size >= MAX_CACHED_ACCOUNTS) {
    const oldest = versions.keys().next().value;
    if (oldest !== undefined) versions.delete(oldest);
  }
  versions.set(accountId, { version, readAt });
}

/** Forget one account's cached version (a write in this isolate), or all of them. */
export function forgetFleetVersion(accountId?: string): void {
  if (accountId === undefined) versions.clear();
  else versions.delete(accountId);
}

/** The account's fleet version, from the cache while fresh, else one small D1 read. */
export async function currentFleetVersion(db: Db, accountId: string, now = Date.now()): Promise<number> {
  const known = versions.get(accountId);
  if (known && now >= known.readAt && now - known.readAt < FLEET_VERSION_FRESH_MS) return known.version;
  const readAt = Date.now();
  const version = await readFleetVersion(db, accountId);
  noteFleetVersion(accountId, version, readAt);
  return version;
}
