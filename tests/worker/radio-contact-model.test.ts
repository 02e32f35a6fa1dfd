import { env } from "cloudflare:test";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { listDevices, type SeenFilter } from "@/server/data/devices";
import { syncCounts } from "@/server/data/fleet-sync";
import { IN_CONTACT, lastContactSql, OUT_OF_CONTACT_AFTER_MS, sweepContacts, writeContacts } from "@/server/data/radio-contact";
import { lastSeenReport } from "@/server/data/reports/last-seen";
import { createAccount, createUser } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";

// The contact state (migration 0043) proven against a model: random sequences of contact writes
// (the shard's batches, some carrying an older time than stored), sweep runs with random slices
// and clock steps. The model is only each radio's newest contact. After every step:
// - the last contact read back is the model's, and `last_seen_at` is either IN_CONTACT (with the
//   time in `contact_at`) or that same contact (NULL: never seen);
// - the contact counts (recent, overdue, never seen) are the model's;
// - once a full sweep cycle has run, no radio quiet for an hour is still IN_CONTACT;
// - whenever no radio IN_CONTACT has been quiet for a day, the seen filters and the last-seen
//   report count exactly what the model says.

const RADIOS = 4;
const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;
const T0 = Date.parse("2026-04-01T00:00:00.000Z");
const iso = (at: number) => new Date(at).toISOString();
const db = () => env.DB as unknown as D1Database;

type Action =
  | { kind: "contact"; radios: number[]; dt: number; olderBy: number }
  | { kind: "sweep"; slice: number; dt: number }
  | { kind: "cycle"; dt: number }
  | { kind: "wait"; dt: number };

const step = fc.oneof(
  fc.integer({ min: 0, max: 20 * MIN }),
  fc.integer({ min: 0, max: 3 * HOUR }),
  fc.integer({ min: 0, max: 9 * DAY }),
);
const actions = fc.array(
  fc.oneof(
    {
      weight: 4,
      arbitrary: fc.record({
        kind: fc.constant("contact" as const),
        radios: fc.uniqueArray(fc.nat(RADIOS - 1), { minLength: 1, maxLength: RADIOS }),
        dt: step,
        olderBy: fc.oneof(fc.constant(0), fc.constant(0), fc.integer({ min: 1, max: 2 * DAY })),
      }),
    },
    { weight: 2, arbitrary: fc.record({ kind: fc.constant("sweep" as const), slice: fc.integer({ min: 1, max: 3 }), dt: step }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("cycle" as const), dt: step }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant("wait" as const), dt: step }) },
  ),
  { maxLength: 25 },
);

let orgId = "";
let runs = 0;

beforeAll(async () => {
  orgId = (await createUser({ role: "owner" })).orgId;
});

type World = { accountId: string; uids: string[]; clock: number; contact: (number | null)[]; swept: boolean };

async function freshWorld(): Promise<World> {
  runs += 1;
  const accountId = await createAccount(orgId, `Contact model ${runs}`);
  await giveSeats(orgId, accountId, RADIOS);
  const uids = await registerRadios(orgId, accountId, `CM${runs}`, RADIOS);
  return { accountId, uids, clock: T0, contact: uids.map(() => null), swept: false };
}

async function act(world: World, action: Action): Promise<void> {
  world.clock += action.dt;
  if (action.kind === "contact") {
    const at = world.clock - action.olderBy;
    await writeContacts(
      db(),
      action.radios.map((i) => ({ uid: world.uids[i] ?? "", at: iso(at), battery: 50 })),
    );
    for (const i of action.radios) world.contact[i] = Math.max(world.contact[i] ?? Number.NEGATIVE_INFINITY, at);
    world.swept = false;
  } else if (action.kind === "sweep") {
    await sweepContacts(db(), new Date(world.clock), action.slice);
  } else if (action.kind === "cycle") {
    // Runs until a run reaches the end of the radios in contact (the next one starts over).
    await env.DB.prepare("UPDATE contact_sweep SET from_uid = '', upto_uid = ''").run();
    do await sweepContacts(db(), new Date(world.clock), 2);
    while ((await env.DB.prepare("SELECT upto_uid FROM contact_sweep").first<{ upto_uid: string }>())?.upto_uid !== "");
    world.swept = true;
  }
  if (action.kind !== "cycle" && action.dt > 0) world.swept = false;
}

