import { all, type Db, first, statement } from "../data/db";

/**
 * An organization's Ed25519 firmware signing key (issue 26, migration 0041), made the first time
 * the organization signs a package. The private key is kept only as PKCS#8 sealed with AES-GCM
 * under a key derived from FIRMWARE_KEY_SECRET (firmwareSecret in download-url.ts): a copy of the
 * database alone cannot sign firmware. Radios get the public keys of their organization and its
 * ancestors, so a vendor's package verifies on a customer's radio.
 */
export type PublicSigningKey = { keyId: string; publicKey: string };

type KeyRow = { org_id: string; key_id: string; public_key: string; private_key: string };

const ED25519 = { name: "Ed25519" } as const;

export function toBase64(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let text = "";
  for (const byte of view) text += String.fromCharCode(byte);
  return btoa(text);
}

export function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  const raw = atob(text);
  const bytes = new Uint8Array(raw.length);
  for (let i = 0; i < raw.length; i++) bytes[i] = raw.charCodeAt(i);
  return bytes;
}

const sealingKeys = new Map<string, Promise<CryptoKey>>();

/** AES-GCM key for sealing private keys, derived (HKDF) from the deployment's secret; one per isolate and secret. */
function sealingKey(secret: string): Promise<CryptoKey> {
  let key = sealingKeys.get(secret);
  if (!key) {
    key = (async () => {
      const material = await crypto.subtle.importKey("raw", new TextEncoder().encode(secret), "HKDF", false, ["deriveKey"]);
      return crypto.subtle.deriveKey(
        {
          name: "HKDF",
          hash: "SHA-256",
          salt: new TextEncoder().encode("firmware-signing-keys"),
          info: new TextEncoder().encode("aes-gcm-256"),
        },
        material,
        { name: "AES-GCM", length: 256 },
        false,
        ["encrypt", "decrypt"],
      );
    })();
    sealingKeys.set(secret, key);
  }
  return key;
}

async function seal(secret: string, plain: ArrayBuffer, orgId: string): Promise<string> {
  const iv = crypto.getRandomValues(new Uint8Array(12));
  // The organization id is bound in: a sealed key copied to another organization's row does not open.
  const sealed = await crypto.subtle.encrypt(
    { name: "AES-GCM", iv, additionalData: new TextEncoder().encode(orgId) },
    await sealingKey(secret),
    plain,
  );
  const out = new Uint8Array(12 + sealed.byteLength);
  out.set(iv);
  out.set(new Uint8Array(sealed), 12);
  return toBase64(out);
}

async function unseal(secret: string, sealed: string, orgId: string): Promise<ArrayBuffer> {
  const bytes = fromBase64(sealed);
  return crypto.subtle.decrypt(
    { name: "AES-GCM", iv: bytes.slice(0, 12), additionalData: new TextEncoder().encode(orgId) },
    await sealingKey(secret),
    bytes.slice(12),
  );
}

/** A key's id: the first 16 hex digits of the SHA-256 of its public key (what a radio looks it up by). */
async function keyIdOf(publicKey: ArrayBuffer): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", publicKey));
  return `fwk_${[...digest.slice(0, 8)].map((b) => b.toString(16).padStart(2, "0")).join("")}`;
}

async function newKeyRow(secret: string, orgId: string): Promise<KeyRow> {
  const pair = (await crypto.subtle.generateKey(ED25519, true, ["sign", "verify"])) as CryptoKeyPair;
  const publicKey = (await crypto.subtle.exportKey("raw", pair.publicKey)) as ArrayBuffer;
  const pkcs8 = (await crypto.subtle.exportKey("pkcs8", pair.privateKey)) as ArrayBuffer;
  return {
    org_id: orgId,
    key_id: await keyIdOf(publicKey),
    public_key: toBase64(publicKey),
    private_key: await seal(secret, pkcs8, orgId),
  };
}

/** The organization's key row, made on first need; two first needs at once keep the one written first. */
async function keyRowOf(db: Db, secret: string, orgId: string): Promise<KeyRow> {
  const sql = "SELECT org_id, key_id, public_key, private_key FROM firmware_signing_keys WHERE org_id = ?";
  const existing = await first<KeyRow>(db, sql, orgId);
  if (existing) return existing;
  const made = await newKeyRow(secret, orgId);
  await statement(
    db,
    "INSERT OR IGNORE INTO firmware_signing_keys (org_id, key_id, public_key, private_key) VALUES (?, ?, ?, ?)",
    made.org_id,
    made.key_id,
    made.public_key,
    made.private_key,
  ).run();
  return (await first<KeyRow>(db, sql, orgId)) ?? made;
}

/** The stored private key does not open with this secret (FIRMWARE_KEY_SECRET was changed): nothing can be signed. */
export class SigningKeyUnreadable extends Error {}

/** Signs the manifest text with the organization's key (made on first need). */
export async function signManifest(
  db: Db,
  secret: string,
  orgId: string,
  manifest: string,
): Promise<{ keyId: string; signature: string }> {
  const row = await keyRowOf(db, secret, orgId);
  const pkcs8 = await unseal(secret, row.private_key, orgId).catch(() => {
    throw new SigningKeyUnreadable(`the signing key of ${orgId} does not open with this secret`);
  });
  const privateKey = await crypto.subtle.importKey("pkcs8", pkcs8, ED25519, false, ["sign"]);
  const signature = await crypto.subtle.sign(ED25519, privateKey, new TextEncoder().encode(manifest));
  return { keyId: row.key_id, signature: toBase64(signature) };
}

/** Whether `signature` (base64) is the key's signature of `manifest`: what a radio checks. */
export async function verifyManifest(publicKey: string, manifest: string, signature: string): Promise<boolean> {
  try {
    const key = await crypto.subtle.importKey("raw", fromBase64(publicKey), ED25519, false, ["verify"]);
    return await crypto.subtle.verify(ED25519, key, fromBase64(signature), new TextEncoder().encode(manifest));
  } catch {
    return false;
  }
}

/** The public keys of the organization and of every organization above it, nearest first. */
export async function publicKeysForOrg(db: Db, orgId: string): Promise<PublicSigningKey[]> {
  const rows = await all<{ key_id: string; public_key: string }>(
    db,
    `SELECT k.key_id, k.public_key
       FROM organization_ancestors a
       JOIN firmware_signing_keys k ON k.org_id = a.ancestor_id
      WHERE a.org_id = ?
      ORDER BY (SELECT count(*) FROM organization_ancestors d WHERE d.org_id = a.ancestor_id) DESC`,
    orgId,
  );
  return rows.map((row) => ({ keyId: row.key_id, publicKey: row.public_key }));
}

/** One organization's public key, if it has signed anything yet. */
export async function publicKeyOf(db: Db, orgId: string): Promise<PublicSigningKey | null> {
  const row = await first<{ key_id: string; public_key: string }>(
    db,
    "SELECT key_id, public_key FROM firmware_signing_keys WHERE org_id = ?",
    orgId,
  );
  return row ? { keyId: row.key_id, publicKey: row.public_key } : null;
}
