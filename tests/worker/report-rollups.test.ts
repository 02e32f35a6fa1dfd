import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { ReportTable } from "@/schema/reports";
import { activityReport } from "@/server/data/reports/activity";
import { commandsReport } from "@/server/data/reports/commands";
import { DIRECT_MILESTONES_UP_TO, deploymentsReport } from "@/server/data/reports/deployments";
import { lastSeenReport } from "@/server/data/reports/last-seen";
import { daysOf, instantsOf } from "@/server/data/reports/range";
import { createAccount, createOrganization } from "./fixtures";

// The report roll-ups (migration 0021) against direct counts of the rows they summarise, after
// inserts, updates and deletes; and the reports that mix roll-ups with counted rows (cutoff
// days, zones with a :30 offset) against the direct grouped queries they replaced.

const db = env.DB;
const MINUTE = 60_000;
const HOUR = 3_600_000;
const DAY = 86_400_000;
let org: string;
let account: string;
let other: string;

/** Roll-up grains: by hour and day, by type ('h', 'd') and over all types ('ht', 'dt'). */
const grains: [string, number, string][] = [
  ["h", 13, "type"],
  ["d", 10, "type"],
  ["ht", 13, "''"],
  ["dt", 10, "''"],
];
const activityCounts = (grain: string, length: number, label: string) =>
  `SELECT account_id, '${grain}', substr(created_at, 1, ${length}), ${label}, sum(action = 'create'), sum(action = 'update'),
     sum(action = 'delete') FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4`;

/** Each roll-up table and the grouped query over its source rows that it must always equal. */
const pairs: [string, string][] = [
  [
    "SELECT account_id, site_id, location_id, model, firmware, radios FROM report_device_counts",
    `SELECT account_id, ifnull(site_id, ''), ifnull(location_id, ''), model, firmware, count(*) FROM devices
     WHERE account_id IS NOT NULL AND status = 'active' GROUP BY 1, 2, 3, 4, 5`,
  ],
  [
    "SELECT deployment_id, phase, state, code, radios FROM report_deployment_counts",
    "SELECT deployment_id, phase, state, code, count(*) FROM deployment_devices GROUP BY 1, 2, 3, 4",
  ],
  [
    `SELECT account_id, grain, bucket, type, succeeded, failed, expired, cancelled, waiting, delivered, round(deliver_seconds, 3)
     FROM report_command_counts`,
    grains
      .map(
        ([grain, length, type]) =>
          `SELECT account_id, '${grain}', substr(created_at, 1, ${length}), ${type}, sum(state = 'succeeded'), sum(state = 'failed'),
             sum(state = 'expired'), sum(state = 'cancelled'), sum(state IN ('queued', 'sent', 'delivered')), sum(delivered_at IS NOT NULL),
             round(total((julianday(delivered_at) - julianday(created_at)) * 86400.0), 3)
           FROM commands WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4`,
      )
      .join(" UNION ALL "),
  ],
  [
    "SELECT account_id, grain, bucket, entity_type, creates, updates, deletes FROM report_activity_kinds",
    grains.map(([grain, length, type]) => activityCounts(grain, length, type.replace("type", "entity_type"))).join(" UNION ALL "),
  ],
  [
    "SELECT deployment_id, second, radios FROM report_deployment_reach_upto",
    `SELECT deployment_id, second, sum(radios) OVER (PARTITION BY deployment_id ORDER BY second)
     FROM (SELECT deployment_id, substr(updated_at, 1, 19) AS second, count(*) AS radios FROM deployment_devices
           WHERE state IN ('applied', 'already_in_sync') GROUP BY 1, 2)`,
  ],
  // Running totals (migration 0023): a row at exactly each hour that holds items, with the
  // items at or before it; so the rows equal a running sum over the grouped rows.
  [
    "SELECT account_id, site_id, radios, never FROM report_device_places",
    `SELECT account_id, ifnull(site_id, ''), count(*), sum(last_seen_at IS NULL) FROM devices
     WHERE account_id IS NOT NULL AND status = 'active' GROUP BY 1, 2`,
  ],
  [
    "SELECT account_id, site_id, hour, radios FROM report_device_seen_upto",
    `SELECT account_id, site_id, hour, sum(radios) OVER (PARTITION BY account_id, site_id ORDER BY hour)
     FROM (SELECT account_id, ifnull(site_id, '') AS site_id, substr(last_seen_at, 1, 13) AS hour, count(*) AS radios
           FROM devices WHERE account_id IS NOT NULL AND status = 'active' AND last_seen_at IS NOT NULL GROUP BY 1, 2, 3)`,
  ],
  [
    "SELECT account_id, actor_email, changes FROM report_activity_persons",
    "SELECT account_id, actor_email, count(*) FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2",
  ],
  [
    "SELECT account_id, actor_email, hour, creates, updates, deletes FROM report_activity_people_upto",
    `SELECT account_id, actor_email, hour, sum(creates) OVER w, sum(updates) OVER w, sum(deletes) OVER w
     FROM (SELECT account_id, actor_email, substr(created_at, 1, 13) AS hour, sum(action = 'create') AS creates,
             sum(action = 'update') AS updates, sum(action = 'delete') AS deletes
           FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3)
     WINDOW w AS (PARTITION BY account_id, actor_email ORDER BY hour)`,
  ],
];

