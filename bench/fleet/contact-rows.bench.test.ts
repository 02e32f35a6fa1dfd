import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { CONTACT_WRITE_AFTER_MS } from "@/server/data/device-checkins";
import { createAccount, createUser } from "../../tests/worker/fixtures";
import { giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";

// Issue 24, goal "≤ 96 D1 rows written per idle radio per day": what splitting last-seen into a
// fine contact column (no index, no trigger) and the indexed `last_seen_at` would cost, measured
// on the real schema (every migration) before building it. `contact_at` is added here only.
// 1. One UPDATE's rows written: the fine column alone, last-seen in the same hour, a new hour, a new day.
// 2. A simulated day of an idle radio (polls every 300 s ± 10 %, contact written when ≥ 14 min 50 s
//    newer, as the shard does): rows written per radio per day when `last_seen_at` (and so its
//    indexes and roll-up triggers) moves only when the contact is at least MOVE newer than it.
const RADIOS = 20;
const T0 = Date.parse("2026-06-01T00:00:00.000Z");
const DAY = 86_400_000;
const HOUR = 3_600_000;
let uids: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, "Contact rows");
  await giveSeats(owner.orgId, accountId, 1_000);
  uids = await registerRadios(owner.orgId, accountId, "cr", RADIOS * 8);
  // Added here unless a migration already has it (then the bench measures the real column).
  const has = await env.DB.prepare("SELECT 1 FROM pragma_table_info('devices') WHERE name = 'contact_at'").first();
  if (!has) await env.DB.prepare("ALTER TABLE devices ADD COLUMN contact_at TEXT").run();
});

async function written(sql: string, ...params: (string | null)[]): Promise<number> {
  const result = await env.DB.prepare(sql)
    .bind(...params)
    .run();
  return result.meta.rows_written ?? 0;
}

const iso = (at: number) => new Date(at).toISOString();

it("rows written by one UPDATE of the contact columns", async () => {
  const uid = uids[0] as string;
  await written("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?", iso(T0), iso(T0), uid);
  const figures = {
    "contact_at only (no index, no trigger)": await written(
      "UPDATE devices SET contact_at = ? WHERE uid = ?",
      iso(T0 + 60_000),
      uid,
    ),
    "last_seen_at, same hour": await written("UPDATE devices SET last_seen_at = ? WHERE uid = ?", iso(T0 + 120_000), uid),
    "last_seen_at, new hour": await written("UPDATE devices SET last_seen_at = ? WHERE uid = ?", iso(T0 + HOUR), uid),
    "last_seen_at, new day": await written("UPDATE devices SET last_seen_at = ? WHERE uid = ?", iso(T0 + DAY), uid),
    "both, same hour": await written(
      "UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?",
      iso(T0 + DAY + 60_000),
      iso(T0 + DAY + 60_000),
      uid,
    ),
    "both, new hour": await written(
      "UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?",
      iso(T0 + DAY + HOUR),
      iso(T0 + DAY + HOUR),
      uid,
    ),
  };
  console.log("\nOne UPDATE, rows written (meta.rows_written):");
  for (const [what, rows] of Object.entries(figures)) console.log(`  ${what}: ${rows}`);
  expect(figures["contact_at only (no index, no trigger)"]).toBe(1);
});

/** A deterministic random in [0, 1). */
function randomFrom(seed: number): () => number {
  let s = seed;
  return () => {
    s = (s * 1_103_515_245 + 12_345) % 2 ** 31;
    return s / 2 ** 31;
  };
}

const rules: [string, number][] = [
  ["moves with every contact write (today)", 0],
  ["moves when ≥ 1 h behind", HOUR],
  ["moves when ≥ 6 h behind", 6 * HOUR],
  ["moves when ≥ 12 h behind", 12 * HOUR],
  ["moves when ≥ 24 h behind", DAY],
  ["moves only on first contact (state change only)", Number.POSITIVE_INFINITY],
];

