import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { R2Bucket } from "@/server/cloudflare";
import { syncCounts } from "@/server/data/fleet-sync";
import { readNdjson } from "@/server/retention/archive-object";
import { sweepRetention } from "@/server/retention/retention-sweep";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// Storage that never fills (issue 24): rows older than the account's retention move by the
// scheduled trigger to R2 as gzip NDJSON and leave D1 only once the object was read back and
// indexed; report totals, deployment counts and what radios are told stay as they were.

const NOW = new Date();
const monthsAgo = (months: number, day = 10) => {
  const at = new Date(Date.UTC(NOW.getUTCFullYear(), NOW.getUTCMonth() - months, day, 12, 0, 0));
  return at.toISOString();
};
const OLD = monthsAgo(24);
const OLDER_MONTH = monthsAgo(25);
const OLD_DEPLOYMENT_2 = monthsAgo(20);
const RECENT = monthsAgo(1);

const plusSeconds = (at: string, seconds: number) => new Date(Date.parse(at) + seconds * 1000).toISOString();

const plan = JSON.stringify({
  phases: [
    {
      share: 100,
      successPercent: 100,
      successAction: "next",
      errorKind: "count",
      errorValue: 1,
      errorMinimum: 0,
      waitMinutes: 0,
    },
  ],
});
const revisionContent = JSON.stringify({ network: { account: {}, sites: {}, locations: {} }, profiles: {}, rules: [] });

type Fleet = { orgId: string; accountId: string; cookie: string; radios: string[]; deployments: [string, string] };

/** An account with 4 radios, two finished deployments 24 and 20 months old, old and new activity and commands. */
async function makeFleet(label: string): Promise<Fleet> {
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, `${label} fleet`, "advanced");
  await giveSeats(owner.orgId, accountId, 10);
  const radios = await registerRadios(owner.orgId, accountId, label, 4);
  const deployments: [string, string] = [`dep_${label}_1`, `dep_${label}_2`];
  const revisions = [`rev_${label}_1`, `rev_${label}_2`];
  const db = env.DB;
  const statements = [
    ...revisions.map((id, i) =>
      db
        .prepare("INSERT INTO revisions (id, account_id, number, content_hash, content, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(id, accountId, i + 1, `hash-${i}`, revisionContent, i === 0 ? OLD : OLD_DEPLOYMENT_2),
    ),
    ...deployments.map((id, i) =>
      db
        .prepare(
          `INSERT INTO deployments (id, account_id, org_id, number, revision_id, previous_revision_id, state, plan, switchover, targeted,
             created_by, created_at, started_at, ended_at, updated_at)
           VALUES (?1, ?2, ?3, ?4, ?5, NULL, 'finished', ?6, '{"mode":"delivery"}', 4, 'test', ?7, ?7, ?7, ?7)`,
        )
        .bind(id, accountId, owner.orgId, i + 1, revisions[i] ?? "", plan, i === 0 ? OLD : OLD_DEPLOYMENT_2),
    ),
    // Three radios applied each deployment, a second apart; the fourth failed it.
    ...deployments.flatMap((id, i) =>
      radios.map((uid, r) =>
        db
          .prepare(
            "INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at) VALUES (?, ?, 0, ?, ?, ?)",
          )
          .bind(id, uid, r === 3 ? "failed" : "applied", r === 3 ? "E42" : "", plusSeconds(i === 0 ? OLD : OLD_DEPLOYMENT_2, r)),
      ),
    ),
  ];
  const activity = (id: string, at: string, pending = false) =>
    db
      .prepare(
        `INSERT INTO activity_logs (id, org_id, account_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
         VALUES (?, ?, ?, 'ana@example.com', 'update', 'site', 'site_1', 'Harbour', '{"name":{"before":"A","after":"B"}}', ?, ?)`,
      )
      .bind(`${label}_act_${id}`, owner.orgId, accountId, pending ? 1 : 0, at);
  statements.push(
    activity("old1", OLD),
    activity("old2", OLD),
    activity("old3", OLDER_MONTH),
    activity("oldPending", OLD, true),
    activity("new1", RECENT),
    activity("new2", RECENT),
  );
  const command = (id: string, state: string, at: string, expires: string) =>
    db
      .prepare(
        `INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, ended_at)
         VALUES (?, ?, ?, ?, 'ping', ?, 'usr', 'ana@example.com', ?, ?, ?)`,
      )
      .bind(`${label}_cmd_${id}`, radios[0] ?? "", owner.orgId, accountId, state, at, expires, state === "queued" ? null : at);
  const later = (at: string) => new Date(Date.parse(at) + 3_600_000).toISOString();
  statements.push(
    command("old1", "succeeded", OLD, later(OLD)),
    command("old2", "failed", OLD, later(OLD)),
    command("old3", "expired", OLD, later(OLD)),
    command("oldQueued", "queued", OLD, monthsAgo(-1)),
    command("new1", "succeeded", RECENT, later(RECENT)),
  );
  await db.batch(statements);
  return { orgId: owner.orgId, accountId, cookie: await sessionCookie(owner.email), radios, deployments };
}