async function rowsOf(sql: string): Promise<string[]> {
  const rows = await db.prepare(sql).raw();
  return rows.map((row) => JSON.stringify(row.map((v: unknown) => (v === 0 ? 0 : v)))).sort();
}

async function expectRollupsMatch() {
  for (const [rollup, direct] of pairs) {
    expect(await rowsOf(rollup), rollup).toEqual(await rowsOf(direct));
  }
}

const device = (
  uid: string,
  accountId: string,
  site: string | null,
  location: string | null,
  seen: string | null,
  revision: string | null,
) =>
  db
    .prepare(
      `INSERT INTO devices (uid, org_id, account_id, site_id, location_id, brand, model, firmware, last_seen_at, reported_revision, secret_hash)
       VALUES (?, ?, ?, ?, ?, 'Northwind', ?, ?, ?, ?, 'x')`,
    )
    .bind(
      uid,
      org,
      accountId,
      site,
      location,
      uid.endsWith("1") ? "XR-9" : "XR-7",
      uid.endsWith("2") ? "1.8.2" : "2.4.1",
      seen,
      revision,
    );

const command = (id: string, uid: string, type: string, state: string, created: string, deliveredAfterSeconds: number | null) =>
  db
    .prepare(
      `INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, delivered_at)
       VALUES (?, ?, ?, ?, ?, ?, 'usr', 'a@b.test', ?, ?, ?)`,
    )
    .bind(
      id,
      uid,
      org,
      account,
      type,
      state,
      created,
      new Date(Date.parse(created) + DAY).toISOString(),
      deliveredAfterSeconds === null ? null : new Date(Date.parse(created) + deliveredAfterSeconds * 1000).toISOString(),
    );

const change = (id: string, actor: string, action: string, kind: string, created: string) =>
  db
    .prepare(
      `INSERT INTO activity_logs (id, org_id, account_id, actor_email, action, entity_type, entity_id, created_at)
       VALUES (?, ?, ?, ?, ?, ?, 'x', ?)`,
    )
    .bind(id, org, account, actor, action, kind, created);

const reach = (uid: string, phase: number, state: string, code: string, at: string) =>
  db
    .prepare(
      "INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at) VALUES ('dep_roll_1', ?, ?, ?, ?, ?)",
    )
    .bind(uid, phase, state, code, at);

const now = new Date();
const ago = (ms: number) => new Date(now.getTime() - ms).toISOString();

