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
// radio's credentials, its account's fleet version and the radio-change seq it was read at;
// while that version has not moved and no change of the radio came since (per-isolate caches,
// fresh for FLEET_VERSION_FRESH_MS) the 304 needs no D1 call. Every write that changes what a
// radio should get moves the version (a deployment: migration 0024's triggers) or adds a row
// for the radio to the change log (its own edit or report: 0031); a forged token, another
// radio's token or wrong credentials never earn a 304.

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

/**
 * The call read the radio's state (the full path). Each test calls it right after the caches went
 * stale (or were forgotten), where the read of the version and the log is exactly one call: the
 * full path adds the radio's own read. (Reads travel coalesced as batches: the SQL is not visible.)
 */
const readsRadio = (answer: { calls: number }) => answer.calls >= 2;

/** The radio's latest seq in the change log (0: none kept). */
async function changeOf(uid: string): Promise<number> {
  const row = await env.DB.prepare("SELECT ifnull(max(seq), 0) AS seq FROM radio_changes WHERE uid = ?")
    .bind(uid)
    .first<{ seq: number }>();
  return row?.seq ?? 0;
}

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
  it("answers a radio's own signed ETag 304 with no D1 call, and reads only the version and the log once they are stale", async () => {
    const uid = radios[0] ?? "";
    const token = await tokenOf(uid);
    expect(token).toMatch(/^"1-[0-9a-f]+\.[A-Za-z0-9_-]+\.\d+\.\d+\.[A-Za-z0-9_-]{22}"$/);
    expect(token).toContain(`.${accountId}.`);
    const full = await device("/config", uid);
    expect(full.status).toBe(200);
    expect(full.etag).toBe(token);
    // The isolate's first 304 may read the change log (one statement); then none.
    expect((await config(uid, token)).calls).toBeLessThanOrEqual(1);
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
    const [etag = "", account = "", version = "", seq = "", mac = ""] = token.slice(1, -1).split(".");
    const flipped = `${mac.slice(0, -1)}${mac.endsWith("A") ? "B" : "A"}`;
    const forged = [
      `"${etag}.${account}.${version}.${seq}.${flipped}"`,
      `"${etag}.${account}.${Number(version) + 1}.${seq}.${mac}"`,
      // A later seq would outlive the radio's changes: the mac covers it.
      `"${etag}.${account}.${version}.${Number(seq) + 1000}.${mac}"`,
      `"${etag}.${otherAccountId}.${version}.${seq}.${mac}"`,
      `"2-deadbeef.${account}.${version}.${seq}.${mac}"`,
      // The token format before the seq: read as no token.
      `"${etag}.${account}.${version}.${mac}"`,
      otherToken,
    ];
    for (const tag of forged) {
      const answer = await config(uid, tag);
      // The full path: the radio's credentials are right, so 304 only for its real underlying ETag.
      expect(answer.calls, tag).toBeGreaterThan(0);
      expect([200, 304], tag).toContain(answer.status);
      expect(answer.etag, tag).toBe(token);
    }
    expect((await config(uid, `"2-deadbeef.${account}.${version}.${seq}.${mac}"`)).status).toBe(200);
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
    // The isolate may read the change log once; the token stays good: the next 304 needs no D1.
    expect((await config(uid, token)).status).toBe(304);
    expect((await config(uid, token)).calls).toBe(0);
  });

  it("one radio's edit sends that radio alone to the full path: the others of its account keep their 304 without D1", async () => {
    const [edited = "", neighbour = ""] = [radios[2], radios[3]];
    const editedToken = await tokenOf(edited);
    const neighbourToken = await tokenOf(neighbour);
    const versionBefore = await fleetVersion(accountId);
    const row = await env.DB.prepare("SELECT version, name, model FROM devices WHERE uid = ?")
      .bind(edited)
      .first<{ version: number; name: string; model: string }>();
    await api(
      "devices.update",
      { uid: edited, version: row?.version ?? 1, name: row?.name, model: row?.model, tags: ["moved"], notes: "" },
      cookie,
    );
    expect(await fleetVersion(accountId)).toBe(versionBefore);
    // Past the cache's freshness: one read of the version and the log, then the edited radio's
    // token takes the full path and its neighbour's answers 304 from what was read.
    const [editedAnswer, neighbourAnswer, neighbourAgain] = await afterStaleness(async () => [
      await config(edited, editedToken),
      await config(neighbour, neighbourToken),
      await config(neighbour, neighbourToken),
    ]);
    expect(readsRadio(editedAnswer)).toBe(true);
    expect(neighbourAnswer.status).toBe(304);
    expect(readsRadio(neighbourAnswer)).toBe(false);
    expect(neighbourAgain.calls).toBe(0);
  });
});

