import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { CONTACT_FLUSH_MS, CONTACT_RESOLUTION_MS } from "@/server/data/device-checkins";
import { IN_CONTACT, lastContactSql } from "@/server/data/radio-contact";
import { CheckInMemory } from "@/server/fleet/check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "@/server/fleet/config-token";
import { type Counted, counting } from "./d1-counting";
import { createAccount, createUser } from "./fixtures";
import { giveSeats, RADIO_SECRET, registerRadios, sha256Hex } from "./fleet-fixtures";

// A DeviceShard's check-in memory (issue 24) with the production bounds and a simulated clock:
// an unchanged check-in costs no D1 statement, a change reaches the answer within the fleet
// version's freshness, stored contact is never more than the resolution behind, and a shard
// that is evicted (a new memory) loses at most the contacts waiting for its batch.

type Shard = { memory: CheckInMemory; counted: Counted; prepared: string[]; clock: { now: number }; alarms: number[] };

function shard(start: number): Shard {
  const counted: Counted = { calls: 0, statements: [] };
  const prepared: string[] = [];
  const countedDb = counting(env.DB as unknown as D1Database, counted);
  // Every statement's text, also those sent in a batch.
  const db = new Proxy(countedDb, {
    get(target, property) {
      if (property === "prepare") {
        return (sql: string) => {
          prepared.push(sql.replace(/\s+/g, " "));
          return target.prepare(sql);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const clock = { now: start };
  const alarms: number[] = [];
  const memory = new CheckInMemory({
    db: () => db,
    now: () => clock.now,
    freshMs: FLEET_VERSION_FRESH_MS,
    flushMs: CONTACT_FLUSH_MS,
    etagKey: "test-key",
    scheduleFlush: (at) => alarms.push(at),
  });
  return { memory, counted, prepared, clock, alarms };
}

/** Runs the shard's alarm if it is due. */
async function alarmsDue(s: Shard): Promise<void> {
  const due = s.alarms.filter((at) => at <= s.clock.now);
  if (!due.length) return;
  s.alarms.splice(0, s.alarms.length, ...s.alarms.filter((at) => at > s.clock.now));
  await s.memory.flush();
}

/** The last contact D1 holds (the state column or, in contact, the fine one). */
async function storedSeen(uid: string): Promise<number | null> {
  const row = await env.DB.prepare(`SELECT ${lastContactSql("devices")} AS at FROM devices WHERE uid = ?`)
    .bind(uid)
    .first<{ at: string | null }>();
  return row?.at ? Date.parse(row.at) : null;
}

let hash = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];
const T0 = Date.parse("2026-03-02T08:00:00.000Z");

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Memory");
  await giveSeats(orgId, accountId, 50);
  radios = await registerRadios(orgId, accountId, "MEM", 15);
  hash = await sha256Hex(RADIO_SECRET);
});

describe("check-in memory", () => {
  it("answers an unchanged check-in without any D1 statement, and the same answer as the full path", async () => {
    const s = shard(T0);
    const uid = radios[0] ?? "";
    const first = await s.memory.checkIn(uid, hash, { firmware: "1.0.0", battery: 80 });
    expect(first.status).toBe(200);
    const calls = s.counted.calls;
    s.clock.now += 3_000;
    const second = await s.memory.checkIn(uid, hash, { firmware: "1.0.0", battery: 79 });
    expect(s.counted.calls).toBe(calls);
    const [a, b] = (await Promise.all([first.json(), second.json()])) as Record<string, unknown>[];
    expect({ ...b, serverTime: 0, pollSeconds: 0 }).toEqual({ ...a, serverTime: 0, pollSeconds: 0 });
    expect(b?.serverTime).toBe(new Date(T0 + 3_000).toISOString());
  });

  it("refuses a wrong secret and an invalid body even for a radio it remembers", async () => {
    const s = shard(T0);
    const uid = radios[1] ?? "";
    await s.memory.checkIn(uid, hash, {});
    const wrong = await s.memory.checkIn(uid, "b".repeat(64), {});
    expect(wrong.status).toBe(401);
    const invalid = await s.memory.checkIn(uid, hash, { status: 400, code: "BAD_REQUEST", message: "battery: too big" });
    expect(invalid.status).toBe(400);
  });

  it("writes new firmware at once, and never a column that did not change", async () => {
    const s = shard(T0);
    const uid = radios[2] ?? "";
    await s.memory.checkIn(uid, hash, { firmware: "1.0.0" });
    s.prepared.length = 0;
    s.clock.now += 60_000;
    await s.memory.checkIn(uid, hash, { firmware: "2.0.0", battery: null });
    const update = s.prepared.find((sql) => sql.startsWith("UPDATE devices"));
    expect(update).toContain("firmware = ?");
    expect(update).not.toContain("reported_revision");
    expect(update).not.toContain("battery");
    const row = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
    expect(row?.firmware).toBe("2.0.0");
  });

  it("a change nobody told the shard of reaches the answer within the fleet version's freshness", async () => {
    const s = shard(T0);
    const uid = radios[3] ?? "";
    await s.memory.checkIn(uid, hash, {});
    await env.DB.prepare("UPDATE devices SET redirect_url = 'https://other.example' WHERE uid = ?").bind(uid).run();
    s.clock.now += FLEET_VERSION_FRESH_MS - 1;
    // Still within the bound: the remembered answer is allowed.
    const before = (await (await s.memory.checkIn(uid, hash, {})).json()) as { redirect: unknown };
    expect(before.redirect).toBeNull();
    s.clock.now += 1;
    const after = (await (await s.memory.checkIn(uid, hash, {})).json()) as { redirect: unknown };
    expect(after.redirect).toEqual({ url: "https://other.example" });
    await env.DB.prepare("UPDATE devices SET redirect_url = NULL WHERE uid = ?").bind(uid).run();
  });

  it("a change the shard is told of reaches the very next check-in", async () => {
    const s = shard(T0);
    const uid = radios[4] ?? "";
    await s.memory.checkIn(uid, hash, {});
    await env.DB.prepare("UPDATE devices SET redirect_url = 'https://told.example' WHERE uid = ?").bind(uid).run();
    s.memory.accountChanged();
    const after = (await (await s.memory.checkIn(uid, hash, {})).json()) as { redirect: unknown };
    expect(after.redirect).toEqual({ url: "https://told.example" });
    await env.DB.prepare("UPDATE devices SET redirect_url = NULL WHERE uid = ?").bind(uid).run();
  });

  it("one radio's edit sends that radio alone through the full path; its neighbours stay answered from memory", async () => {
    const s = shard(T0);
    const [edited = "", neighbour = ""] = [radios[12], radios[13]];
    await s.memory.checkIn(edited, hash, {});
    await s.memory.checkIn(neighbour, hash, {});
    const versionBefore = await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?").bind(accountId).first();
    await env.DB.prepare("UPDATE devices SET redirect_url = 'https://edited.example' WHERE uid = ?").bind(edited).run();
    expect(await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?").bind(accountId).first()).toEqual(
      versionBefore,
    );
    s.clock.now += FLEET_VERSION_FRESH_MS;
    s.prepared.length = 0;
    await s.memory.checkIn(neighbour, hash, {});
    // One refresh statement (versions, commands and the change log), no read of the radio.
    expect(s.prepared.map((sql) => sql.slice(0, 25))).toEqual(["SELECT 'v' AS kind, accou"]);
    s.prepared.length = 0;
    const answer = (await (await s.memory.checkIn(edited, hash, {})).json()) as { redirect: unknown };
    expect(answer.redirect).toEqual({ url: "https://edited.example" });
    expect(s.prepared.some((sql) => sql.startsWith("SELECT dv.uid"))).toBe(true);
    await env.DB.prepare("UPDATE devices SET redirect_url = NULL WHERE uid = ?").bind(edited).run();
  });

  it("a bulk change past the log's bound sends every radio through the full path once, then memory answers again", async () => {
    const s = shard(T0);
    const uid = radios[14] ?? "";
    await s.memory.checkIn(uid, hash, {});
    // More changes of other radios than a refresh reads (a bulk move of a large fleet).
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 5100)
       INSERT INTO radio_changes (uid) SELECT 'BULK-' || i FROM n`,
    ).run();
    s.clock.now += FLEET_VERSION_FRESH_MS;
    s.prepared.length = 0;
    await s.memory.checkIn(uid, hash, {});
    expect(s.prepared.some((sql) => sql.startsWith("SELECT dv.uid"))).toBe(true);
    // The next check-in reads the log's newest rows again (one statement), not the radio ...
    s.clock.now += 3_000;
    s.prepared.length = 0;
    await s.memory.checkIn(uid, hash, {});
    expect(s.prepared.map((sql) => sql.slice(0, 25))).toEqual(["SELECT 'v' AS kind, accou"]);
    // ... and from then on memory answers without D1.
    s.clock.now += 3_000;
    const calls = s.counted.calls;
    await s.memory.checkIn(uid, hash, {});
    expect(s.counted.calls).toBe(calls);
  });

  it("a command queued without waking the shard is handed over within the freshness", async () => {
    const s = shard(T0);
    const uid = radios[5] ?? "";
    await s.memory.checkIn(uid, hash, {});
    await env.DB.prepare(
      `INSERT INTO commands (id, uid, org_id, account_id, type, created_by, created_by_email, created_at, expires_at)
       VALUES ('cmd_memory_1', ?, ?, ?, 'ping', 'usr', 'a@example.com', ?, ?)`,
    )
      .bind(uid, orgId, accountId, new Date().toISOString(), new Date(Date.now() + 86_400_000).toISOString())
      .run();
    s.clock.now += FLEET_VERSION_FRESH_MS;
    const answer = (await (await s.memory.checkIn(uid, hash, {})).json()) as { commands: { id: string }[] };
    expect(answer.commands.map((c) => c.id)).toEqual(["cmd_memory_1"]);
  });

  // A simulated day is ~600 check-ins and flushes against local D1: seconds on a loaded machine.
  it("stored contact is never more than the resolution behind, over a day of polls every 300 s ± 10 %", {
    timeout: 60_000,
  }, async () => {
    const s = shard(T0);
    const uid = radios[6] ?? "";
    let lastContact = 0;
    let worstLag = 0;
    let writes = 0;
    let seed = 7;
    const random = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed / 2 ** 31;
    };
    const end = T0 + 86_400_000;
    let nextPoll = T0;
    while (s.clock.now < end) {
      // Every second of simulated time that matters: the poll, and the alarm.
      const nextAlarm = Math.min(...s.alarms, Number.POSITIVE_INFINITY);
      s.clock.now = Math.min(nextPoll, nextAlarm);
      if (s.clock.now === nextAlarm) {
        const before = await storedSeen(uid);
        await alarmsDue(s);
        if ((await storedSeen(uid)) !== before) writes += 1;
      }
      if (s.clock.now === nextPoll) {
        const stored = (await storedSeen(uid)) ?? 0;
        // Just before this poll, the true last contact is the previous one.
        if (lastContact) worstLag = Math.max(worstLag, lastContact - stored);
        await s.memory.checkIn(uid, hash, { battery: 70 });
        lastContact = s.clock.now;
        nextPoll += Math.round(300_000 * (0.9 + random() * 0.2));
      }
    }
    expect(worstLag).toBeLessThanOrEqual(CONTACT_RESOLUTION_MS);
    // About every third or fourth poll (the first contact at once).
    expect(writes).toBeLessThanOrEqual(96);
    console.log(`contact writes in a simulated day: ${writes}, worst lag ${worstLag / 1000} s`);
  });

  it("an evicted shard loses only the contacts waiting for its batch: the radio's next check-in writes them", async () => {
    const s = shard(T0);
    const uid = radios[7] ?? "";
    await s.memory.checkIn(uid, hash, { firmware: "3.0.0" });
    const firstSeen = await storedSeen(uid);
    expect(firstSeen).toBe(T0);
    // A contact falls due, then the shard is evicted before its alarm.
    s.clock.now = T0 + CONTACT_RESOLUTION_MS;
    await s.memory.checkIn(uid, hash, { firmware: "3.0.0" });
    expect(s.alarms.length).toBe(1);
    const evicted = shard(T0 + CONTACT_RESOLUTION_MS + 300_000);
    expect(await storedSeen(uid)).toBe(T0);
    // The new object knows nothing: the full path, then the due contact in its batch.
    await evicted.memory.checkIn(uid, hash, { firmware: "3.0.0" });
    evicted.clock.now += CONTACT_FLUSH_MS;
    await alarmsDue(evicted);
    expect(await storedSeen(uid)).toBe(T0 + CONTACT_RESOLUTION_MS + 300_000);
    // Nothing else was lost: the firmware written at once stays.
    const row = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
    expect(row?.firmware).toBe("3.0.0");
  });

  it("writes the due contacts of many radios in one statement", async () => {
    const s = shard(T0);
    const many = radios.slice(8, 12);
    for (const uid of many) await s.memory.checkIn(uid, hash, { battery: 50 });
    s.clock.now = T0 + CONTACT_RESOLUTION_MS;
    for (const uid of many) await s.memory.checkIn(uid, hash, { battery: 40 });
    s.counted.statements.length = 0;
    s.clock.now += CONTACT_FLUSH_MS;
    await alarmsDue(s);
    // They are in contact since their first check-in: the fine column alone, one statement.
    expect(s.counted.statements).toHaveLength(1);
    const rows = await env.DB.prepare(
      `SELECT ${lastContactSql("devices")} AS at, last_seen_at = '${IN_CONTACT}' AS inContact, battery
       FROM devices WHERE uid IN (SELECT value FROM json_each(?)) ORDER BY uid`,
    )
      .bind(JSON.stringify(many))
      .all<{ at: string; inContact: number; battery: number }>();
    expect(rows.results).toEqual(
      many.map(() => ({ at: new Date(T0 + CONTACT_RESOLUTION_MS).toISOString(), inContact: 1, battery: 40 })),
    );
  });
});