beforeAll(async () => {
  org = await createOrganization("Roll-ups");
  account = await createAccount(org, "Roll-ups (Kolkata)", "advanced");
  other = await createAccount(org, "Roll-ups other", "advanced");
  await db.batch([
    db.prepare("UPDATE accounts SET timezone = 'Asia/Kolkata' WHERE id = ?").bind(account),
    db
      .prepare(
        "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_roll', ?, 'Plan', 100, '2026-01-01')",
      )
      .bind(org),
    db
      .prepare(
        "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_roll', 'sub_roll', ?, 50), ('alc_roll_2', 'sub_roll', ?, 50)",
      )
      .bind(account, other),
    db
      .prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_roll_a', ?, 'A'), ('site_roll_b', ?, 'B')")
      .bind(account, account),
    db
      .prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES ('loc_roll_a1', ?, 'site_roll_a', 'A1')")
      .bind(account),
    db
      .prepare(
        "INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES ('rev_roll_1', ?, 1, 'h', '{}'), ('rev_roll_2', ?, 2, 'h2', '{}')",
      )
      .bind(account, account),
    db
      .prepare(
        `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at)
         VALUES ('dep_roll_1', ?, ?, 1, 'rev_roll_2', 'finished', '{"phases":[]}', '{"mode":"delivery"}', 8, 'test', ?, ?)`,
      )
      .bind(account, org, ago(2 * DAY), ago(2 * DAY)),
    // Around each cutoff: a minute either side of a day, a week, a month and of "overdue" (30 min).
    device("ROLL-01", account, "site_roll_a", "loc_roll_a1", ago(MINUTE), "rev_roll_2"),
    device("ROLL-02", account, "site_roll_a", "loc_roll_a1", ago(29 * MINUTE), "rev_roll_1"),
    device("ROLL-03", account, "site_roll_a", null, ago(31 * MINUTE), "rev_roll_2"),
    device("ROLL-04", account, "site_roll_b", null, ago(DAY - MINUTE), "rev_roll_2"),
    device("ROLL-05", account, "site_roll_b", null, ago(DAY + MINUTE), null),
    device("ROLL-06", account, "site_roll_b", null, ago(7 * DAY - MINUTE), "rev_foreign"),
    device("ROLL-07", account, null, null, ago(7 * DAY + MINUTE), "rev_roll_2"),
    device("ROLL-08", account, null, null, ago(30 * DAY - MINUTE), null),
    device("ROLL-09", account, null, null, ago(30 * DAY + MINUTE), null),
    device("ROLL-10", account, null, null, null, null),
    device("ROLL-11", account, "site_roll_a", null, ago(2 * MINUTE), "rev_roll_1"),
    device("ROLL-12", account, "site_roll_b", null, ago(3 * MINUTE), "rev_foreign"),
    device("OTHER-1", other, null, null, ago(MINUTE), null),
    reach("ROLL-01", 0, "applied", "", ago(2 * DAY - 10 * MINUTE)),
    reach("ROLL-02", 0, "failed", "E1", ago(2 * DAY - 9 * MINUTE)),
    reach("ROLL-03", 1, "already_in_sync", "", ago(2 * DAY - 10 * MINUTE + 5000)),
    reach("ROLL-04", 1, "applied", "", ago(2 * DAY - 5 * MINUTE)),
    reach("ROLL-11", 1, "rejected", "E2", ago(2 * DAY - 4 * MINUTE)),
    reach("ROLL-12", 1, "failed", "E1", ago(2 * DAY - 4 * MINUTE)),
    reach("ROLL-05", 1, "delivered", "", ago(2 * DAY - 3 * MINUTE)),
    // 18:20 UTC is 23:50 on the 10th in Kolkata (UTC+5:30); 18:40 UTC is 00:10 on the 11th: one
    // UTC hour split between two local days, so those days need the commands counted one by one.
    command("cmd_roll_1", "ROLL-01", "ping", "succeeded", "2026-03-10T18:20:00.000Z", 30),
    command("cmd_roll_2", "ROLL-02", "ping", "failed", "2026-03-10T18:40:00.000Z", 90),
    command("cmd_roll_3", "ROLL-03", "reboot", "queued", "2026-03-10T12:00:00.000Z", null),
    command("cmd_roll_4", "ROLL-04", "locate", "expired", "2026-03-11T18:29:59.999Z", null),
    command("cmd_roll_5", "ROLL-05", "locate", "succeeded", "2026-03-11T18:30:00.000Z", 12),
    change("act_roll_1", "ana@roll.test", "create", "site", "2026-03-10T18:20:00.000Z"),
    change("act_roll_2", "ana@roll.test", "update", "site", "2026-03-10T18:40:00.000Z"),
    change("act_roll_3", "bo@roll.test", "delete", "profile", "2026-03-11T02:00:00.000Z"),
  ]);
});

