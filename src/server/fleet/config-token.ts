import { all, type Db } from "../data/db";
import { fleetVersionSql } from "../data/fleet-versions";
import { radioChangesSql } from "../data/radio-changes";
import { RadioChangeLog } from "./radio-change-log";

/**
 * The config ETag as a signed token (issue 12): `"<etag>.<account>.<version>.<seq>.<mac>"`,
 * where mac = base64url HMAC-SHA256(key, uid | account | etag | fleet version | seq | sha256(secret)),
 * 22 characters (132 bits). A radio that presents it in If-None-Match together with its
 * credentials proves that, at that fleet version and radio-change seq (migration 0031), its
 * credentials held and its config had that ETag; if the account's fleet version has not moved
 * and no change of this radio came since, GET /config answers 304 without reading D1. Both are
 * cached per isolate for FLEET_VERSION_FRESH_MS: the stated bound on how long a 304 may lag a
 * change (docs/device-protocol.md). Radios told of a change (a push, a new desired revision)
 * ask with `Cache-Control: no-cache`, which takes the full path.
 */
export const FLEET_VERSION_FRESH_MS = 10_000;
const MAC_CHARS = 22;
const MAX_CACHED_ACCOUNTS = 10_000;

export type ConfigToken = { raw: string; etag: string; accountId: string; version: number; seq: number; mac: string };

const TOKEN = /^"([^".,\s]{1,80})\.([A-Za-z0-9_-]{1,64})\.(\d{1,15})\.(\d{1,15})\.([A-Za-z0-9_-]{22})"$/;

/** Tokens in an If-None-Match header (weak prefixes ignored); at most a few, so a long header costs nothing. */
export function parseTokens(header: string | undefined): ConfigToken[] {
  if (!header || header.length > 1024) return [];
  const tokens: ConfigToken[] = [];
  for (const part of header.split(",").slice(0, 4)) {
    const raw = part.trim().replace(/^W\//, "");
    const match = TOKEN.exec(raw);
    if (!match?.[1] || !match[2] || !match[3] || !match[4] || !match[5]) continue;
    tokens.push({
      raw,
      etag: `"${match[1]}"`,
      accountId: match[2],
      version: Number(match[3]),
      seq: Number(match[4]),
      mac: match[5],
    });
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

type Signed = { uid: string; accountId: string; etag: string; version: number; seq: number; secretHash: string };

async function macOf(configuredKey: string | undefined, s: Signed): Promise<string> {
  const message = `${s.uid}|${s.accountId}|${s.etag}|${s.version}|${s.seq}|${s.secretHash}`;
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
  return `"${s.etag.slice(1, -1)}.${s.accountId}.${s.version}.${s.seq}.${mac}"`;
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
    seq: token.seq,
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

// The per-isolate view of the radio-change log (migration 0031), read with the fleet version.
const changes = new RadioChangeLog();
let changesReadAt = Number.NEGATIVE_INFINITY;

/** A write in this isolate changed a radio: the next 304 check reads the log first. */
export function forgetRadioChanges(): void {
  changesReadAt = Number.NEGATIVE_INFINITY;
}

const fresh = (readAt: number | undefined, now: number) =>
  readAt !== undefined && now >= readAt && now - readAt < FLEET_VERSION_FRESH_MS;

/**
 * The token still describes the radio's config: its account's fleet version has not moved and
 * no change of the radio came after its seq. From the caches while fresh, else ONE small D1
 * read of both the version and the log since the last read.
 */
export async function tokenStillValid(db: Db, uid: string, token: ConfigToken, now = Date.now()): Promise<boolean> {
  if (!fresh(versions.get(token.accountId)?.readAt, now) || !fresh(changesReadAt, now)) {
    const readAt = Date.now();
    const rows = await all<{ kind: "v" | "r"; uid: string; value: number }>(
      db,
      `SELECT 'v' AS kind, '' AS uid, ${fleetVersionSql("?1")} AS value
       UNION ALL SELECT 'r', uid, seq FROM (${radioChangesSql("?2", changes.cold)})`,
      token.accountId,
      changes.after,
    );
    noteFleetVersion(token.accountId, rows.find((row) => row.kind === "v")?.value ?? 0, readAt);
    changes.absorb(rows.filter((row) => row.kind === "r").map((row) => ({ uid: row.uid, seq: row.value })));
    changesReadAt = readAt;
  }
  return versions.get(token.accountId)?.version === token.version && !changes.changedSince(uid, token.seq);
}