describe("every change a radio must see moves the fleet version (deployments) or names the radio in the change log", () => {
  /**
   * The radio's token from before `change`; afterwards (past S) it takes the full path. A
   * deployment moves the account's version; a change of the radio itself moves only the log.
   */
  async function expectMoved(uid: string, change: () => Promise<unknown>, kind: "deployment" | "radio", accounts = [accountId]) {
    const token = await tokenOf(uid);
    const before = await Promise.all(accounts.map(fleetVersion));
    const changeBefore = await changeOf(uid);
    await change();
    const after = await Promise.all(accounts.map(fleetVersion));
    for (const [i, version] of after.entries()) {
      if (kind === "deployment") expect(version).toBeGreaterThan(before[i] ?? 0);
      else expect(version).toBe(before[i]);
    }
    if (kind === "radio") expect(await changeOf(uid)).toBeGreaterThan(changeBefore);
    const answer = await afterStaleness(() => config(uid, token));
    expect(readsRadio(answer)).toBe(true);
    return answer;
  }

  it("deploy, a radio's own report, pause, resume, cancel and roll back", async () => {
    const uid = radios[3] ?? "";
    await setNetwork("8.8.8.8");
    let deploymentId = "";
    const deployed = await expectMoved(
      uid,
      async () => {
        deploymentId = (await api<{ id: string }>("deployments.create", { accountId }, cookie)).id;
      },
      "deployment",
    );
    expect(deployed.status).toBe(200);
    await expectMoved(uid, () => device(`/deployments/${deploymentId}/status`, uid, { body: { state: "delivered" } }), "radio");
    for (const action of ["pause", "resume", "cancel"]) {
      await expectMoved(uid, () => api("deployments.act", { id: deploymentId, action }, cookie), "deployment");
    }
    const rolled = await expectMoved(uid, () => api("deployments.rollback", { id: deploymentId }, cookie), "deployment");
    expect([200, 304]).toContain(rolled.status);
  });

  it("a deployment action or a report done in this isolate is seen at once, without waiting S, by the radios it concerns", async () => {
    const uid = radios[1] ?? "";
    await setNetwork("9.9.9.9");
    const token = await tokenOf(uid);
    // The isolate may read the change log once (the test before moved the clock); then no D1.
    await config(uid, token);
    expect((await config(uid, token)).calls).toBe(0);
    const { id } = await api<{ id: string }>("deployments.create", { accountId }, cookie);
    const afterDeploy = await config(uid, token);
    expect(afterDeploy.status).toBe(200);
    const fresh = afterDeploy.etag;
    expect((await config(uid, fresh)).calls).toBe(0);
    const reporter = radios[0] ?? "";
    const reporterToken = (await device("/config", reporter)).etag;
    await device(`/deployments/${id}/status`, reporter, { body: { state: "delivered" } });
    // The reporter's own token takes the full path at once; the other radio's answer 304 after
    // reading the log, without reading the radio.
    const reporterAnswer = await config(reporter, reporterToken);
    expect(readsRadio(reporterAnswer)).toBe(true);
    const other = await config(uid, fresh);
    expect(other.status).toBe(304);
    expect(readsRadio(other)).toBe(false);
  });

  it("a secret change and retiring answer 401 to the old credentials once the version moved", async () => {
    const uid = radios[4] ?? "";
    const device4 = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(uid).first<{ version: number }>();
    const rotated = await expectMoved(
      uid,
      () => api("devices.rotateSecret", { uid, version: device4?.version ?? 1 }, cookie),
      "radio",
    );
    expect(rotated.status).toBe(401);
    const retiree = radios[5] ?? "";
    const device5 = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(retiree).first<{ version: number }>();
    const retired = await expectMoved(
      retiree,
      () => api("devices.retire", { uid: retiree, version: device5?.version ?? 1 }, cookie),
      "radio",
    );
    expect(retired.status).toBe(401);
  });

  it("an attribute edit and a bulk move to another account (both accounts move)", async () => {
    const uid = radios[6] ?? "";
    const row = await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(uid).first<{ version: number }>();
    await expectMoved(
      uid,
      () =>
        api(
          "devices.update",
          { uid, version: row?.version ?? 1, name: "Edited", model: "NW-500", tags: ["night"], notes: "" },
          cookie,
        ),
      "radio",
    );
    const mover = radios[7] ?? "";
    const moved = await expectMoved(
      mover,
      () => api("devices.bulkAssign", { accountId, selection: { uids: [mover] }, target: { accountId: otherAccountId } }, cookie),
      "radio",
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
    const changeBefore = await changeOf(uid);
    await api(
      "devices.update",
      { uid, version: row?.version ?? 1, name: "Renamed", model: row?.model, tags: JSON.parse(row?.tags ?? "[]"), notes: "hi" },
      cookie,
    );
    expect(await fleetVersion(accountId)).toBe(before);
    expect(await changeOf(uid)).toBe(changeBefore);
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