/** The direct grouped queries the reports used before the roll-ups (migration 0016), as oracles. */
async function directLastSeen(at: Date) {
  const back = (days: number) => new Date(at.getTime() - days * DAY).toISOString();
  const { results } = await db
    .prepare(
      `SELECT site_id AS siteId, sum(last_seen_at >= ?2) AS day, sum(last_seen_at < ?2 AND last_seen_at >= ?3) AS week,
         sum(last_seen_at < ?3 AND last_seen_at >= ?4) AS month, sum(last_seen_at < ?4) AS older, sum(last_seen_at IS NULL) AS never
       FROM devices WHERE account_id = ?1 AND status = 'active' GROUP BY site_id`,
    )
    .bind(account, back(1), back(7), back(30))
    .all<Record<string, number | string | null>>();
  return results;
}

const siteName: Record<string, string> = { site_roll_a: "A", site_roll_b: "B" };

/** The report's rows as { site: { bucket: radios } }, and the oracle's the same way. */
function bySite(table: ReportTable, keys: readonly string[]) {
  return Object.fromEntries(table.rows.map((row) => [String(row.site), Object.fromEntries(keys.map((k) => [k, row[k]]))]));
}
function oracleBySite(rows: Record<string, number | string | null>[], keys: readonly string[]) {
  return Object.fromEntries(
    rows.map((row) => [
      String(row.siteId ? siteName[String(row.siteId)] : null),
      Object.fromEntries(keys.map((k) => [k, row[k] ?? 0])),
    ]),
  );
}

const lastSeenKeys = ["day", "week", "month", "older", "never"] as const;

async function expectTimedReportsMatch(at: Date) {
  expect(bySite(await lastSeenReport(db, account, at), lastSeenKeys)).toEqual(
    oracleBySite(await directLastSeen(at), lastSeenKeys),
  );
}

describe("roll-ups equal direct counts", () => {
  it("after inserts", async () => {
    await expectRollupsMatch();
    const { results } = await db
      .prepare("SELECT count(*) AS n FROM report_device_counts WHERE account_id = ?")
      .bind(account)
      .all();
    expect(results[0]?.n).toBeGreaterThan(0);
  });

  it("after updates of every grouped column", async () => {
    await db.batch([
      db.prepare("UPDATE devices SET site_id = 'site_roll_b', location_id = NULL WHERE uid = 'ROLL-01'"),
      db.prepare("UPDATE devices SET firmware = '2.5.0', model = 'TX-200' WHERE uid = 'ROLL-02'"),
      // A check-in the same day changes nothing; one on a new day moves the radio.
      db.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = 'ROLL-03'").bind(ago(15 * MINUTE + 30_000)),
      db.prepare("UPDATE devices SET last_seen_at = ?, reported_revision = 'rev_roll_2' WHERE uid = 'ROLL-09'").bind(ago(MINUTE)),
      db.prepare("UPDATE devices SET status = 'retired', retired_at = ? WHERE uid = 'ROLL-08'").bind(ago(0)),
      // A first check-in, and a last-seen time cleared (never seen again).
      db.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = 'ROLL-10'").bind(ago(20 * DAY)),
      db.prepare("UPDATE devices SET last_seen_at = NULL WHERE uid = 'OTHER-1'"),
      db.prepare("UPDATE devices SET account_id = ?, site_id = NULL, location_id = NULL WHERE uid = 'ROLL-07'").bind(other),
      db.prepare("UPDATE deployment_devices SET state = 'applied', updated_at = ? WHERE uid = 'ROLL-05'").bind(ago(DAY)),
      db.prepare("UPDATE deployment_devices SET state = 'failed', code = 'E3' WHERE uid = 'ROLL-04'"),
      db.prepare("UPDATE commands SET state = 'sent' WHERE id = 'cmd_roll_3'"),
      db
        .prepare("UPDATE commands SET state = 'succeeded', delivered_at = ? WHERE id = 'cmd_roll_3'")
        .bind("2026-03-10T12:00:41.500Z"),
      db.prepare("UPDATE activity_logs SET actor_email = 'cy@roll.test', action = 'update' WHERE id = 'act_roll_3'"),
    ]);
    await expectRollupsMatch();
  });

  it("after deletes", async () => {
    await db.batch([
      db.prepare("DELETE FROM deployment_devices WHERE uid = 'ROLL-03'"),
      db.prepare("DELETE FROM commands WHERE id = 'cmd_roll_5'"),
      db.prepare("DELETE FROM activity_logs WHERE id = 'act_roll_1'"),
      db.prepare("DELETE FROM devices WHERE uid = 'ROLL-10'"),
      device("ROLL-13", account, "site_roll_a", null, null, null),
      db.prepare("DELETE FROM devices WHERE uid = 'ROLL-13'"),
    ]);
    await expectRollupsMatch();
    const gone = await db
      .prepare(
        `SELECT (SELECT count(*) FROM report_command_counts WHERE grain = 'h' AND bucket = '2026-03-11T18' AND type = 'locate') AS commandHour,
           (SELECT ifnull(sum(never), 0) FROM report_device_places WHERE account_id = ?1) AS neverSeen`,
      )
      .bind(account)
      .first<{ commandHour: number; neverSeen: number }>();
    // cmd_roll_4 (18:29) is still there; the rows that fell to zero are gone.
    expect(gone).toEqual({ commandHour: 1, neverSeen: 0 });
  });
});

