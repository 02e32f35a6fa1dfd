import { env, runDurableObjectAlarm, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import type { DurableObjectState } from "@/server/cloudflare";
import { CONTACT_FLUSH_MS, CONTACT_RESOLUTION_MS } from "@/server/data/device-checkins";
import { lastContactSql } from "@/server/data/radio-contact";
import { CheckInMemory } from "@/server/fleet/check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "@/server/fleet/config-token";
import { shardOf } from "@/server/fleet/live";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// The check-in through the real DeviceShard with the production bounds (the worker tests set
// them to 0 in vitest.config.ts): what the radio's shard is told reaches its very next check-in
// (a deployment, the radio's own report), and a shard replaced before its batch (evicted,
// crashed) loses only the contacts waiting for it: the radio's next check-in writes them.

type CheckIn = { deployment: { id: string; yourState: string } | null };

const stubOf = (uid: string) => {
  const namespace = env.DEVICE_SHARDS;
  if (!namespace) throw new Error("DEVICE_SHARDS is not bound");
  return namespace.get(namespace.idFromName(`shard-${shardOf(uid)}`));
};

/** The radio's shard gets a new memory with the production bounds (a fresh object: evicted, restarted). */
async function freshMemory(uid: string): Promise<void> {
  await runInDurableObject(stubOf(uid) as never, (instance: { checkIns: CheckInMemory }, state: DurableObjectState) => {
    instance.checkIns = new CheckInMemory({
      db: () => env.DB,
      now: () => Date.now(),
      freshMs: FLEET_VERSION_FRESH_MS,
      flushMs: CONTACT_FLUSH_MS,
      etagKey: env.DEVICE_ETAG_KEY,
      scheduleFlush: (at) => void state.storage.setAlarm(at),
    });
  });
}

async function checkIn(uid: string): Promise<CheckIn> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  return (await response.json()) as CheckIn;
}

/** The last contact D1 holds (the state column or, in contact, the fine one). */
async function storedSeen(uid: string): Promise<string | null> {
  const row = await env.DB.prepare(`SELECT ${lastContactSql("devices")} AS at FROM devices WHERE uid = ?`)
    .bind(uid)
    .first<{ at: string | null }>();
  return row?.at ?? null;
}

let cookie = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Shard");
  await giveSeats(owner.orgId, accountId, 10);
  radios = await registerRadios(owner.orgId, accountId, "SHARD", 3);
  cookie = await sessionCookie(owner.email);
});

describe("check-ins through the radio's shard", () => {
  it("a deployment and the radio's own report reach its very next check-in", async () => {
    const uid = radios[0] ?? "";
    await freshMemory(uid);
    expect((await checkIn(uid)).deployment).toBeNull();
    const created = data(await call<{ id: string }>("deployments.create", { accountId }, cookie, "POST"));
    const told = await checkIn(uid);
    expect(told.deployment?.id).toBe(created.id);
    expect(told.deployment?.yourState).toBe("pending");
    const report = await request(`/device/v1/deployments/${created.id}/status`, {
      method: "POST",
      headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
      body: JSON.stringify({ state: "applying" }),
    });
    expect(report.status).toBe(200);
    expect((await checkIn(uid)).deployment?.yourState).toBe("applying");
  });

  it("a shard replaced before its batch loses only the waiting contact: the next check-in writes it", async () => {
    const uid = radios[1] ?? "";
    const old = new Date(Date.now() - CONTACT_RESOLUTION_MS - 60_000).toISOString();
    await env.DB.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = ?").bind(old, uid).run();
    await freshMemory(uid);
    // Due: waits for the batch (the shard's alarm), not written with the check-in.
    await checkIn(uid);
    expect(await storedSeen(uid)).toBe(old);
    // Evicted before the alarm: the new object knows nothing of the contact.
    await freshMemory(uid);
    await runDurableObjectAlarm(stubOf(uid) as never);
    expect(await storedSeen(uid)).toBe(old);
    // The radio's next check-in is due again, and its batch writes it.
    const before = Date.now();
    await checkIn(uid);
    await runDurableObjectAlarm(stubOf(uid) as never);
    const seen = await storedSeen(uid);
    expect(seen && Date.parse(seen)).toBeGreaterThanOrEqual(before - 1_000);
  });

  it("without shards the Worker answers the check-in itself and writes a first contact", async () => {
    const uid = radios[2] ?? "";
    const response = await createApp().request(
      new Request(new URL("/device/v1/check-in", ORIGIN), {
        method: "POST",
        headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
        body: JSON.stringify({ battery: 55 }),
      }),
      undefined,
      { ...env, DEVICE_SHARDS: undefined },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { uid: string }).uid).toBe(uid);
    expect(await storedSeen(uid)).not.toBeNull();
  });
});
