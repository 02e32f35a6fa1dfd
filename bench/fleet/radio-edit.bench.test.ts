import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { CONTACT_FLUSH_MS } from "@/server/data/device-checkins";
import { CheckInMemory } from "@/server/fleet/check-in-memory";
import { FLEET_VERSION_FRESH_MS } from "@/server/fleet/config-token";
import { createAccount, createUser } from "../../tests/worker/fixtures";
import { giveSeats, RADIO_SECRET, registerRadios, sha256Hex } from "../../tests/worker/fleet-fixtures";
import { type Meter, metered } from "./metered-db";

// Issue 24, "one radio's edit must not send its whole account through the full path": what one
// poll cycle of an account's radios costs D1 after ONE of them was edited, through the real
// shard memory (one shard holding RADIOS radios of one account) on a simulated clock.
// Before migration 0031 the shard's answers were keyed on the per-account fleet version alone, so
// the edit of one radio sent every radio of its account through the full path once (2,010
// statements in the cycle after the edit, against 30 quiet). Now the edit names that radio in
// the radio-change log, which the shard reads in its 10 s refresh: only that radio takes the
// full path, at its next check-in after the refresh (within the stated 10 s).
const RADIOS = 2_000;
const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const POLL = 300_000;
let uids: string[] = [];
let hash = "";

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, "Radio edit");
  await giveSeats(owner.orgId, accountId, RADIOS);
  uids = await registerRadios(owner.orgId, accountId, "RE", RADIOS);
  hash = await sha256Hex(RADIO_SECRET);
});

it("D1 cost of one poll cycle after editing one radio of the account", async () => {
  const meter: Meter = { statements: 0, rowsRead: 0, rowsWritten: 0 };
  const db = metered(env.DB as unknown as D1Database, meter);
  const clock = { now: T0 };
  const shard = new CheckInMemory({
    db: () => db,
    now: () => clock.now,
    freshMs: FLEET_VERSION_FRESH_MS,
    flushMs: CONTACT_FLUSH_MS,
    etagKey: "bench",
    scheduleFlush: () => {},
  });
  const cycle = async (start: number) => {
    const before = { ...meter };
    for (const [i, uid] of uids.entries()) {
      clock.now = start + Math.floor((i * POLL) / RADIOS);
      const answer = await shard.checkIn(uid, hash, { firmware: "1.0.0" });
      expect(answer.status).toBe(200);
      await answer.body?.cancel();
    }
    return {
      statements: meter.statements - before.statements,
      rowsRead: meter.rowsRead - before.rowsRead,
      rowsWritten: meter.rowsWritten - before.rowsWritten,
    };
  };
  const cold = await cycle(T0);
  const quiet = await cycle(T0 + POLL);
  await env.DB.prepare("UPDATE devices SET model = 'NW-500' WHERE uid = ?")
    .bind(uids[0] as string)
    .run();
  const afterEdit = await cycle(T0 + 2 * POLL);
  const following = await cycle(T0 + 3 * POLL);
  const show = (what: string, m: Omit<Meter, never>) =>
    console.log(`  ${what}: ${m.statements} statements, ${m.rowsRead} rows read, ${m.rowsWritten} rows written`);
  console.log(`\nOne shard, ${RADIOS} radios of one account, one poll cycle each:`);
  show("cold (every radio's first check-in)", cold);
  show("quiet (nothing changed)", quiet);
  show("after editing ONE radio's model", afterEdit);
  show("the cycle after that", following);
  const extra = afterEdit.statements + following.statements - 2 * quiet.statements;
  console.log(`  statements the edit cost over two cycles: ${extra} (the edited radio's full path), whatever the account's size`);
  // The edited radio's one full read (1 statement), not one per radio of the account.
  expect(extra).toBeLessThanOrEqual(2);
  expect(extra).toBeGreaterThanOrEqual(1);
});
