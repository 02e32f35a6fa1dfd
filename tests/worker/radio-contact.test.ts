import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { CONTACT_FLUSH_MS, CONTACT_RESOLUTION_MS } from "@/server/data/device-checkins";
import { cursorOf, type DeviceCursor, type DeviceSort, findDevice, listDevices, type SeenFilter } from "@/server/data/devices";
import { syncCounts } from "@/server/data/fleet-sync";
import {
  backInContactStatement,
  IN_CONTACT,
  OUT_OF_CONTACT_AFTER_MS,
  stillInContactStatement,
  sweepContacts,
} from "@/server/data/radio-contact";
import { lastSeenReport } from "@/server/data/reports/last-seen";
import { CheckInMemory } from "@/server/fleet/check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "@/server/fleet/config-token";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, RADIO_SECRET, registerRadios, sha256Hex } from "./fleet-fixtures";
import { request } from "./helpers";

// Issue 24, migration 0043: a radio's contact in two columns. `contact_at` (fine, no index, no
// trigger) moves with every contact write; `last_seen_at` (indexed, rolled up) holds IN_CONTACT
// while the radio is in contact and moves only when it goes quiet (the sweep) or comes back.
// Whatever state the two columns are in, every reader must tell the radio's real last contact.

const NOW = Date.parse("2026-05-20T12:00:00.000Z");
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const iso = (at: number) => new Date(at).toISOString();

let orgId = "";

beforeAll(async () => {
  orgId = (await createUser({ role: "owner" })).orgId;
});

async function radiosOf(name: string, count: number): Promise<{ accountId: string; uids: string[] }> {
  const accountId = await createAccount(orgId, name);
  await giveSeats(orgId, accountId, count);
  const prefix = name.replace(/\W/g, "").slice(0, 6).toUpperCase();
  return { accountId, uids: await registerRadios(orgId, accountId, prefix, count) };
}

/** The columns as they stand: [last_seen_at, contact_at]. */
async function columns(uid: string): Promise<[string | null, string | null]> {
  const row = await env.DB.prepare("SELECT last_seen_at, contact_at FROM devices WHERE uid = ?")
    .bind(uid)
    .first<{ last_seen_at: string | null; contact_at: string | null }>();
  return [row?.last_seen_at ?? null, row?.contact_at ?? null];
}

/** Every radio in contact is checked by the next sweep (the cursor starts over). */
async function sweepFromTheStart(now: number, slice?: number): Promise<number> {
  await env.DB.prepare("UPDATE contact_sweep SET from_uid = '', upto_uid = ''").run();
  return sweepContacts(env.DB as unknown as D1Database, new Date(now), slice);
}

describe("the contact write", () => {
  it("costs one row for a radio in contact; coming back moves the state once", async () => {
    const { uids } = await radiosOf("Contact rows", 1);
    const uid = uids[0] ?? "";
    const db = env.DB as unknown as D1Database;
    // Never seen: the radio in contact at once (its indexes and report totals move once).
    const back = await backInContactStatement(db, [{ uid, at: iso(NOW) }]).run();
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(NOW)]);
    // In contact: the next contact is the fine column alone, one row written.
    const kept = await stillInContactStatement(db, [{ uid, at: iso(NOW + CONTACT_RESOLUTION_MS), battery: 40 }]).all();
    expect(kept.results).toEqual([{ uid }]);
    expect(kept.meta.rows_written).toBe(1);
    expect(back.meta.rows_written).toBeGreaterThan(1);
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(NOW + CONTACT_RESOLUTION_MS)]);
    // A contact never moves back, and the other statement leaves a radio in contact alone.
    expect((await stillInContactStatement(db, [{ uid, at: iso(NOW) }]).all()).results).toEqual([]);
    expect((await backInContactStatement(db, [{ uid, at: iso(NOW + DAY) }]).run()).meta.changes).toBe(0);
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(NOW + CONTACT_RESOLUTION_MS)]);
  });
});