describe("reports that count the rows near a cutoff", () => {
  it("last seen equals the direct count now, and at instants that put each cutoff elsewhere", async () => {
    await expectTimedReportsMatch(now);
    // Shifts of minutes and hours move the day/week/month cutoffs across the radios seen near
    // them, within and across hours. (Compliance reads the sync and contact states directly:
    // fleet-sync.ts; fleet-truth.test.ts holds it equal to every other screen.)
    for (const shift of [-2 * HOUR, -MINUTE, MINUTE, 5 * MINUTE, 13 * MINUTE, 30 * MINUTE, 45 * MINUTE, HOUR, 13 * HOUR, 3 * DAY])
      await expectTimedReportsMatch(new Date(now.getTime() + shift));
  });

  it("commands and changes by day split an hour that a :30 zone cuts", async () => {
    const range = { from: "2026-03-10", to: "2026-03-12", timeZone: "Asia/Kolkata" };
    const days = Object.fromEntries((await commandsReport(db, account, range, "day")).rows.map((r) => [r.label, r]));
    // cmd_roll_3 (17:30 local, delivered after 41.5 s) and cmd_roll_1 (23:50 local, 30 s).
    expect(days["2026-03-10"]).toMatchObject({ succeeded: 2, failed: 0, total: 2, deliverSeconds: 36 });
    // 18:29:59.999 UTC on the 11th is 23:59:59.999 in Kolkata; cmd_roll_5 (midnight) was deleted.
    expect(days["2026-03-11"]).toMatchObject({ succeeded: 0, failed: 1, expired: 1, total: 2, deliverSeconds: 90 });
    expect(days["2026-03-12"]).toMatchObject({ total: 0, deliverSeconds: null });
    const types = Object.fromEntries((await commandsReport(db, account, range, "type")).rows.map((r) => [r.label, r.total]));
    expect(types).toEqual({ ping: 2, reboot: 1, locate: 1 });
    const byDay = (await activityReport(db, account, range, "day")).rows.map((r) => [r.label, r.total]);
    expect(byDay).toEqual([
      ["2026-03-10", 0],
      ["2026-03-11", 2],
      ["2026-03-12", 0],
    ]);
    const people = (await activityReport(db, account, range, "person")).rows.map((r) => [r.label, r.total]);
    expect(people).toEqual([
      ["ana@roll.test", 1],
      ["cy@roll.test", 1],
    ]);
  });

  it("deployments: counts, phases and reasons from the roll-ups; milestones from the minutes", async () => {
    const range = { from: ago(10 * DAY).slice(0, 10), to: ago(-DAY).slice(0, 10), timeZone: "UTC" };
    const [row] = (await deploymentsReport(db, account, range, "deployment")).rows;
    // ROLL-01 applied, ROLL-05 applied (a day later), ROLL-02/04/11/12 failed or rejected; ROLL-03's report was deleted.
    expect(row).toMatchObject({ targeted: 8, applied: 2, failed: 4, inProgress: 0, notReported: 2 });
    // 50 % of 8 = the 4th radio to have it: only 2 did, so no time; the reach of 2 of 8 is under 50 %.
    expect(row).toMatchObject({ reached50: null, reached90: null, reached100: null });
    const reasons = Object.fromEntries((await deploymentsReport(db, account, range, "reason")).rows.map((r) => [r.code, r]));
    expect(reasons.E1).toMatchObject({ failed: 2, rejected: 0 });
    expect(reasons.E2).toMatchObject({ failed: 0, rejected: 1 });
    expect(reasons.E3).toMatchObject({ failed: 1 });
    await db.prepare("UPDATE deployments SET targeted = 2 WHERE id = 'dep_roll_1'").run();
    // Stepping over the radios (few), and through the minutes (as for many radios): the same times.
    for (const directUpTo of [DIRECT_MILESTONES_UP_TO, 0]) {
      const [two] = (await deploymentsReport(db, account, range, "deployment", directUpTo)).rows;
      // 50 % of 2 = the first radio (ROLL-01, 10 minutes after the start); 100 % = ROLL-05, a day later.
      expect(two).toMatchObject({ reached50: 600, reached90: 86_400, reached100: 86_400 });
    }
    await db.prepare("UPDATE deployments SET targeted = 3 WHERE id = 'dep_roll_1'").run();
    for (const directUpTo of [DIRECT_MILESTONES_UP_TO, 0]) {
      const [three] = (await deploymentsReport(db, account, range, "deployment", directUpTo)).rows;
      // 50 % of 3 = the 2nd radio; 90 % and 100 % = the 3rd, which never came.
      expect(three).toMatchObject({ reached50: 86_400, reached90: null, reached100: null });
    }
  });
});

