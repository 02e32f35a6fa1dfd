import { env, SELF } from "cloudflare:test";
import { beforeAll, expect, inject, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import type { Db } from "@/server/data/db";
import { CONTACT_FLUSH_MS, radioStateStatement } from "@/server/data/device-checkins";
import { IN_CONTACT, SWEEP_SLICE, sweepContacts } from "@/server/data/radio-contact";
import { CheckInMemory } from "@/server/fleet/check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "@/server/fleet/config-token";
import { SHARDS, shardOf } from "@/server/fleet/live";
import { createAccount, createUser } from "../../tests/worker/fixtures";
import { bearer, giveSeats, RADIO_SECRET, registerRadios, sha256Hex } from "../../tests/worker/fleet-fixtures";
import { type Meter, metered } from "./metered-db";

// Check-ins that cost almost nothing (issue 24), with a simulated clock through the real
// shard memory (src/server/fleet/check-in-memory.ts) and the real local D1:
// 1. D1 rows written per idle radio per day, polling every 300 s ± 10 %: before (the code of
//    main: the radio read and an UPDATE of firmware, battery, signal, reported revision and
//    last-seen at every check-in a minute after the last) and after (memory + batched last-seen).
//    "After" runs two days with the contact sweep each minute and counts the second apart
//    (goal ≤ 96: a contact write sets `contact_at` alone, migration 0043).
// 2. D1 statements per second at SHARDS × PER_SHARD radios, projected to 1,000,000.
// 3. The contact sweep: one run's statements and rows, and per radio per day at 1,000,000.
// 4. A check-in's time through the Worker and its shard: answered from memory vs the full path.
// 5. One radio's change: the statements of the next poll interval.
// Sizes from the shell (CHECKINS_DAY_RADIOS, CHECKINS_PER_SHARD, CHECKINS_HOURS) through `inject`.
const DAY_RADIOS = inject("checkInsDayRadios");
const PER_SHARD = inject("checkInsPerShard");
const HOURS = inject("checkInsHours");
const TIMED = 300;

/** A deterministic random in [0, 1). */
function randomFrom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const poll = (random: () => number) => Math.round(300_000 * (0.9 + random() * 0.2));
const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const DAY = 86_400_000;
let hash = "";
let orgId = "";
let accountId = "";

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Check-ins");
  await giveSeats(orgId, accountId, 1_000_000);
  hash = await sha256Hex(RADIO_SECRET);
});

/** Simulated radios in time order: each poll calls `checkIn`; `tick` runs before each event. */
async function simulate(
  uids: string[],
  until: number,
  checkIn: (uid: string, at: number) => Promise<void>,
  nextTimer: () => number,
  timer: (at: number) => Promise<void>,
): Promise<void> {
  const random = randomFrom(42);
  const next = new Map(uids.map((uid) => [uid, T0 + Math.floor(random() * 300_000)]));
  // A simple time-ordered queue: radios sorted by their next poll.
  const queue = [...next].sort((a, b) => a[1] - b[1]);
  while (queue.length) {
    const [uid, at] = queue.shift() as [string, number];
    if (at >= until) break;
    while (nextTimer() <= at) await timer(nextTimer());
    await checkIn(uid, at);
    const following = at + poll(random);
    let i = queue.length;
    while (i > 0 && (queue[i - 1]?.[1] ?? 0) > following) i--;
    queue.splice(i, 0, [uid, following]);
  }
  while (nextTimer() <= until) await timer(nextTimer());
}

/** main's check-in write (before issue 24): every column, every check-in a minute after the last. */
function beforeWrite(db: Db, uid: string, at: number, lastSeen: number | undefined) {
  if (lastSeen !== undefined && at - lastSeen < 60_000) return null;
  return db
    .prepare("UPDATE devices SET firmware = ?, battery = ?, signal = ?, reported_revision = ?, last_seen_at = ? WHERE uid = ?")
    .bind("1.0.0", 80, -60, null, new Date(at).toISOString(), uid);
}