describe("the contact sweep", () => {
  it("gives radios quiet for an hour their real last contact back, and leaves the others", async () => {
    const { uids } = await radiosOf("Sweep", 4);
    const [recent = "", quiet = "", real = "", never = ""] = uids;
    await env.DB.batch([
      env.DB.prepare("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?").bind(
        IN_CONTACT,
        iso(NOW - 50 * MIN),
        recent,
      ),
      env.DB.prepare("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?").bind(
        IN_CONTACT,
        iso(NOW - 3 * HOUR),
        quiet,
      ),
      env.DB.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = ?").bind(iso(NOW - 5 * MIN), real),
    ]);
    expect(await sweepFromTheStart(NOW)).toBe(1);
    expect(await columns(recent)).toEqual([IN_CONTACT, iso(NOW - 50 * MIN)]);
    expect(await columns(quiet)).toEqual([iso(NOW - 3 * HOUR), iso(NOW - 3 * HOUR)]);
    expect(await columns(real)).toEqual([iso(NOW - 5 * MIN), null]);
    expect(await columns(never)).toEqual([null, null]);
    // Quiet for exactly the hour: not yet.
    await env.DB.prepare("UPDATE devices SET contact_at = ? WHERE uid = ?")
      .bind(iso(NOW - OUT_OF_CONTACT_AFTER_MS), recent)
      .run();
    expect(await sweepFromTheStart(NOW)).toBe(0);
    expect(await sweepFromTheStart(NOW + 1)).toBe(1);
  });

  it("checks a slice per run and reaches every radio in contact within a cycle, then starts over", async () => {
    const { uids } = await radiosOf("Slices", 7);
    await env.DB.prepare("UPDATE devices SET last_seen_at = ?1, contact_at = ?2 WHERE uid IN (SELECT value FROM json_each(?3))")
      .bind(IN_CONTACT, iso(NOW - 2 * HOUR), JSON.stringify(uids))
      .run();
    // Nothing else in contact may sit in the slices (other tests' radios): quiet them first.
    await env.DB.prepare(
      "UPDATE devices SET last_seen_at = contact_at WHERE last_seen_at = ?1 AND uid NOT IN (SELECT value FROM json_each(?2))",
    )
      .bind(IN_CONTACT, JSON.stringify(uids))
      .run();
    await env.DB.prepare("UPDATE contact_sweep SET from_uid = '', upto_uid = ''").run();
    const db = env.DB as unknown as D1Database;
    const runs: number[] = [];
    for (let i = 0; i < 4; i++) runs.push(await sweepContacts(db, new Date(NOW), 3));
    expect(runs).toEqual([3, 3, 1, 0]);
    const inContact = await env.DB.prepare("SELECT count(*) AS n FROM devices WHERE last_seen_at = ?")
      .bind(IN_CONTACT)
      .first<{ n: number }>();
    expect(inContact?.n).toBe(0);
    // The fourth run found the end and started over: a radio back in contact is reached again.
    await env.DB.prepare("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?")
      .bind(IN_CONTACT, iso(NOW - 2 * HOUR), uids[0] ?? "")
      .run();
    expect(await sweepContacts(db, new Date(NOW), 3)).toBe(1);
  });
});