async function checkInvariants(world: World): Promise<void> {
  const { results } = await env.DB.prepare(
    `SELECT uid, last_seen_at, contact_at, ${lastContactSql("devices")} AS last FROM devices
     WHERE uid IN (SELECT value FROM json_each(?)) ORDER BY uid`,
  )
    .bind(JSON.stringify(world.uids))
    .all<{ uid: string; last_seen_at: string | null; contact_at: string | null; last: string | null }>();
  const rows = new Map(results.map((r) => [r.uid, r]));
  let staleInContact = false;
  world.uids.forEach((uid, i) => {
    const row = rows.get(uid);
    const contact = world.contact[i] ?? null;
    const expected = contact === null ? null : iso(contact);
    expect(row?.last, `${uid}'s last contact`).toBe(expected);
    if (row?.last_seen_at === IN_CONTACT) {
      expect(row.contact_at).toBe(expected);
      expect(expected).not.toBeNull();
      if (world.swept)
        expect(contact ?? 0, `${uid} quiet for an hour after a full sweep`).toBeGreaterThanOrEqual(
          world.clock - OUT_OF_CONTACT_AFTER_MS,
        );
      if ((contact ?? 0) < world.clock - DAY) staleInContact = true;
    } else expect(row?.last_seen_at, `${uid}'s state`).toBe(expected);
  });
  const now = new Date(world.clock);
  const counts = await syncCounts(db(), world.accountId, now);
  const overdueBefore = world.clock - 30 * MIN;
  expect(counts.contact).toEqual({
    neverSeen: world.contact.filter((c) => c === null).length,
    overdue: world.contact.filter((c) => c !== null && c < overdueBefore).length,
    recent: world.contact.filter((c) => c !== null && c >= overdueBefore).length,
  });
  if (staleInContact) return; // the day filters wait for the sweep
  const real = world.contact;
  const inFilter: Record<SeenFilter, (c: number | null) => boolean> = {
    never: (c) => c === null,
    day: (c) => c !== null && c >= world.clock - DAY,
    week: (c) => c !== null && c >= world.clock - 7 * DAY,
    older: (c) => c !== null && c < world.clock - 7 * DAY,
  };
  for (const seen of ["never", "day", "week", "older"] as const) {
    const { items } = await listDevices(db(), { orgId, scopeAccountId: world.accountId, seen }, { limit: 50 }, now);
    expect(items.map((d) => d.uid).sort(), `filter ${seen}`).toEqual(
      world.uids.filter((_, i) => inFilter[seen](real[i] ?? null)),
    );
  }
  const report = await lastSeenReport(db(), world.accountId, now);
  const bucket = { day: 0, week: 0, month: 0, older: 0, never: 0 };
  for (const c of real) {
    if (c === null) bucket.never += 1;
    else if (c >= world.clock - DAY) bucket.day += 1;
    else if (c >= world.clock - 7 * DAY) bucket.week += 1;
    else if (c >= world.clock - 30 * DAY) bucket.month += 1;
    else bucket.older += 1;
  }
  expect(report.rows[0] ?? { day: 0, week: 0, month: 0, older: 0, never: 0 }).toMatchObject(bucket);
}

describe("a radio's contact state against its model", () => {
  it("keeps every invariant over random contact writes, sweeps and clock steps", async () => {
    await fc.assert(
      fc.asyncProperty(actions, async (list) => {
        const world = await freshWorld();
        await checkInvariants(world);
        for (const action of list) {
          await act(world, action);
          await checkInvariants(world);
        }
      }),
      { seed: 20261127, numRuns: 40, endOnFailure: true },
    );
  }, 300_000);
});