/** The shard memories of a simulated fleet, with their alarms on the simulated clock. */
function fleetOfShards(db: Db, clock: { now: number }) {
  const alarms = new Map<number, number>();
  const flushed = { contacts: 0 };
  const shards = Array.from(
    { length: SHARDS },
    (_, shard) =>
      new CheckInMemory({
        db: () => db,
        now: () => clock.now,
        freshMs: FLEET_VERSION_FRESH_MS,
        flushMs: CONTACT_FLUSH_MS,
        etagKey: "bench",
        scheduleFlush: (at) => alarms.set(shard, at),
      }),
  );
  return {
    shards,
    flushed,
    nextTimer: () => Math.min(...alarms.values(), Number.POSITIVE_INFINITY),
    async timer(at: number) {
      clock.now = at;
      for (const [shard, due] of [...alarms]) {
        if (due > at) continue;
        alarms.delete(shard);
        flushed.contacts += (await shards[shard]?.flush()) ?? 0;
      }
    },
  };
}

it("rows written per idle radio per day: before and after", async () => {
  const before: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const after: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const beforeUids = await registerRadios(orgId, accountId, "DAYB", DAY_RADIOS);
  const afterUids = await registerRadios(orgId, accountId, "DAYA", DAY_RADIOS);
  const beforeDb = metered(env.DB as unknown as D1Database, before);
  const lastSeen = new Map<string, number>();
  await simulate(
    beforeUids,
    T0 + DAY,
    async (uid, at) => {
      await radioStateStatement(beforeDb, uid, true).first();
      const write = beforeWrite(beforeDb, uid, at, lastSeen.get(uid));
      if (write) {
        await beforeDb.batch([write]);
        lastSeen.set(uid, at);
      }
    },
    () => Number.POSITIVE_INFINITY,
    async () => {},
  );
  // After: two days through the shard memories, with the contact sweep each simulated minute as the
  // scheduled trigger runs it. The first day holds each radio's first contact ever (its firmware,
  // its state moving to "in contact": once in its life); the second is a day like every other.
  const clock = { now: T0 };
  const afterDb = metered(env.DB as unknown as D1Database, after);
  const fleet = fleetOfShards(afterDb, clock);
  const sweep = { next: T0 + 60_000 };
  const firstDay: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const noteDayEnd = (at: number) => {
    if (at >= T0 + DAY && !firstDay.statements) Object.assign(firstDay, after);
  };
  await simulate(
    afterUids,
    T0 + 2 * DAY,
    async (uid, at) => {
      noteDayEnd(at);
      clock.now = at;
      const answer = await fleet.shards[shardOf(uid)]?.checkIn(uid, hash, { firmware: "1.0.0", battery: 80, signal: -60 });
      await answer?.body?.cancel();
    },
    () => Math.min(fleet.nextTimer(), sweep.next),
    async (at) => {
      noteDayEnd(at);
      if (at === sweep.next) {
        sweep.next += 60_000;
        await sweepContacts(afterDb, new Date(at));
      } else await fleet.timer(at);
    },
  );
  const secondDay: Meter = {
    statements: after.statements - firstDay.statements,
    rowsRead: after.rowsRead - firstDay.rowsRead,
    rowsWritten: after.rowsWritten - firstDay.rowsWritten,
  };
  const perRadio = (m: Meter) => ({
    statements: (m.statements / DAY_RADIOS).toFixed(1),
    rowsRead: (m.rowsRead / DAY_RADIOS).toFixed(0),
    rowsWritten: (m.rowsWritten / DAY_RADIOS).toFixed(1),
  });
  console.log(`A simulated day, ${DAY_RADIOS} idle radios polling every 300 s ± 10 %, per radio per day:`);
  console.log("  before (main):", JSON.stringify(perRadio(before)));
  console.log(
    "  after, first day (shard memory, batched contact, the radio's first contact ever):",
    JSON.stringify(perRadio(firstDay)),
  );
  console.log("  after, a following day:", JSON.stringify(perRadio(secondDay)));
  console.log(`  rows written ratio after/before: ${(secondDay.rowsWritten / before.rowsWritten).toFixed(3)}`);
  // Issue 24's goal: at most 96 rows written per idle radio per day (migration 0043's contact column).
  expect(secondDay.rowsWritten / DAY_RADIOS).toBeLessThanOrEqual(96);
});