/** Every roll-up a report or banner reads for the account, as one comparable text. */
async function rollups(fleet: Fleet): Promise<string> {
  const read = async (sql: string, ...params: string[]) =>
    JSON.stringify(
      (
        await env.DB.prepare(sql)
          .bind(...params)
          .all()
      ).results,
    );
  const [a, b] = fleet.deployments;
  return [
    await read("SELECT * FROM report_command_counts WHERE account_id = ? ORDER BY grain, bucket, type", fleet.accountId),
    await read("SELECT * FROM report_activity_kinds WHERE account_id = ? ORDER BY grain, bucket, entity_type", fleet.accountId),
    await read("SELECT * FROM report_activity_persons WHERE account_id = ? ORDER BY actor_email", fleet.accountId),
    await read("SELECT * FROM report_activity_people_upto WHERE account_id = ? ORDER BY actor_email, hour", fleet.accountId),
    await read("SELECT * FROM pending_change_counts WHERE account_id = ?", fleet.accountId),
    await read("SELECT * FROM report_deployment_counts WHERE deployment_id IN (?, ?) ORDER BY 1, 2, 3, 4", a, b),
    await read("SELECT * FROM report_deployment_reach_upto WHERE deployment_id = ? ORDER BY 1, 2", b),
    await read("SELECT * FROM fleet_versions WHERE account_id = ?", fleet.accountId),
  ].join("\n");
}