describe("every reader tells the real last contact", () => {
  // Radio → [its real last contact (null: never), whether last_seen_at holds IN_CONTACT].
  const fleet: [number | null, boolean][] = [
    [NOW - 5 * MIN, true],
    [NOW - 50 * MIN, true], // overdue (30 min) but not yet an hour quiet
    [NOW - 3 * HOUR, true], // quiet: the sweep moves it
    [NOW - 8 * DAY, true], // long quiet, never swept (a sweep that did not run): the sweep moves it
    [NOW - 2 * MIN, false], // written before migration 0043
    [NOW - 2 * DAY, false],
    [NOW - 10 * DAY, false],
    [NOW - 40 * DAY, false],
    [null, false],
  ];
  let accountId = "";
  let uids: string[] = [];

  beforeAll(async () => {
    ({ accountId, uids } = await radiosOf("Readers", fleet.length));
    await env.DB.batch(
      fleet.map(([contact, inContact], i) =>
        inContact
          ? env.DB.prepare("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?").bind(
              IN_CONTACT,
              iso(contact ?? 0),
              uids[i] ?? "",
            )
          : env.DB.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = ?").bind(
              contact === null ? null : iso(contact),
              uids[i] ?? "",
            ),
      ),
    );
    expect(await sweepFromTheStart(NOW)).toBeGreaterThanOrEqual(2);
  });

  const real = () => fleet.map(([contact], i) => ({ uid: uids[i] ?? "", contact }));

  it("the radio's own last contact (the inventory and its page)", async () => {
    const { items } = await listDevices(
      env.DB as unknown as D1Database,
      { orgId, scopeAccountId: accountId },
      { limit: 50 },
      new Date(NOW),
    );
    const shown = new Map(items.map((d) => [d.uid, d.lastSeenAt]));
    for (const { uid, contact } of real()) expect(shown.get(uid)).toBe(contact === null ? null : iso(contact));
    // The radio's page reads it with findDevice.
    for (const { uid, contact } of real())
      expect((await findDevice(env.DB as unknown as D1Database, uid))?.lastSeenAt).toBe(contact === null ? null : iso(contact));
  });

  it("the contact counts (recent, overdue, never seen)", async () => {
    const counts = await syncCounts(env.DB as unknown as D1Database, accountId, new Date(NOW));
    const expected = { recent: 0, overdue: 0, neverSeen: 0 };
    for (const { contact } of real()) {
      if (contact === null) expected.neverSeen += 1;
      else if (contact < NOW - 30 * MIN) expected.overdue += 1;
      else expected.recent += 1;
    }
    expect(counts.contact).toEqual(expected);
  });

  it("the inventory's seen filters", async () => {
    const matches = (seen: SeenFilter) =>
      real()
        .filter(({ contact }) =>
          seen === "never"
            ? contact === null
            : contact !== null &&
              (seen === "day" ? contact >= NOW - DAY : seen === "week" ? contact >= NOW - 7 * DAY : contact < NOW - 7 * DAY),
        )
        .map((r) => r.uid)
        .sort();
    for (const seen of ["never", "day", "week", "older"] as const) {
      const { items } = await listDevices(
        env.DB as unknown as D1Database,
        { orgId, scopeAccountId: accountId, seen },
        { limit: 50 },
        new Date(NOW),
      );
      expect(items.map((d) => d.uid).sort(), seen).toEqual(matches(seen));
    }
  });

  it("the last-seen report", async () => {
    const report = await lastSeenReport(env.DB as unknown as D1Database, accountId, new Date(NOW));
    const expected = { day: 0, week: 0, month: 0, older: 0, never: 0 };
    for (const { contact } of real()) {
      if (contact === null) expected.never += 1;
      else if (contact >= NOW - DAY) expected.day += 1;
      else if (contact >= NOW - 7 * DAY) expected.week += 1;
      else if (contact >= NOW - 30 * DAY) expected.month += 1;
      else expected.older += 1;
    }
    expect(report.rows).toHaveLength(1);
    expect(report.rows[0]).toMatchObject(expected);
  });

  it("sorted by last seen, pages list every radio once: in contact first (by ID), then by last contact", async () => {
    for (const sort of ["-seen", "seen"] as DeviceSort[]) {
      const listed: string[] = [];
      let after: DeviceCursor | null = null;
      do {
        const page: Awaited<ReturnType<typeof listDevices>> = await listDevices(
          env.DB as unknown as D1Database,
          { orgId, scopeAccountId: accountId },
          { sort, after, limit: 2 },
          new Date(NOW),
        );
        listed.push(...page.items.map((d) => d.uid));
        after = page.next;
        if (page.items.length && after) expect(after).toEqual(cursorOf(page.items.at(-1) as never, sort));
      } while (after);
      // Radios in contact (0, 1) by uid, then by the real contact: 4 (2 min), 2 (3 h), 5, 3, 6, 7, never (8).
      const order = [1, 0, 4, 2, 5, 3, 6, 7, 8].map((i) => uids[i]);
      expect(listed).toEqual(sort === "-seen" ? order : order.reverse());
    }
  });

  it("the inventory sorted by last seen says how it sorts (and sorted by ID does not)", async () => {
    const owner = await createUser({ role: "owner", orgId });
    const cookie = await sessionCookie(owner.email);
    const page = async (sort: string) =>
      (await request(`/accounts/${accountId}/registry/devices?sort=${sort}`, { headers: { Cookie: cookie } })).text();
    const bySeen = await page("-seen");
    expect(bySeen).toContain("radios heard from within about the last hour are listed together, by ID");
    for (const uid of uids) expect(bySeen).toContain(uid);
    expect(await page("uid")).not.toContain("radios heard from within about the last hour");
  });
});

describe("a shard's memory against the sweep", () => {
  it("a radio the sweep marked quiet while its shard thought it in contact is back in contact with its next write", async () => {
    const { uids } = await radiosOf("Memory sweep", 1);
    const uid = uids[0] ?? "";
    const hash = await sha256Hex(RADIO_SECRET);
    const clock = { now: NOW };
    const memory = new CheckInMemory({
      db: () => env.DB as unknown as D1Database,
      now: () => clock.now,
      freshMs: FLEET_VERSION_FRESH_MS,
      flushMs: 0,
      etagKey: "test-key",
      scheduleFlush: () => {},
    });
    await (await memory.checkIn(uid, hash, { firmware: "1.0.0" })).arrayBuffer();
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(NOW)]);
    // Two hours without contact: the sweep gives it its real last contact.
    clock.now = NOW + 2 * HOUR;
    expect(await sweepFromTheStart(clock.now)).toBeGreaterThanOrEqual(1);
    expect(await columns(uid)).toEqual([iso(NOW), iso(NOW)]);
    // The shard still remembers it in contact; its contact write finds it was not, and moves the state.
    await (await memory.checkIn(uid, hash, { firmware: "1.0.0" })).arrayBuffer();
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(NOW + 2 * HOUR)]);
    // And the following contact is the fine column alone again.
    clock.now += CONTACT_RESOLUTION_MS + CONTACT_FLUSH_MS;
    await (await memory.checkIn(uid, hash, { firmware: "1.0.0" })).arrayBuffer();
    expect(await columns(uid)).toEqual([IN_CONTACT, iso(clock.now)]);
  });
});
