import { env } from "cloudflare:test";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { firmwareManifest } from "@/schema/fleet/firmware-manifest";
import { firmwareSecret, signDownloadUrl } from "@/server/firmware/download-url";
import { publicKeysForOrg, SigningKeyUnreadable, signManifest, verifyManifest } from "@/server/firmware/signing-keys";
import { PART_BYTES, signingSecret } from "@/server/firmware/uploads";
import { translatorFor } from "@/server/i18n/i18n";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// Firmware packages (issue 26): an upload in parts into R2, the SHA-256 measured by the server,
// the manifest signed with the organization's Ed25519 key; refusals for bad parts; visibility
// down the organization tree (a vendor's package read-only at its customer); in-use delete refused.

type Answer<T = unknown> = { result?: { data: T }; error?: { message: string; data: { code: string; httpStatus: number } } };
type Created = { id: string; partBytes: number };
type Listed = { items: { id: string; version: string; orgName: string; state: string; canManage: boolean; inUse: boolean }[] };
type Got = {
  id: string;
  version: string;
  sha256: string;
  size: number;
  signature: string;
  keyId: string;
  publicKey: string;
  state: string;
  canManage: boolean;
};

async function call<T = unknown>(path: string, input: unknown, cookie: string, method: "GET" | "POST" = "POST") {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return (await response.json()) as Answer<T>;
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

function putPart(id: string, n: number, bytes: Uint8Array<ArrayBuffer>, cookie: string, headers: Record<string, string> = {}) {
  return request(`/api/firmware/${id}/parts/${n}`, {
    method: "PUT",
    body: bytes,
    headers: { Origin: ORIGIN, "Content-Type": "application/octet-stream", Cookie: cookie, ...headers },
  });
}

/** Deterministic bytes, different per seed (so a swapped part changes the hash). */
function bytesOf(size: number, seed: number): Uint8Array<ArrayBuffer> {
  const bytes = new Uint8Array(size);
  for (let i = 0; i < size; i += 1) bytes[i] = (i * 31 + seed * 7) & 0xff;
  return bytes;
}

async function sha256Hex(parts: Uint8Array[]): Promise<string> {
  const whole = new Uint8Array(parts.reduce((n, p) => n + p.byteLength, 0));
  let offset = 0;
  for (const part of parts) {
    whole.set(part, offset);
    offset += part.byteLength;
  }
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", whole));
  return [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
}

let vendorOrg = "";
let customerOrg = "";
let vendorOwner = "";
let customerOwner = "";
let customerViewer = "";
let outsider = "";
let customerAccount = "";

beforeAll(async () => {
  vendorOrg = await createOrganization("Firmware vendor");
  customerOrg = await createOrganization("Firmware customer", vendorOrg);
  customerAccount = await createAccount(customerOrg, "Harbor radios");
  const vendorUser = await createUser({ role: "owner", orgId: vendorOrg });
  const customerUser = await createUser({ role: "admin", orgId: customerOrg });
  const viewerUser = await createUser({ role: "viewer", orgId: customerOrg });
  const stranger = await createUser({ role: "owner" });
  [vendorOwner, customerOwner, customerViewer, outsider] = await Promise.all([
    sessionCookie(vendorUser.email),
    sessionCookie(customerUser.email),
    sessionCookie(viewerUser.email),
    sessionCookie(stranger.email),
  ]);
});

describe("upload in parts", () => {
  const parts = [bytesOf(PART_BYTES, 1), bytesOf(PART_BYTES, 2), bytesOf(123_457, 3)];
  let pkg: Got;

  it("stores three parts, measures the SHA-256 itself and signs the manifest", async () => {
    const created = data(
      await call<Created>("firmware.create", { version: "2.4.0", models: ["XR-7", "XR-9"], notes: "Fixes scan." }, vendorOwner),
    );
    expect(created.partBytes).toBe(PART_BYTES);
    // Out of order: the last part first, as a resumed upload may send them.
    for (const n of [3, 1, 2]) {
      const answer = await putPart(created.id, n, parts[n - 1] as Uint8Array<ArrayBuffer>, vendorOwner);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toMatchObject({ ok: true, partNumber: n });
    }
    const done = data(await call<{ sha256: string; size: number }>("firmware.complete", { id: created.id }, vendorOwner));
    expect(done.sha256).toBe(await sha256Hex(parts));
    expect(done.size).toBe(2 * PART_BYTES + 123_457);

    pkg = data(await call<Got>("firmware.get", { id: created.id }, vendorOwner, "GET"));
    expect(pkg).toMatchObject({ state: "ready", sha256: done.sha256, size: done.size, canManage: true });
    const stored = await env.FIRMWARE?.head(`packages/${created.id}`);
    expect(stored?.size).toBe(done.size);
  });

  it("the signature verifies with the organization's public key, and fails for a changed version or hash", async () => {
    const manifest = (changes: Partial<{ version: string; sha256: string }> = {}) =>
      firmwareManifest({ packageId: pkg.id, version: pkg.version, sha256: pkg.sha256, size: pkg.size, ...changes });
    expect(await verifyManifest(pkg.publicKey, manifest(), pkg.signature)).toBe(true);
    expect(await verifyManifest(pkg.publicKey, manifest({ version: "2.4.1" }), pkg.signature)).toBe(false);
    expect(await verifyManifest(pkg.publicKey, manifest({ sha256: "0".repeat(64) }), pkg.signature)).toBe(false);
    // A radio of the customer gets the vendor's key among its organization's and its ancestors'.
    const keys = await publicKeysForOrg(env.DB, customerOrg);
    expect(keys).toContainEqual({ keyId: pkg.keyId, publicKey: pkg.publicKey });
    // The private key is stored sealed, never as PKCS#8 in the clear.
    const row = await env.DB.prepare("SELECT private_key FROM firmware_signing_keys WHERE org_id = ?")
      .bind(vendorOrg)
      .first<{ private_key: string }>();
    expect(row?.private_key.startsWith("MC4CAQAwBQYDK2Vw")).toBe(false);
  });

  it("completing twice is refused and changes nothing", async () => {
    const again = await call("firmware.complete", { id: pkg.id }, vendorOwner);
    expect(again.error?.data.httpStatus).toBe(409);
    const after = data(await call<Got>("firmware.get", { id: pkg.id }, vendorOwner, "GET"));
    expect(after.sha256).toBe(pkg.sha256);
  });

  it("records the upload and the completion in the activity log", async () => {
    const { results } = await env.DB.prepare(
      "SELECT action FROM activity_logs WHERE entity_type = 'firmwarePackage' AND entity_id = ? ORDER BY created_at",
    )
      .bind(pkg.id)
      .all<{ action: string }>();
    expect(results.map((r) => r.action)).toEqual(["create", "update"]);
  });
});

describe("bad parts and bad input", () => {
  it("refuses a short part that is not the last, a missing part, an empty part and a part too large", async () => {
    const created = data(await call<Created>("firmware.create", { version: "3.0.0-bad", models: ["XR-7"] }, vendorOwner));
    expect((await putPart(created.id, 1, bytesOf(1000, 1), vendorOwner)).status).toBe(200);
    expect((await putPart(created.id, 2, bytesOf(1000, 2), vendorOwner)).status).toBe(200);
    const tooSmall = await call("firmware.complete", { id: created.id }, vendorOwner);
    expect(tooSmall.error?.data.httpStatus).toBe(400);
    expect(tooSmall.error?.message).toContain("1");

    const gap = data(await call<Created>("firmware.create", { version: "3.0.0-gap", models: ["XR-7"] }, vendorOwner));
    expect((await putPart(gap.id, 2, bytesOf(1000, 2), vendorOwner)).status).toBe(200);
    const missing = await call("firmware.complete", { id: gap.id }, vendorOwner);
    expect(missing.error?.data.httpStatus).toBe(400);

    const empty = await putPart(gap.id, 1, new Uint8Array(), vendorOwner);
    expect(empty.status).toBe(400);
    const large = await putPart(gap.id, 1, bytesOf(PART_BYTES + 1, 1), vendorOwner);
    expect(large.status).toBe(413);
    const beyond = await putPart(gap.id, 65, bytesOf(10, 1), vendorOwner);
    expect(beyond.status).toBe(413);
    expect(((await beyond.json()) as { message: string }).message.length).toBeGreaterThan(10);
  });

  it("refuses a file over 512 MB before any byte, an empty model list, a taken version", async () => {
    const huge = await call("firmware.create", { version: "9", models: ["XR-7"], size: 513 * 1024 * 1024 }, vendorOwner);
    expect(huge.error?.data.httpStatus).toBe(413);
    const noModels = await call("firmware.create", { version: "9", models: [] }, vendorOwner);
    expect(noModels.error?.data.httpStatus).toBe(400);
    const taken = await call("firmware.create", { version: "2.4.0", models: ["XR-7"] }, vendorOwner);
    expect(taken.error?.data.httpStatus).toBe(409);
  });

  it("refuses a part from another site, without a session, or to a package already complete", async () => {
    const created = data(await call<Created>("firmware.create", { version: "3.1.0", models: ["XR-7"] }, vendorOwner));
    expect((await putPart(created.id, 1, bytesOf(10, 1), vendorOwner, { Origin: "https://evil.example" })).status).toBe(403);
    expect((await putPart(created.id, 1, bytesOf(10, 1), "")).status).toBe(401);
    expect((await putPart(created.id, 1, bytesOf(10, 1), vendorOwner)).status).toBe(200);
    data(await call("firmware.complete", { id: created.id }, vendorOwner));
    expect((await putPart(created.id, 1, bytesOf(10, 1), vendorOwner)).status).toBe(409);
  });

  it("cancelling an upload deletes the package and its parts", async () => {
    const created = data(await call<Created>("firmware.create", { version: "3.2.0", models: ["XR-7"] }, vendorOwner));
    await putPart(created.id, 1, bytesOf(10, 1), vendorOwner);
    data(await call("firmware.delete", { id: created.id }, vendorOwner));
    const gone = await call("firmware.get", { id: created.id }, vendorOwner, "GET");
    expect(gone.error?.data.httpStatus).toBe(404);
  });
});

describe("who sees and who changes a package", () => {
  let vendorPackage = "";
  beforeAll(async () => {
    const listed = data(await call<Listed>("firmware.list", {}, vendorOwner, "GET"));
    vendorPackage = listed.items.find((item) => item.version === "2.4.0")?.id ?? "";
    expect(vendorPackage).not.toBe("");
  });

  it("a vendor's package is listed in its customer's account, read-only there", async () => {
    const listed = data(await call<Listed>("firmware.list", { accountId: customerAccount }, customerOwner, "GET"));
    const item = listed.items.find((entry) => entry.id === vendorPackage);
    expect(item).toMatchObject({ orgName: "Firmware vendor", canManage: false });
    const got = data(await call<Got>("firmware.get", { id: vendorPackage, accountId: customerAccount }, customerOwner, "GET"));
    expect(got.canManage).toBe(false);
    const refused = await call("firmware.delete", { id: vendorPackage, accountId: customerAccount }, customerOwner);
    expect(refused.error?.data.httpStatus).toBe(403);
    const part = await putPart(vendorPackage, 1, bytesOf(10, 1), customerOwner);
    expect(part.status).toBe(403);
  });

  it("another tenant's package answers 404, alike for reading, completing, a part and deleting", async () => {
    for (const [path, method] of [
      ["firmware.get", "GET"],
      ["firmware.complete", "POST"],
      ["firmware.delete", "POST"],
    ] as const) {
      const answer = await call(path, { id: vendorPackage }, outsider, method);
      expect(answer.error?.data.httpStatus).toBe(404);
    }
    expect((await putPart(vendorPackage, 1, bytesOf(10, 1), outsider)).status).toBe(404);
    const listed = data(await call<Listed>("firmware.list", {}, outsider, "GET"));
    expect(listed.items.map((item) => item.id)).not.toContain(vendorPackage);
  });

  it("without manage-devices: 403", async () => {
    const answer = await call("firmware.list", { accountId: customerAccount }, customerViewer, "GET");
    expect(answer.error?.data.httpStatus).toBe(403);
    const create = await call("firmware.create", { version: "1", models: ["XR-7"] }, customerViewer);
    expect(create.error?.data.httpStatus).toBe(403);
  });

  it("a package a deployment uses cannot be deleted (409); the list says it is in use", async () => {
    const revisionId = `rev_fw_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES (?, ?, 1, 'x', '{}')").bind(
        revisionId,
        customerAccount,
      ),
      env.DB.prepare(
        `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, kind, package_id)
         VALUES (?, ?, ?, 1, ?, 'running', '{"phases":[]}', '{"mode":"delivery"}', 0, 'test', 'firmware', ?)`,
      ).bind(`dep_fw_${crypto.randomUUID().slice(0, 8)}`, customerAccount, customerOrg, revisionId, vendorPackage),
    ]);
    const refused = await call("firmware.delete", { id: vendorPackage }, vendorOwner);
    expect(refused.error?.data.httpStatus).toBe(409);
    const listed = data(await call<Listed>("firmware.list", {}, vendorOwner, "GET"));
    expect(listed.items.find((item) => item.id === vendorPackage)?.inUse).toBe(true);
    expect(await env.FIRMWARE?.head(`packages/${vendorPackage}`)).not.toBeNull();
  });

  it("deleting an unused package removes its file too", async () => {
    const created = data(await call<Created>("firmware.create", { version: "4.0.0", models: ["XR-7"] }, vendorOwner));
    await putPart(created.id, 1, bytesOf(100, 4), vendorOwner);
    data(await call("firmware.complete", { id: created.id }, vendorOwner));
    expect(await env.FIRMWARE?.head(`packages/${created.id}`)).not.toBeNull();
    data(await call("firmware.delete", { id: created.id }, vendorOwner));
    expect(await env.FIRMWARE?.head(`packages/${created.id}`)).toBeNull();
  });
});

describe("the signing secret", () => {
  it("a production server without FIRMWARE_KEY_SECRET refuses to sign in words (412), locally a fixed key serves", () => {
    const t = translatorFor("fr-CA", "northwind");
    let refused: unknown = null;
    try {
      signingSecret({ t, env: { ...env, APP_ENV: "production", FIRMWARE_KEY_SECRET: undefined } });
    } catch (error) {
      refused = error;
    }
    expect(refused).toBeInstanceOf(TRPCError);
    expect((refused as TRPCError).code).toBe("PRECONDITION_FAILED");
    expect((refused as TRPCError).message).toContain("FIRMWARE_KEY_SECRET");
    expect((refused as TRPCError).message).toContain("signature");
    expect(signingSecret({ t, env: { ...env, APP_ENV: "production", FIRMWARE_KEY_SECRET: "s3cret" } })).toBe("s3cret");
    expect(signingSecret({ t, env: { ...env, APP_ENV: "local", FIRMWARE_KEY_SECRET: undefined } }).length).toBeGreaterThan(10);
  });

  it("a key made under one secret does not open under another: a refusal of its own, not a crash", async () => {
    const org = await createOrganization("Secret rotation");
    const first = await signManifest(env.DB, "the first secret", org, "manifest");
    expect(first.keyId).toMatch(/^fwk_[0-9a-f]{16}$/);
    await expect(signManifest(env.DB, "another secret", org, "manifest")).rejects.toBeInstanceOf(SigningKeyUnreadable);
  });
});

describe("from upload to a radio", () => {
  it("a package uploaded in parts downloads byte-exact through a signed URL, resumed by Range, and verifies", async () => {
    const file = [bytesOf(PART_BYTES, 11), bytesOf(54_321, 12)];
    const created = data(await call<Created>("firmware.create", { version: "6.0.0-radio", models: ["XR-7"] }, vendorOwner));
    for (const [i, part] of file.entries()) expect((await putPart(created.id, i + 1, part, vendorOwner)).status).toBe(200);
    data(await call("firmware.complete", { id: created.id }, vendorOwner));
    const pkg = data(await call<Got>("firmware.get", { id: created.id }, vendorOwner, "GET"));

    // A radio of the customer: the first 5 MB, the connection drops, then the rest by Range.
    const { url } = await signDownloadUrl(firmwareSecret(env) as string, pkg.id, "RADIO-FW-1", new Date());
    const cut = 5_000_000;
    const head = await request(url, { headers: { Range: `bytes=0-${cut - 1}` } });
    expect(head.status).toBe(206);
    const tail = await request(url, { headers: { Range: `bytes=${cut}-` } });
    expect(tail.status).toBe(206);
    const received = new Uint8Array([...new Uint8Array(await head.arrayBuffer()), ...new Uint8Array(await tail.arrayBuffer())]);
    expect(received.length).toBe(pkg.size);
    const hash = await sha256Hex([received]);
    expect(hash).toBe(pkg.sha256);

    const manifest = firmwareManifest({ packageId: pkg.id, version: pkg.version, sha256: hash, size: received.length });
    const keys = await publicKeysForOrg(env.DB, customerOrg);
    const key = keys.find((k) => k.keyId === pkg.keyId);
    expect(key).toBeDefined();
    expect(await verifyManifest(key?.publicKey ?? "", manifest, pkg.signature)).toBe(true);
  });
});
