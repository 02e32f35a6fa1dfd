import { env } from "cloudflare:test";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApp } from "@/server/app";
import type { D1Database } from "@/server/cloudflare";
import { FLEET_VERSION_FRESH_MS, forgetFleetVersion } from "@/server/fleet/config-token";
import { type Counted, counting } from "./d1-counting";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, RADIO_SECRET, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// GET /device/v1/config's 304 without D1 (issue 12): the ETag is a token signed with the
// radio's credentials and its account's fleet version; while that version has not moved (a
// per-isolate cache, fresh for FLEET_VERSION_FRESH_MS) the 304 needs no D1 call. Every write
// that changes what a radio should get moves the version (migration 0024's triggers); a
// forged token, another radio's token or wrong credentials never earn a 304.

type Answer<T = unknown> = { result?: { data: T }; error?: { data: { code: string } } };

async function api<T = unknown>(path: string, input: unknown, cookie: string): Promise<T> {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  const answer = (await response.json()) as Answer<T>;
  if (!answer.result) throw new Error(`${path}: ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

/** A device call with the D1 binding counting its round trips. */
async function device(
  path: string,
  uid: string,
  init: { body?: unknown; headers?: Record<string, string>; secret?: string } = {},
): Promise<{ status: number; etag: string; calls: number; statements: string[]; json: unknown }> {
  const counted: Counted = { calls: 0, statements: [] };
  const headers: Record<string, string> = { Authorization: bearer(uid, init.secret), ...init.headers };
  if (init.body !== undefined) headers["Content-Type"] = "application/json";
  const response = await createApp().request(
    new Request(new URL(`/device/v1${path}`, ORIGIN), {
      method: init.body === undefined ? "GET" : "POST",
      headers,
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
    }),
    undefined,
    { ...env, DB: counting(env.DB as D1Database, counted) },
  );
  const text = await response.text();
  return {
    status: response.status,
    etag: response.headers.get("etag") ?? "",
    calls: counted.calls,
    statements: counted.statements,
    json: text ? JSON.parse(text) : null,
  };
}

const config = (uid: string, etag: string, headers: Record<string, string> = {}, secret?: string) =>
  device("/config", uid, { headers: { "If-None-Match": etag, ...headers }, secret });

async function fleetVersion(accountId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?")
    .bind(accountId)
    .first<{ version: number }>();
  return row?.version ?? 0;
}

/** Runs `call` as if S seconds had passed: every cached fleet version is stale (each call further on). */
let skew = 0;
async function afterStaleness<T>(call: () => Promise<T>): Promise<T> {
  skew += FLEET_VERSION_FRESH_MS + 1_000;
  const spy = vi.spyOn(Date, "now").mockReturnValue(Date.now() + skew);
  try {
    return await call();
  } finally {
    spy.mockRestore();
    // Back from the future: versions noted then would look read later than now.
    forgetFleetVersion();
  }
}

let cookie = "";
let orgId = "";
let accountId = "";
let otherAccountId = "";
let radios: string[] = [];

async function setNetwork(dns: string) {
  await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
    .bind(JSON.stringify({ dnsServers: [dns] }), accountId)
    .run();
}

/** A fresh token for the radio (a check-in hands it over). */
async function tokenOf(uid: string, secret?: string): Promise<string> {
  const answer = await device("/check-in", uid, { body: {}, secret });
  expect(answer.status).toBe(200);
  return (answer.json as { configEtag: string }).configEtag;
}

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Signed fleet");
  otherAccountId = await createAccount(orgId, "Other fleet");
  await giveSeats(orgId, accountId, 20);
  await giveSeats(orgId, otherAccountId, 20);
  radios = await registerRadios(orgId, accountId, "ETAG", 8);
  cookie = await sessionCookie(owner.email);
  await setNetwork("1.1.1.1");
  await api("deployments.create", { accountId }, cookie);
  // The first radio call of an isolate re-arms the clocks (a few reads): done here, not counted below.
  await device("/check-in", radios[0] ?? "", { body: {} });
});

afterEach(() => vi.restoreAllMocks());

describe("the 304 without D1", () => {
  it("answers a radio's own signed ETag 304 with no D1 call, and reads only the fleet version once it is stale", async () => {
    const uid = radios[0] ?? "";
    const token = await tokenOf(uid);
    expect(token).toMatch(/^"1-[0-9a-f]+\.[A-Za-z0-9_-]+\.\d+\.[A-Za-z0-9_-]{22}"$/);
    expect(token).toContain(`.${accountId}.`);
    const full = await device("/config", uid);
    expect(full.status).toBe(200);
    expect(full.etag).toBe(token);
    const hit = await config(uid, token);
    expect(hit.status).toBe(304);
    expect(hit.calls).toBe(0);
    expect(hit.etag).toBe(token);
    // Another radio of the account shares the cached version.
    const other = radios[1] ?? "";
    const otherToken = await tokenOf(other);
    expect((await config(other, otherToken)).calls).toBe(0);
    const stale = await afterStaleness(() => config(uid, token));
    expect(stale.status).toBe(304);
    expect(stale.calls).toBe(1);
  });

  it("honours Cache-Control: no-cache (and Pragma) by taking the full path, still 304 when the config is unchanged", async () => {
    const uid = radios[0] ?? "";
    const token = await tokenOf(uid);
    const variants: Record<string, string>[] = [
      { "Cache-Control": "no-cache" },
      { "Cache-Control": "max-age=0, no-cache" },
      { Pragma: "no-cache" },
    ];
    for (const headers of variants) {
      const answer = await config(uid, token, headers);
      expect(answer.status).toBe(304);
      expect(answer.calls).toBeGreaterThan(0);
      expect(answer.etag).toBe(token);
    }
  });

  it("never answers a forged, altered or borrowed token without D1, and wrong credentials 401", async () => {
    const [uid = "", other = ""] = radios;
    const token = await tokenOf(uid);
    const otherToken = await tokenOf(other);
    const [etag = "", account = "", version = "", mac = ""] = token.slice(1, -1).split(".");
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const forged = [
      `"${etag}.${account}.${version}.${flipped}"`,
      `"${etag}.${account}.${Number(version) + 1}.${mac}"`,
      `"${etag}.${otherAccountId}.${version}.${mac}"`,
      `"2-deadbeef.${account}.${version}.${mac}"`,
      otherToken,
    ];
    for (const tag of forged) {
      const answer = await config(uid, tag);
      // The full path: the radio's credentials are right, so 304 only for its real underlying ETag.
      expect(answer.calls, tag).toBeGreaterThan(0);
      expect([200, 304], tag).toContain(answer.status);
      expect(answer.etag, tag).toBe(token);
    }
    expect((await config(uid, `"2-deadbeef.${account}.${version}.${mac}"`)).status).toBe(200);
    // A valid token with a wrong secret, or for an unknown radio: 401, never 304.
    const wrong = await config(uid, token, {}, "b".repeat(64));
    expect(wrong.status).toBe(401);
    expect((await config("ETAG-UNKNOWN", token)).status).toBe(401);
    // Hostile headers: long, many tags, garbage.
    for (const tag of ["x".repeat(5000), `${token}, `.repeat(40), '"."."."', "*"]) {
      expect([200, 304]).toContain((await config(uid, tag)).status);
    }
  });

  it("leaves the check-in as it was: its last-seen, battery and firmware writes do not move the fleet version", async () => {
    const uid = radios[2] ?? "";
    await env.DB.prepare("UPDATE devices SET last_seen_at = '2020-01-01T00:00:00.000Z' WHERE uid = ?").bind(uid).run();
    const before = await fleetVersion(accountId);
    const answer = await device("/check-in", uid, { body: { firmware: "9.9", battery: 42, signal: -60 } });
    expect(answer.status).toBe(200);
    // The radio's DeviceShard reads and writes (tests/worker/check-in-memory.test.ts), not the Worker.
    expect(answer.calls).toBe(0);
    const row = await env.DB.prepare("SELECT firmware, battery FROM devices WHERE uid = ?").bind(uid).first();
    expect(row).toEqual({ firmware: "9.9", battery: 42 });
    expect(await fleetVersion(accountId)).toBe(before);
    const token = (answer.json as { configEtag: string }).configEtag;
    expect((await config(uid, token)).calls).toBe(0);
  });
});

describe("every change a radio must see moves the fleet version", () => {
  /** The radio's token from before `change`; afterwards (past S) it takes the full path. */
  async function expectMoved(uid: string, change: () => Promise<unknown>, accounts = [accountId]) {
    const token = await tokenOf(uid);
    const before = await Promise.all(accounts.map(fleetVersion));
    await change();
    const after = await Promise.all(accounts.map(fleetVersion));
    for (const [i, version] of after.entries()) expect(version).toBeGreaterThan(before[i] ?? 0);
    const answer = await afterStaleness(() => config(uid, token));
    expect(answer.calls).toBeGreaterThan(1);
    return answer;
  }

  it("deploy, a radio's own report, pause, resume, cancel and roll back", async () => {
    const uid = radios[3] ?? "";
    await setNetwork("8.8.8.8");
    let deploymentId = "";
    const deployed = await expectMoved(uid, async () => {
      deploymentId = (await api<{ id: string }>("deployments.create", { accountId }, cookie)).id;
    });
    expect(deployed.status).toBe(200);
    await expectMoved(uid, () => device(`/deployments/${deploymentId}/status`, uid, { body: { state: "delivered" } }));
    for (const action of ["pause", "resume", "cancel"]) {
      await expectMoved(uid, () => api("deployments.act", { id: deploymentId, action }, cookie));
    }
    const rolled = await expectMoved(uid, () => api("deployments.rollback", { id: deploymentId }, cookie));
    expect([200, 304]).toContain(rolled.status);
  });

  it("a deployment action or a report done in this isolate is seen at once, without waiting S", async () => {
    const uid = radios[1] ?? "";
    await setNetwork("9.9.9.9");
    const token = await tokenOf(uid);
    expect((await config(uid, token)).calls).toBe(0);
    const { id } = await api<{ id: string }>("deployments.create", { accountId }, cookie);
    const afterDeploy = await config(uid, token);
    expect(afterDeploy.status).toBe(200);
    const fresh = afterDeploy.etag;
    expect((await config(uid, fresh)).calls).toBe(0);
    await device(`/deployments/${id}/status`, radios[0] ?? "", { body: { state: "delivered" } });
    expect((await config(uid, fresh)).calls).toBeGreaterThan(0);
  });

  it("a secret change and retiring answer 401 to the old credentials once the version moved", async () => {
    const uid = radios[4] ?? "";
    const device4 = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(uid).first<{ version: number }>();
    const rotated = await expectMoved(uid, () => api("devices.rotateSecret", { uid, version: device4?.version ?? 1 }, cookie));
    expect(rotated.status).toBe(401);
    const retiree = radios[5] ?? "";
    const device5 = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(retiree).first<{ version: number }>();
    const retired = await expectMoved(retiree, () =>
      api("devices.retire", { uid: retiree, version: device5?.version ?? 1 }, cookie),
    );
    expect(retired.status).toBe(401);
  });

  it("an attribute edit and a bulk move to another account (both accounts move)", async () => {
    const uid = radios[6] ?? "";
    const row = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(uid).first<{ version: number }>();
    await expectMoved(uid, () =>
      api(
        "devices.update",
        { uid, version: row?.version ?? 1, name: "Edited", model: "NW-500", tags: ["night"], notes: "" },
        cookie,
      ),
    );
    const mover = radios[7] ?? "";
    const moved = await expectMoved(
      mover,
      () => api("devices.bulkAssign", { accountId, selection: { uids: [mover] }, target: { accountId: otherAccountId } }, cookie),
      [accountId, otherAccountId],
    );
    expect([200, 304]).toContain(moved.status);
    // Its new token names the new account.
    expect(await tokenOf(mover)).toContain(`.${otherAccountId}.`);
  });

  it("a write that changes nothing a radio reads does not move it (a name or notes edit)", async () => {
    const uid = radios[0] ?? "";
    const row = await env.DB.prepare("SELECT version, model, tags FROM devices WHERE uid = ?")
      .bind(uid)
      .first<{ version: number; model: string; tags: string }>();
    const before = await fleetVersion(accountId);
    await api(
      "devices.update",
      { uid, version: row?.version ?? 1, name: "Renamed", model: row?.model, tags: JSON.parse(row?.tags ?? "[]"), notes: "hi" },
      cookie,
    );
    expect(await fleetVersion(accountId)).toBe(before);
  });
});

describe("without a configured key", () => {
  it("still signs and verifies with the isolate's own key, and the secret binds the token", async () => {
    forgetFleetVersion();
    expect(env.DEVICE_ETAG_KEY).toBeUndefined();
    const uid = radios[1] ?? "";
    const token = await tokenOf(uid, RADIO_SECRET);
    expect((await config(uid, token)).status).toBe(304);
  });
});