describe("deployment milestones through running totals by second", () => {
  it("find the same k-th radio as stepping over them, with many radios in one minute and in one second", async () => {
    const started = Date.parse(ago(DAY).slice(0, 16)) + MINUTE; // a whole minute
    const uids = ["ROLL-01", "ROLL-02", "ROLL-03", "ROLL-04", "ROLL-05", "ROLL-06", "ROLL-09", "ROLL-11", "ROLL-12"];
    // Two in one second, three more in the same minute, the rest in the next minute; one failed.
    const offsets = [1_200, 1_700, 5_000, 30_250, 59_999, 60_000, 61_500, 61_501, 119_000];
    await db.batch([
      db
        .prepare(
          `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at)
           VALUES ('dep_roll_2', ?, ?, 2, 'rev_roll_2', 'finished', '{"phases":[]}', '{"mode":"delivery"}', 9, 'test', ?, ?)`,
        )
        .bind(account, org, new Date(started).toISOString(), new Date(started).toISOString()),
      ...uids.map((uid, i) =>
        db
          .prepare(
            "INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at) VALUES ('dep_roll_2', ?, 0, ?, '', ?)",
          )
          .bind(
            uid,
            i === 6 ? "failed" : i % 2 ? "already_in_sync" : "applied",
            new Date(started + (offsets[i] ?? 0)).toISOString(),
          ),
      ),
    ]);
    await expectRollupsMatch();
    const range = { from: ago(10 * DAY).slice(0, 10), to: ago(-DAY).slice(0, 10), timeZone: "UTC" };
    for (let targeted = 1; targeted <= 10; targeted++) {
      await db.prepare("UPDATE deployments SET targeted = ? WHERE id = 'dep_roll_2'").bind(targeted).run();
      const milestonesOf = async (directUpTo: number) => {
        const row = (await deploymentsReport(db, account, range, "deployment", directUpTo)).rows.find(
          (r) => r.deployment === "#2",
        );
        return [row?.reached50, row?.reached90, row?.reached100];
      };
      const stepped = await milestonesOf(DIRECT_MILESTONES_UP_TO);
      expect(await milestonesOf(0), `targeted ${targeted}`).toEqual(stepped);
      // 8 radios had it: of 8, the 4th at 30.25 s, the 8th (90 % and 100 %) at 119 s; of 10, the
      // 5th at 59.999 s, and a 9th or 10th never came.
      if (targeted === 8) expect(stepped).toEqual([30, 119, 119]);
      if (targeted === 10) expect(stepped).toEqual([60, null, null]);
    }
  });
});