it(`statements per second at ${SHARDS} shards × ${PER_SHARD} radios, projected to 1,000,000`, async () => {
  const meter: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const radios = SHARDS * PER_SHARD;
  const uids = await registerRadios(orgId, accountId, "SEC", radios);
  const clock = { now: T0 };
  const db = metered(env.DB as unknown as D1Database, meter);
  const fleet = fleetOfShards(db, clock);
  // Per simulated second after the first poll cycle (the cold start: every radio's full path once).
  const perSecond = new Map<number, number>();
  const steadyFrom = T0 + 330_000;
  let checkIns = 0;
  let counted = meter.statements;
  let countedRows = { read: 0, written: 0 };
  let steadyCheckIns = 0;
  let flushedBefore = 0;
  const note = (at: number) => {
    if (at < steadyFrom) {
      flushedBefore = fleet.flushed.contacts;
      counted = meter.statements;
      countedRows = { read: meter.rowsRead, written: meter.rowsWritten };
      return;
    }
    const second = Math.floor(at / 1000);
    perSecond.set(second, (perSecond.get(second) ?? 0) + meter.statements - counted);
    counted = meter.statements;
  };
  const started = performance.now();
  await simulate(
    uids,
    T0 + HOURS * 3_600_000,
    async (uid, at) => {
      clock.now = at;
      const answer = await fleet.shards[shardOf(uid)]?.checkIn(uid, hash, { firmware: "1.0.0", battery: 80, signal: -60 });
      await answer?.body?.cancel();
      checkIns += 1;
      if (at >= steadyFrom) steadyCheckIns += 1;
      note(at);
    },
    fleet.nextTimer,
    async (at) => {
      await fleet.timer(at);
      note(at);
    },
  );
  const wall = (performance.now() - started) / 1000;
  const seconds = (T0 + HOURS * 3_600_000 - steadyFrom) / 1000;
  const statements = [...perSecond.values()].reduce((a, b) => a + b, 0);
  const windows = new Map<number, number>();
  for (const [second, n] of perSecond) windows.set(Math.floor(second / 10), (windows.get(Math.floor(second / 10)) ?? 0) + n);
  const worst10s = Math.max(...windows.values());
  const mean = statements / seconds;
  const rowsWritten = meter.rowsWritten - countedRows.written;
  const rowsRead = meter.rowsRead - countedRows.read;
  console.log(
    `${radios} radios on ${SHARDS} shards, ${HOURS} simulated hours (${checkIns} check-ins, ${wall.toFixed(0)} s of wall time):`,
  );
  console.log(
    `  steady state: ${(steadyCheckIns / seconds).toFixed(1)} check-ins/s, ${mean.toFixed(2)} D1 statements/s (worst 10 s: ${(worst10s / 10).toFixed(1)}/s)`,
  );
  console.log(`  rows written ${(rowsWritten / seconds).toFixed(1)}/s, rows read ${(rowsRead / seconds).toFixed(1)}/s`);
  // Statements do not grow with radios: per shard one refresh per FLEET_VERSION_FRESH_MS and one
  // flush per CONTACT_FLUSH_MS (while any contact is due), one more per 2,000 contacts in a flush.
  const million = 1_000_000;
  const contactsPerSecond = (fleet.flushed.contacts - flushedBefore) / seconds;
  const contactsAtMillion = (contactsPerSecond * million) / radios;
  const perFlush = (contactsAtMillion / SHARDS) * (CONTACT_FLUSH_MS / 1000);
  const projected = SHARDS / (FLEET_VERSION_FRESH_MS / 1000) + (SHARDS * Math.ceil(perFlush / 2000)) / (CONTACT_FLUSH_MS / 1000);
  console.log(
    `  last-seen written for ${contactsPerSecond.toFixed(2)} radios/s (${((contactsPerSecond * 86_400) / radios).toFixed(1)} per radio per day)`,
  );
  console.log(
    `  projected at 1,000,000 radios (3,333 check-ins/s): ${projected.toFixed(1)} D1 statements/s` +
      ` = ${SHARDS} shards × 1 refresh per ${FLEET_VERSION_FRESH_MS / 1000} s + ${SHARDS} × ${Math.ceil(perFlush / 2000)} flush statement(s) per ${CONTACT_FLUSH_MS / 1000} s` +
      ` (${perFlush.toFixed(0)} radios per flush); rows written ${((rowsWritten / seconds) * (million / radios)).toFixed(0)}/s`,
  );
  expect(mean).toBeLessThanOrEqual(50);
});