async function ids(table: "activity_logs" | "commands", accountId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(`SELECT id FROM ${table} WHERE account_id = ? ORDER BY id`)
    .bind(accountId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

async function outcomeCount(deploymentId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT count(*) AS n FROM deployment_devices WHERE deployment_id = ?")
    .bind(deploymentId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

type ArchiveEntry = { id: string; kind: string; month: string; rows: number; r2Key: string; deploymentId: string | null };

async function archivesOf(fleet: Fleet): Promise<ArchiveEntry[]> {
  const activity = data(await call<ArchiveEntry[]>("archives.activity", { accountId: fleet.accountId }, fleet.cookie, "GET"));
  const reports = data(await call<ArchiveEntry[]>("archives.reports", { accountId: fleet.accountId }, fleet.cookie, "GET"));
  return [...activity, ...reports];
}

/** What a radio is told (its desired revision and deployment), without the parts that move with time. */
async function toldTo(uid: string): Promise<unknown> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  const body = (await response.json()) as { desiredRevision: unknown; deployment: unknown };
  return { desiredRevision: body.desiredRevision, deployment: body.deployment };
}

/** A bucket that fails: every write throws (the binding is down). */
const failingBucket = {
  put: async () => {
    throw new Error("R2 is unavailable");
  },
  get: async () => null,
} as unknown as R2Bucket;

/** A bucket that stores something other than what it was given (a corrupt write): the read-back check refuses it. */
function corruptingBucket(real: R2Bucket): R2Bucket {
  return {
    put: (key: string) => real.put(key, new Uint8Array([31, 139, 8, 0, 0, 0, 0, 0, 0, 3, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0])),
    get: (key: string) => real.get(key),
  } as unknown as R2Bucket;
}

let fleet: Fleet;
let other: Fleet;
const bucket = () => env.ARCHIVE as R2Bucket;

beforeAll(async () => {
  fleet = await makeFleet("RET");
  other = await makeFleet("OTH");
});

describe("retention sweep", () => {
  it("deletes nothing when R2 fails or holds other bytes than were written", async () => {
    const before = [
      await ids("activity_logs", fleet.accountId),
      await ids("commands", fleet.accountId),
      await outcomeCount(fleet.deployments[0]),
    ];
    const failed = await sweepRetention(env.DB, failingBucket, NOW);
    expect(failed.archives).toBe(0);
    expect(failed.failures).toBeGreaterThan(0);
    const corrupt = await sweepRetention(env.DB, corruptingBucket(bucket()), NOW);
    expect(corrupt.archives).toBe(0);
    expect([
      await ids("activity_logs", fleet.accountId),
      await ids("commands", fleet.accountId),
      await outcomeCount(fleet.deployments[0]),
    ]).toEqual(before);
    expect(await archivesOf(fleet)).toEqual([]);
  });

  it("moves rows older than the retention to R2, keeps the rest, and changes no total, count or radio's answer", async () => {
    const [first, second] = fleet.deployments;
    // Radios check in first: a check-in writes their contact, which the snapshots below include.
    const toldBefore = await Promise.all(fleet.radios.map(toldTo));
    const totalsBefore = await rollups(fleet);
    const countsBefore = data(await call<{ counts: unknown }>("deployments.get", { id: first }, fleet.cookie, "GET")).counts;
    const syncBefore = await syncCounts(env.DB, fleet.accountId);
    // The deployments report over the first deployment's month: outcomes and times to 50/90/100 %.
    const reportInput = {
      accountId: fleet.accountId,
      report: "deployments",
      from: OLD.slice(0, 8) + "01",
      to: OLD.slice(0, 8) + "28",
    };
    const reportBefore = data(await call<{ table: unknown }>("reports.get", reportInput, fleet.cookie, "GET")).table;
    const activityBefore = (
      await env.DB.prepare("SELECT * FROM activity_logs WHERE account_id = ? AND created_at < ?")
        .bind(fleet.accountId, monthsAgo(13))
        .all()
    ).results;
    const outcomesBefore = (
      await env.DB.prepare("SELECT * FROM deployment_devices WHERE deployment_id = ? ORDER BY uid").bind(first).all()
    ).results;

    // Runs until nothing is left (each run moves at most one chunk per kind and account).
    for (let run = 0; run < 6; run += 1) await sweepRetention(env.DB, bucket(), new Date(NOW.getTime() + run * 2 * 3_600_000));

    // Old, final rows left D1; recent ones, a pending change and a queued command stayed.
    expect(await ids("activity_logs", fleet.accountId)).toEqual(["RET_act_new1", "RET_act_new2", "RET_act_oldPending"]);
    expect(await ids("commands", fleet.accountId)).toEqual(["RET_cmd_new1", "RET_cmd_oldQueued"]);
    // Deployment 1's outcomes moved; deployment 2 is the newest that covers every radio: its stay.
    expect(await outcomeCount(first)).toBe(0);
    expect(await outcomeCount(second)).toBe(4);

    // Each archive is readable and holds exactly the rows that were removed.
    const archives = await archivesOf(fleet);
    expect(archives.map((a) => `${a.kind} ${a.month} ${a.rows}`).sort()).toEqual(
      [
        `activity ${OLD.slice(0, 7)} 2`,
        `activity ${OLDER_MONTH.slice(0, 7)} 1`,
        `commands ${OLD.slice(0, 7)} 3`,
        `deployment-outcomes ${OLD.slice(0, 7)} 4`,
      ].sort(),
    );
    const rowsOf = async (kind: string) => {
      const rows = [];
      for (const archive of archives.filter((a) => a.kind === kind)) {
        const object = await bucket().get(archive.r2Key);
        rows.push(...(await readNdjson(await (object as { arrayBuffer(): Promise<ArrayBuffer> }).arrayBuffer())));
      }
      return rows;
    };
    const byId = (a: Record<string, unknown>, b: Record<string, unknown>) => String(a.id).localeCompare(String(b.id));
    expect((await rowsOf("activity")).sort(byId)).toEqual(activityBefore.filter((row) => row.deployable === 0).sort(byId));
    expect((await rowsOf("commands")).map((row) => row.id).sort()).toEqual(["RET_cmd_old1", "RET_cmd_old2", "RET_cmd_old3"]);
    expect(await rowsOf("deployment-outcomes")).toEqual(outcomesBefore);

    // Nothing a user sees moved: report roll-ups, the deployment page's counts, sync state, what radios are told.
    expect(await rollups(fleet)).toBe(totalsBefore);
    expect(data(await call<{ counts: unknown }>("deployments.get", { id: first }, fleet.cookie, "GET")).counts).toEqual(
      countsBefore,
    );
    expect(await syncCounts(env.DB, fleet.accountId)).toEqual(syncBefore);
    // The archived deployment's running totals by second keep only the rows the report's milestones read.
    const reach = await env.DB.prepare("SELECT second, radios FROM report_deployment_reach_upto WHERE deployment_id = ?")
      .bind(first)
      .all();
    expect(reach.results).toEqual([{ second: plusSeconds(OLD, 1).slice(0, 19), radios: 2 }]);
    const reportAfter = data(await call<{ table: unknown }>("reports.get", reportInput, fleet.cookie, "GET")).table;
    expect(reportAfter).toEqual(reportBefore);
    expect(JSON.stringify(reportAfter)).toContain('"applied":3');
    expect(JSON.stringify(reportAfter)).toContain('"reached50":1');
    expect(await Promise.all(fleet.radios.map(toldTo))).toEqual(toldBefore);
  });

  it("is idempotent: a re-run moves nothing more, and a crash between write and delete loses or duplicates nothing", async () => {
    const archivesBefore = await archivesOf(fleet);
    const again = await sweepRetention(env.DB, bucket(), new Date(NOW.getTime() + 24 * 3_600_000));
    expect(again.archives).toBe(0);
    expect(await archivesOf(fleet)).toEqual(archivesBefore);

    // A crash after the object was written but before D1 deleted anything: the write happens, the
    // read-back dies. The rows stay; the next run writes the same key again and indexes it once.
    await env.DB.prepare(
      `INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, ended_at)
       VALUES ('RET_cmd_late', ?1, ?2, ?3, 'ping', 'cancelled', 'usr', 'ana@example.com', ?4, ?5, ?4)`,
    )
      .bind(fleet.radios[0] ?? "", fleet.orgId, fleet.accountId, OLDER_MONTH, monthsAgo(-1))
      .run();
    await env.DB.prepare("UPDATE accounts SET retention_checked_at = '' WHERE id = ?").bind(fleet.accountId).run();
    const crashing = {
      put: (key: string, body: Uint8Array, options: unknown) => bucket().put(key, body, options as never),
      get: async () => {
        throw new Error("the Worker was stopped");
      },
    } as unknown as R2Bucket;
    const crashed = await sweepRetention(env.DB, crashing, NOW);
    expect(crashed.archives).toBe(0);
    expect(await ids("commands", fleet.accountId)).toContain("RET_cmd_late");
    const listed = await bucket().list({ prefix: `archive/${fleet.orgId}/${fleet.accountId}/commands/` });
    const keysAfterCrash = listed.objects.map((o) => o.key);

    await sweepRetention(env.DB, bucket(), NOW);
    expect(await ids("commands", fleet.accountId)).not.toContain("RET_cmd_late");
    const relisted = (await bucket().list({ prefix: `archive/${fleet.orgId}/${fleet.accountId}/commands/` })).objects.map(
      (o) => o.key,
    );
    // The same key again, not a second object.
    expect(relisted).toEqual(keysAfterCrash);
    const late = (await archivesOf(fleet)).filter((a) => a.kind === "commands" && a.month === OLDER_MONTH.slice(0, 7));
    expect(late.map((a) => a.rows)).toEqual([1]);
  });
});

describe("archive downloads", () => {
  it("serves an archive as gzip NDJSON to the account's users, and 404 to another tenant", async () => {
    const [archive] = (await archivesOf(fleet)).filter((a) => a.kind === "commands");
    if (!archive) throw new Error("no commands archive");
    const path = `/accounts/${fleet.accountId}/archives/${archive.id}`;
    const response = await request(path, { headers: { Cookie: fleet.cookie } });
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toBe("application/gzip");
    expect(response.headers.get("Content-Disposition")).toMatch(/attachment; filename="commands-\d{4}-\d{2}-ar_\w+\.ndjson\.gz"/);
    const rows = await readNdjson(await response.arrayBuffer());
    expect(rows.length).toBe(archive.rows);

    // Another organization's owner: the same archive under either account is not found.
    expect((await request(path, { headers: { Cookie: other.cookie } })).status).toBe(404);
    expect(
      (await request(`/accounts/${other.accountId}/archives/${archive.id}`, { headers: { Cookie: other.cookie } })).status,
    ).toBe(404);
    expect(
      (await call("archives.get", { accountId: fleet.accountId, id: archive.id }, other.cookie, "GET")).error?.data.code,
    ).toBe("NOT_FOUND");
  });

  it("lists archived periods with a download link on the activity log and the reports page", async () => {
    const log = await (await request(`/accounts/${fleet.accountId}/activity-logs`, { headers: { Cookie: fleet.cookie } })).text();
    const reports = await (await request(`/accounts/${fleet.accountId}/reports`, { headers: { Cookie: fleet.cookie } })).text();
    const archives = await archivesOf(fleet);
    for (const archive of archives) {
      const page = archive.kind === "activity" ? log : reports;
      expect(page).toContain(`href="/accounts/${fleet.accountId}/archives/${archive.id}"`);
    }
    expect(log).toContain("Archived periods");
    // A viewer without reports (a case agent) sees the reports page without the archive list.
    const agent = await createUser({ role: "case-agent", orgId: fleet.orgId });
    const agentReports = await request(`/accounts/${fleet.accountId}/reports`, {
      headers: { Cookie: await sessionCookie(agent.email) },
    });
    expect(await agentReports.text()).not.toContain("/archives/");
  });

  it("links a deployment's archived outcomes on its page, where its radios' list is now empty", async () => {
    const [first] = fleet.deployments;
    const [archive] = (await archivesOf(fleet)).filter((a) => a.kind === "deployment-outcomes" && a.deploymentId === first);
    if (!archive) throw new Error("no outcomes archive of the first deployment");
    const page = await (
      await request(`/accounts/${fleet.accountId}/deployments/${first}?state=applied`, { headers: { Cookie: fleet.cookie } })
    ).text();
    expect(page).toContain(`href="/accounts/${fleet.accountId}/archives/${archive.id}"`);
    expect(page).toContain("moved to the archive");
    // The second deployment's outcomes are in another object: not linked from the first's page.
    const others = (await archivesOf(fleet)).filter((a) => a.kind === "deployment-outcomes" && a.deploymentId !== first);
    for (const other of others) expect(page).not.toContain(other.id);
  });
});

describe("retention setting", () => {
  const general = () => `/accounts/edit/${fleet.accountId}/general`;
  const version = async () =>
    (await env.DB.prepare("SELECT version FROM accounts WHERE id = ?").bind(fleet.accountId).first<{ version: number }>())
      ?.version ?? 0;

  it("defaults to 13 months, saves a new value with an activity entry, and refuses bad input with a translated 400", async () => {
    const row = await env.DB.prepare("SELECT retention_months FROM accounts WHERE id = ?")
      .bind(other.accountId)
      .first<{ retention_months: number }>();
    expect(row?.retention_months).toBe(13);

    const page = await (await request(general(), { headers: { Cookie: fleet.cookie } })).text();
    expect(page).toContain('name="months"');
    expect(page).toContain('value="13"');

    for (const months of ["0", "121", "1.5", "abc", ""]) {
      const refused = await postForm(
        general(),
        { intent: "retention", version: String(await version()), months },
        { Cookie: fleet.cookie },
      );
      expect(refused.status).toBe(400);
      expect(await refused.text()).toContain("Enter a whole number of months from 1 to 120.");
    }
    const refusedInFrench = await postForm(
      general(),
      { intent: "retention", version: String(await version()), months: "500" },
      { Cookie: fleet.cookie, "Accept-Language": "fr-CA" },
    );
    expect(refusedInFrench.status).toBe(400);
    expect(await refusedInFrench.text()).toContain("Entrez un nombre entier de mois entre 1 et 120.");

    const saved = await postForm(
      general(),
      { intent: "retention", version: String(await version()), months: "24" },
      { Cookie: fleet.cookie },
    );
    expect(saved.status).toBe(303);
    const after = await env.DB.prepare("SELECT retention_months FROM accounts WHERE id = ?")
      .bind(fleet.accountId)
      .first<{ retention_months: number }>();
    expect(after?.retention_months).toBe(24);
    const entry = await env.DB.prepare(
      "SELECT diff FROM activity_logs WHERE account_id = ? AND entity_type = 'account' ORDER BY created_at DESC LIMIT 1",
    )
      .bind(fleet.accountId)
      .first<{ diff: string }>();
    expect(JSON.parse(entry?.diff ?? "{}")).toEqual({ retentionMonths: { before: 13, after: 24 } });
  });

  it("is refused to a role that may not edit the account's settings, and to another tenant", async () => {
    const viewer = await createUser({ role: "viewer", orgId: fleet.orgId });
    const viewerCookie = await sessionCookie(viewer.email);
    const refused = await call(
      "accounts.setRetention",
      { id: fleet.accountId, version: await version(), months: 6 },
      viewerCookie,
      "POST",
    );
    expect(refused.error?.data.code).toBe("FORBIDDEN");
    const foreign = await call(
      "accounts.setRetention",
      { id: fleet.accountId, version: await version(), months: 6 },
      other.cookie,
      "POST",
    );
    expect(foreign.error?.data.code).toBe("NOT_FOUND");
  });
});

describe("deleting an account", () => {
  const keysUnder = async (prefix: string) => (await bucket().list({ prefix })).objects.map((o) => o.key);

  it("deletes its archive objects from R2 and leaves every other account's", async () => {
    const doomed = await makeFleet("DEL");
    for (let pass = 0; pass < 5 && (await archivesOf(doomed)).length === 0; pass++) await sweepRetention(env.DB, bucket(), NOW);
    const doomedPrefix = `archive/${doomed.orgId}/${doomed.accountId}/`;
    expect((await keysUnder(doomedPrefix)).length).toBeGreaterThan(0);
    const othersBefore = await keysUnder(`archive/${other.orgId}/${other.accountId}/`);
    expect(othersBefore.length).toBeGreaterThan(0);

    const row = await env.DB.prepare("SELECT version FROM accounts WHERE id = ?")
      .bind(doomed.accountId)
      .first<{ version: number }>();
    data(
      await call(
        "accounts.delete",
        { id: doomed.accountId, version: row?.version, confirmName: "DEL fleet" },
        doomed.cookie,
        "POST",
      ),
    );
    expect(await keysUnder(doomedPrefix)).toEqual([]);
    expect(await keysUnder(`archive/${other.orgId}/${other.accountId}/`)).toEqual(othersBefore);
  });
});

describe("the archive guard", () => {
  it("is kept by every delete trigger of the tables the sweep deletes from", async () => {
    // A trigger redefined later without the guard would move report totals, pending-change
    // counts or fleet versions when the sweep deletes archived rows.
    const { results } = await env.DB.prepare(
      `SELECT name, sql FROM sqlite_master WHERE type = 'trigger'
         AND tbl_name IN ('activity_logs', 'commands', 'deployment_devices') AND sql LIKE '%AFTER DELETE ON%'`,
    ).all<{ name: string; sql: string }>();
    expect(results.length).toBeGreaterThanOrEqual(7);
    const unguarded = results.filter((t) => !t.sql.includes("archive_deleting")).map((t) => t.name);
    expect(unguarded).toEqual([]);
  });
});