it("rows written per idle radio per day, by how often last_seen_at moves", async () => {
  console.log(`\nA simulated day, ${RADIOS} idle radios per rule, polls every 300 s ± 10 %:`);
  const results: Record<string, number> = {};
  for (const [index, [rule, move]] of rules.entries()) {
    const radios = uids.slice(index * RADIOS, (index + 1) * RADIOS);
    const random = randomFrom(7 + index);
    let rows = 0;
    let writes = 0;
    let moves = 0;
    for (const uid of radios) {
      // The day before: first contact (both columns) so that the measured day starts steady.
      let stored = T0 - Math.floor(random() * 900_000);
      let lastSeen = stored - Math.floor(random() * (Number.isFinite(move) ? move : 0));
      await written("UPDATE devices SET last_seen_at = ?, contact_at = ? WHERE uid = ?", iso(lastSeen), iso(stored), uid);
      for (let at = T0 + Math.floor(random() * 300_000); at < T0 + DAY; at += Math.round(300_000 * (0.9 + random() * 0.2))) {
        if (at - stored < CONTACT_WRITE_AFTER_MS) continue;
        writes++;
        stored = at;
        if (at - lastSeen >= move) {
          lastSeen = at;
          moves++;
          rows += await written("UPDATE devices SET contact_at = ?, last_seen_at = ? WHERE uid = ?", iso(at), iso(at), uid);
        } else rows += await written("UPDATE devices SET contact_at = ? WHERE uid = ?", iso(at), uid);
      }
    }
    results[rule] = rows / RADIOS;
    console.log(
      `  ${rule}: ${(writes / RADIOS).toFixed(1)} contact writes, ${(moves / RADIOS).toFixed(1)} last_seen_at moves, ` +
        `${(rows / RADIOS).toFixed(1)} rows written / radio / day`,
    );
  }
  expect(results["moves only on first contact (state change only)"]).toBeLessThanOrEqual(96);
});

it("counting an account's radios by contact: the indexed last_seen_at against the unindexed contact_at", async () => {
  const RADIOS_IN_ACCOUNT = 20_000; // the largest account counted live (larger ones read the sync snapshot)
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, "Contact counts");
  await giveSeats(owner.orgId, accountId, RADIOS_IN_ACCOUNT);
  await registerRadios(owner.orgId, accountId, "cc", RADIOS_IN_ACCOUNT);
  await env.DB.prepare(
    `UPDATE devices SET last_seen_at = strftime('%Y-%m-%dT%H:%M:%fZ', ?2, '-' || (abs(random()) % 7200) || ' seconds'),
       contact_at = last_seen_at WHERE account_id = ?1`,
  )
    .bind(accountId, iso(T0))
    .run();
  await env.DB.prepare("UPDATE devices SET contact_at = last_seen_at WHERE account_id = ?").bind(accountId).run();
  const overdue = iso(T0 - 30 * 60_000);
  const count = (column: string, extra = "") =>
    `SELECT CASE WHEN ${column} IS NULL THEN 'neverSeen' WHEN ${column} < ?2 THEN 'overdue' ELSE 'recent' END AS contact,
       count(*) AS radios${extra} FROM devices WHERE account_id = ?1 AND status = 'active' GROUP BY 1`;
  const variants: [string, string][] = [
    ["last_seen_at (covering index)", count("last_seen_at")],
    ["contact_at (table rows)", count("contact_at")],
    ["last_seen_at, with rollout_bucket as the live counts read it", count("last_seen_at", ", max(rollout_bucket) AS b")],
    ["contact_at, with rollout_bucket", count("contact_at", ", max(rollout_bucket) AS b")],
  ];
  console.log(`\nCounting ${RADIOS_IN_ACCOUNT.toLocaleString("en")} radios of one account by contact (best of 5):`);
  const totals: Record<string, string> = {};
  for (const [name, sql] of variants) {
    let best = Number.POSITIVE_INFINITY;
    let rowsRead = 0;
    for (let i = 0; i < 5; i++) {
      const started = Date.now();
      const result = await env.DB.prepare(sql).bind(accountId, overdue).all<{ contact: string; radios: number }>();
      best = Math.min(best, Date.now() - started);
      rowsRead = result.meta.rows_read ?? 0;
      totals[name] = JSON.stringify(result.results.map((r) => [r.contact, r.radios]));
    }
    console.log(`  ${name}: ${best} ms, ${rowsRead.toLocaleString("en")} rows read`);
  }
  // The same counts either way while contact_at equals last_seen_at.
  expect(new Set(Object.values(totals)).size).toBe(1);
});