it("the contact sweep: what one run costs, and per radio per day", async () => {
  // An idle fleet in contact, a tenth of it quiet for two hours (the sweep's work), in its own account.
  const radios = SHARDS * PER_SHARD;
  const owner = await createUser({ role: "owner" });
  const account = await createAccount(owner.orgId, "Sweep");
  await giveSeats(owner.orgId, account, radios);
  const uids = await registerRadios(owner.orgId, account, "SWEEP", radios);
  const now = T0 + 2 * DAY;
  const quietSince = new Date(now - 2 * 3_600_000).toISOString();
  await env.DB.prepare(
    `UPDATE devices SET last_seen_at = '${IN_CONTACT}', contact_at = CASE WHEN rowid % 10 = 0 THEN ?2 ELSE ?3 END
     WHERE account_id = ?1`,
  )
    .bind(account, quietSince, new Date(now - 300_000).toISOString())
    .run();
  // Only this account's radios in contact: the others' states would blur the figures.
  await env.DB.prepare(`UPDATE devices SET last_seen_at = contact_at WHERE last_seen_at = '${IN_CONTACT}' AND account_id <> ?`)
    .bind(account)
    .run();
  const expectedQuiet = (
    await env.DB.prepare("SELECT count(*) AS n FROM devices WHERE account_id = ? AND contact_at = ?")
      .bind(account, quietSince)
      .first<{ n: number }>()
  )?.n;
  await env.DB.prepare("UPDATE contact_sweep SET from_uid = '', upto_uid = ''").run();
  const meter: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const db = metered(env.DB as unknown as D1Database, meter);
  const slice = Math.ceil(radios / 4);
  let runs = 0;
  let quiet = 0;
  // One whole cycle: until the slice starts over.
  do {
    quiet += await sweepContacts(db, new Date(now), slice);
    runs += 1;
  } while ((await env.DB.prepare("SELECT upto_uid FROM contact_sweep").first<{ upto_uid: string }>())?.upto_uid !== "");
  console.log(
    `The contact sweep over ${uids.length} radios in contact (slice ${slice}, ${runs} runs for a cycle, the last finding the end): ` +
      `${(meter.statements / runs).toFixed(1)} statements, ${(meter.rowsRead / runs).toFixed(0)} rows read and ` +
      `${(meter.rowsWritten / runs).toFixed(0)} written per run; ${quiet} quiet radios left "in contact", ` +
      `${((meter.rowsWritten - runs) / Math.max(quiet, 1)).toFixed(1)} rows written for each (its indexes and report totals, once)`,
  );
  console.log(
    `  at 1,000,000 radios in contact, one run a minute of ${SWEEP_SLICE}: a cycle in ${Math.ceil(1_000_000 / SWEEP_SLICE)} min; ` +
      `while all stay in contact ${((1_440 * 2 * SWEEP_SLICE) / 1_000_000).toFixed(0)} rows read and ${(1_440 / 1_000_000).toFixed(4)} written per radio per day`,
  );
  expect(quiet).toBe(expectedQuiet);
  const left = await env.DB.prepare(
    `SELECT count(*) AS n FROM devices WHERE account_id = ? AND last_seen_at = '${IN_CONTACT}' AND contact_at = ?`,
  )
    .bind(account, quietSince)
    .first<{ n: number }>();
  expect(left?.n).toBe(0);
});

it("a check-in through the Worker and its shard: from memory vs the full path", async () => {
  const uids = await registerRadios(orgId, accountId, "TIME", TIMED);
  const call = (uid: string) =>
    SELF.fetch("https://example.com/device/v1/check-in", {
      method: "POST",
      headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
      body: JSON.stringify({ firmware: "1.0.0", battery: 80 }),
    }).then((r: Response) => r.arrayBuffer());
  // First check-in of each radio: the shard has never seen it (the full path).
  let started = performance.now();
  for (const uid of uids) await call(uid);
  const full = (performance.now() - started) / TIMED;
  started = performance.now();
  for (const uid of uids) await call(uid);
  const memory = (performance.now() - started) / TIMED;
  console.log(
    `Check-in wall time in workerd (${TIMED} sequential calls, Worker → shard): full path ${full.toFixed(2)} ms, from memory ${memory.toFixed(2)} ms (ratio ${(memory / full).toFixed(2)})`,
  );
  expect(memory).toBeLessThan(full);
});