describe("commands and changes over time equal a direct count in any zone", () => {
  it("by type, person, kind and day, over whole days, whole hours and the bits of an hour", async () => {
    const types = ["ping", "locate", "reboot", "sync"];
    const states = ["succeeded", "failed", "expired", "queued"];
    const base = Date.parse("2026-04-01T00:00:00.000Z");
    const statements: ReturnType<typeof command>[] = [];
    for (let i = 0; i < 240; i++) {
      // Spread over ten days at minutes that fall on every side of whole and half hours.
      const created = new Date(base + ((i * 7919) % (10 * 1440)) * MINUTE + (i % 3) * 15 * MINUTE).toISOString();
      const state = states[i % states.length] as string;
      statements.push(
        command(
          `cmd_zone_${i}`,
          `ROLL-0${(i % 6) + 1}`,
          types[i % types.length] as string,
          state,
          created,
          state === "succeeded" ? 5 + (i % 50) : null,
        ),
        change(
          `act_zone_${i}`,
          `p${i % 5}@roll.test`,
          ["create", "update", "delete"][i % 3] as string,
          ["site", "rule"][i % 2] as string,
          created,
        ),
      );
    }
    await db.batch(statements);
    await expectRollupsMatch();
    const { results: commands } = await db
      .prepare("SELECT type, state, created_at AS at, delivered_at AS delivered FROM commands WHERE account_id = ?")
      .bind(account)
      .all<{ type: string; state: string; at: string; delivered: string | null }>();
    const { results: changes } = await db
      .prepare("SELECT actor_email AS actor, entity_type AS kind, created_at AS at FROM activity_logs WHERE account_id = ?")
      .bind(account)
      .all<{ actor: string; kind: string; at: string }>();
    const count = <T extends { at: string }>(rows: T[], start: string, end: string, label: (row: T) => string) => {
      const out: Record<string, number> = {};
      for (const row of rows) if (row.at >= start && row.at < end) out[label(row)] = (out[label(row)] ?? 0) + 1;
      return out;
    };
    const totals = (table: ReportTable) =>
      Object.fromEntries(table.rows.filter((row) => Number(row.total) > 0).map((row) => [String(row.label), Number(row.total)]));
    for (const timeZone of ["UTC", "America/Chicago", "Asia/Kolkata", "Asia/Kathmandu"]) {
      const range = { from: "2026-04-02", to: "2026-04-08", timeZone };
      const { start, end } = instantsOf(range);
      expect(totals(await commandsReport(db, account, range, "type")), timeZone).toEqual(
        count(commands, start, end, (c) => c.type),
      );
      expect(totals(await activityReport(db, account, range, "person")), timeZone).toEqual(
        count(changes, start, end, (c) => c.actor),
      );
      expect(totals(await activityReport(db, account, range, "kind")), timeZone).toEqual(
        count(changes, start, end, (c) => c.kind),
      );
      const perDay = (rows: { at: string }[]) =>
        Object.fromEntries(
          daysOf(range)
            .map(({ day, start: from, end: to }) => [day, Object.values(count(rows, from, to, () => "n"))[0] ?? 0] as const)
            .filter(([, n]) => n > 0),
        );
      expect(totals(await commandsReport(db, account, range, "day")), timeZone).toEqual(perDay(commands));
      expect(totals(await activityReport(db, account, range, "day")), timeZone).toEqual(perDay(changes));
      // The mean time to deliver, per type, against the rows.
      const delivered = commands.filter((c) => c.delivered && c.at >= start && c.at < end);
      for (const row of (await commandsReport(db, account, range, "type")).rows) {
        const mine = delivered.filter((c) => c.type === row.label);
        const mean = mine.length
          ? Math.round(mine.reduce((sum, c) => sum + (Date.parse(c.delivered ?? "") - Date.parse(c.at)) / 1000, 0) / mine.length)
          : null;
        expect(row.deliverSeconds, `${timeZone} ${row.label}`).toBe(mean);
      }
    }
  });
});