it("one radio's change: the D1 statements it costs in the next poll interval, account version (before) vs radio-change log (after)", async () => {
  const perShard = Math.min(PER_SHARD, 100);
  const radios = SHARDS * perShard;
  const owner = await createUser({ role: "owner" });
  const account = await createAccount(owner.orgId, "One change");
  await giveSeats(owner.orgId, account, radios);
  const uids = await registerRadios(owner.orgId, account, "ONE", radios);
  const meter: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const clock = { now: T0 };
  // Radio reads (the full path's one statement) counted apart from the rest.
  const reads = { radio: 0 };
  const base = metered(env.DB as unknown as D1Database, meter);
  const db = new Proxy(base, {
    get(target, property) {
      if (property === "prepare")
        return (sql: string) => {
          if (sql.trimStart().startsWith("SELECT dv.uid")) reads.radio += 1;
          return target.prepare(sql);
        };
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const fleet = fleetOfShards(db, clock);
  // Windows of a poll interval (and a refresh) each: warm-up, quiet, after one radio's edit,
  // after the account's fleet version moved (what each radio-level change did before 0031).
  const WINDOW = 310_000;
  const marks = [1, 2, 3, 4].map((i) => T0 + i * WINDOW);
  const actions: (() => Promise<unknown>)[] = [
    async () => {},
    () => env.DB.prepare(`UPDATE devices SET tags = '["moved"]' WHERE uid = ?`).bind(uids[0]).run(),
    () =>
      env.DB.prepare(
        "INSERT INTO fleet_versions (account_id, version) VALUES (?, 1) ON CONFLICT DO UPDATE SET version = version + 1",
      )
        .bind(account)
        .run(),
  ];
  const windows: { statements: number; radioReads: number }[] = [];
  let phase = 0;
  let from = { statements: 0, radioReads: 0 };
  const passMarks = async (at: number) => {
    while (phase < marks.length && at >= (marks[phase] ?? 0)) {
      if (phase > 0) windows.push({ statements: meter.statements - from.statements, radioReads: reads.radio - from.radioReads });
      from = { statements: meter.statements, radioReads: reads.radio };
      await actions[phase]?.();
      phase += 1;
    }
  };
  await simulate(
    uids,
    (marks[3] ?? 0) + 1,
    async (uid, at) => {
      await passMarks(at);
      clock.now = at;
      const answer = await fleet.shards[shardOf(uid)]?.checkIn(uid, hash, { firmware: "1.0.0", battery: 80, signal: -60 });
      await answer?.body?.cancel();
    },
    fleet.nextTimer,
    async (at) => {
      await passMarks(at);
      await fleet.timer(at);
    },
  );
  await passMarks((marks[3] ?? 0) + 1);
  const [quiet, edited, moved] = windows;
  if (!quiet || !edited || !moved) throw new Error("the simulation ended before its windows");
  const line = (w: { statements: number; radioReads: number }) =>
    `${w.radioReads} radio reads, ${w.statements} statements in all`;
  console.log(`One radio's change among ${radios} radios of one account on ${SHARDS} shards, per ${WINDOW / 1000} s window:`);
  console.log(`  quiet: ${line(quiet)}`);
  console.log(`  after one radio's edit (radio-change log, 0031): ${line(edited)}`);
  console.log(`  after the account's fleet version moved (every radio-level change before 0031): ${line(moved)}`);
  const atMillion = Math.round(((moved.radioReads - quiet.radioReads) * 1_000_000) / radios);
  console.log(
    `  projected at 1,000,000 radios in the account: ${edited.radioReads - quiet.radioReads} vs ${atMillion} radio reads`,
  );
  expect(edited.radioReads - quiet.radioReads).toBe(1);
  expect(moved.radioReads - quiet.radioReads).toBeGreaterThanOrEqual(radios * 0.9);
});
