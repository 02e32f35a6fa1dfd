import { env } from "cloudflare:test";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import type { Permission } from "@/schema/permissions";
import type { ReportTable } from "@/schema/reports";
import { createCaller } from "@/server/api/router";
import { permissionsOf, type Role } from "@/server/auth/roles";
import type { SessionUser } from "@/server/auth/sessions";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// Reports (issue 14): figures checked against data this file creates, the gating by level and
// flag, tenancy, hostile ranges, and the CSV holding exactly the numbers of the page.

let org: string;
let advanced: string;
let essential: string;
let otherAccount: string;
let ownerCookie: string;
const MINUTE = 60_000;
const DAY = 86_400_000;
const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

function caller(role: Role | Partial<Record<Permission, boolean>>, orgId = org) {
  const user: SessionUser = {
    id: "usr_reports",
    sessionId: "ses_reports",
    email: "reports@reports.test",
    name: "reports",
    orgId,
    role: typeof role === "string" ? role : "viewer",
    language: "en",
    permissions: typeof role === "string" ? permissionsOf(role) : (role as SessionUser["permissions"]),
  };
  return createCaller({
    env,
    db: env.DB,
    user,
    language: "en",
    origin: ORIGIN,
    t: translatorFor("en", defaultSettings.brandNamespace),
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

/** The table's rows keyed by their category value. */
function byCategory(table: ReportTable) {
  return Object.fromEntries(table.rows.map((row) => [String(row[table.category]), row]));
}

beforeAll(async () => {
  org = await createOrganization("Reports customer");
  advanced = await createAccount(org, "Reports advanced", "advanced");
  essential = await createAccount(org, "Reports essential", "essential");
  otherAccount = await createAccount(await createOrganization("Reports stranger"), "Stranger", "advanced");
  const owner = await createUser({ orgId: org, role: "owner" });
  ownerCookie = await sessionCookie(owner.email);
  const db = env.DB;
  const started = "2026-03-05T10:00:00.000Z";
  const at = (seconds: number) => new Date(Date.parse(started) + seconds * 1000).toISOString();
  const device = (
    uid: string,
    model: string,
    firmware: string,
    site: string | null,
    seen: string | null,
    revision: string | null,
  ) =>
    db
      .prepare(
        `INSERT INTO devices (uid, org_id, account_id, site_id, brand, model, firmware, last_seen_at, reported_revision, secret_hash)
         VALUES (?, ?, ?, ?, 'Northwind', ?, ?, ?, ?, 'x')`,
      )
      .bind(uid, org, advanced, site, model, firmware, seen, revision);
  await db.batch([
    db.prepare("UPDATE accounts SET timezone = 'America/Mexico_City' WHERE id = ?").bind(advanced),
    db
      .prepare(
        "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at, reference) VALUES ('sub_rep', ?, 'Fleet plan', 20, '2026-01-01', 'PO-7')",
      )
      .bind(org),
    db
      .prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_rep', 'sub_rep', ?, 10)")
      .bind(advanced),
    db
      .prepare(
        "INSERT INTO sites (id, account_id, name) VALUES ('site_rep_a', ?, 'Alpha depot'), ('site_rep_b', ?, 'Bravo yard')",
      )
      .bind(advanced, advanced),
    db
      .prepare("INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES ('rev_rep_1', ?, 1, 'h', '{}')")
      .bind(advanced),
    db
      .prepare(
        `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at)
         VALUES ('dep_rep_1', ?, ?, 1, 'rev_rep_1', 'running', '{"phases":[{"share":100}]}', '{"mode":"delivery"}', 4, 'test', ?, ?)`,
      )
      .bind(advanced, org, started, started),
    device("REP-1", "XR-7", "2.1.0", "site_rep_a", ago(MINUTE), "rev_rep_1"),
    device("REP-2", "XR-7", "2.1.0", "site_rep_a", ago(MINUTE), null),
    device("REP-3", "XR-7", "1.8.2", "site_rep_b", ago(MINUTE), null),
    device("REP-4", "XR-9", "2.0.10", "site_rep_b", ago(MINUTE), "rev_elsewhere"),
    device("REP-5", "XR-9", "", null, ago(10 * DAY), null),
    device("REP-6", "XR-9", "", null, null, null),
    db
      .prepare(
        `INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at) VALUES
         ('dep_rep_1', 'REP-1', 0, 'applied', '', ?), ('dep_rep_1', 'REP-2', 0, 'already_in_sync', '', ?),
         ('dep_rep_1', 'REP-3', 0, 'failed', 'E42', ?), ('dep_rep_1', 'REP-4', 0, 'delivered', '', ?)`,
      )
      .bind(at(60), at(120), at(30), at(10)),
    ...[
      ["cmd_r1", "REP-1", "ping", "succeeded", "2026-03-10T12:00:00.000Z", 30],
      ["cmd_r2", "REP-2", "ping", "failed", "2026-03-10T13:00:00.000Z", 90],
      // 21:00 on March 10 in Mexico City (UTC−6): that day, not the next.
      ["cmd_r3", "REP-3", "reboot", "expired", "2026-03-11T03:00:00.000Z", null],
      ["cmd_r4", "REP-4", "message", "queued", "2026-03-11T12:00:00.000Z", null],
      ["cmd_r5", "REP-1", "ping", "succeeded", "2026-02-01T12:00:00.000Z", 5],
    ].map(([id, uid, type, state, created, deliver]) =>
      db
        .prepare(
          `INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, delivered_at)
           VALUES (?, ?, ?, ?, ?, ?, 'usr', 'a@b.test', ?, ?, ?)`,
        )
        .bind(
          id,
          uid,
          org,
          advanced,
          type,
          state,
          created,
          new Date(Date.parse(String(created)) + DAY).toISOString(),
          deliver === null ? null : new Date(Date.parse(String(created)) + Number(deliver) * 1000).toISOString(),
        ),
    ),
    ...[
      ["alice@reports.test", "create", "site", "2026-03-02T15:00:00.000Z"],
      ["alice@reports.test", "update", "site", "2026-03-03T15:00:00.000Z"],
      ["bob@reports.test", "delete", "profile", "2026-03-04T15:00:00.000Z"],
      ["bob@reports.test", "update", "profile", "2026-02-01T15:00:00.000Z"],
    ].map(([actor, action, type, created], i) =>
      db
        .prepare(
          `INSERT INTO activity_logs (id, org_id, account_id, actor_email, action, entity_type, entity_id, created_at)
           VALUES (?, ?, ?, ?, ?, ?, 'x', ?)`,
        )
        .bind(`act_rep_${i}`, org, advanced, String(actor), String(action), String(type), String(created)),
    ),
  ]);
});

const march = { from: "2026-03-01", to: "2026-03-31" };

describe("figures", () => {
  it("inventory: radios by model and site, assigned against seats", async () => {
    const model = await caller("viewer").reports.get({ accountId: advanced, report: "inventory" });
    expect(model.by).toBe("model");
    expect(byCategory(model.table)["XR-7"]?.radios).toBe(3);
    expect(byCategory(model.table)["XR-9"]?.radios).toBe(3);
    expect(model.table.summary.map((s) => s.value)).toEqual([6, 6, 10]);
    const site = await caller("viewer").reports.get({ accountId: advanced, report: "inventory", by: "site" });
    const rows = byCategory(site.table);
    expect([rows["Alpha depot"]?.radios, rows["Bravo yard"]?.radios, rows.null?.radios]).toEqual([2, 2, 2]);
  });

  it("firmware: versions newest first, older ones counted as old", async () => {
    const { table } = await caller("viewer").reports.get({ accountId: advanced, report: "firmware" });
    expect(table.rows.map((row) => [row.version, row.current, row.old, row.unknown])).toEqual([
      ["2.1.0", 2, 0, 0],
      ["2.0.10", 0, 1, 0],
      ["1.8.2", 0, 1, 0],
      [null, 0, 0, 2],
    ]);
    expect(table.summary.find((s) => s.label === "reports.summary.onOldFirmware")?.value).toBe(2);
  });

  it("compliance: each radio once on each dimension (sync, contact), by site", async () => {
    const { table } = await caller("viewer").reports.get({ accountId: advanced, report: "compliance" });
    const rows = byCategory(table);
    const none = { inSync: 0, pending: 0, failed: 0, drifted: 0, neverDeployed: 0, recent: 0, overdue: 0, neverSeen: 0 };
    expect(rows["Alpha depot"]).toEqual({ ...none, site: "Alpha depot", inSync: 1, pending: 1, recent: 2, total: 2 });
    expect(rows["Bravo yard"]).toEqual({ ...none, site: "Bravo yard", failed: 1, drifted: 1, recent: 2, total: 2 });
    // Out of touch is a contact state: the overdue and never-seen radios are still pending the deployment.
    expect(rows.null).toEqual({ ...none, site: null, pending: 2, overdue: 1, neverSeen: 1, total: 2 });
  });

  it("last seen: a day, a week, a month, never", async () => {
    const { table } = await caller("viewer").reports.get({ accountId: advanced, report: "last-seen" });
    const rows = byCategory(table);
    expect(rows["Alpha depot"]).toMatchObject({ day: 2, total: 2 });
    expect(rows.null).toMatchObject({ day: 0, week: 0, month: 1, older: 0, never: 1 });
  });

  it("seats: the allocation, used and free", async () => {
    const { table } = await caller("viewer").reports.get({ accountId: advanced, report: "seats" });
    expect(table.rows).toEqual([
      { plan: "Fleet plan", reference: "PO-7", startsAt: "2026-01-01", endsAt: null, status: "active", seats: 10 },
    ]);
    expect(table.summary.map((s) => s.value)).toEqual([10, 6, 4]);
  });

  it("deployments: outcome, time to 50 % (the 2nd of 4 radios), failures by reason", async () => {
    const report = await caller("viewer").reports.get({ accountId: advanced, report: "deployments", ...march });
    expect(report.table.rows).toEqual([
      {
        deployment: "#1",
        state: "running",
        targeted: 4,
        applied: 2,
        failed: 1,
        inProgress: 1,
        notReported: 0,
        reached50: 120,
        reached90: null,
        reached100: null,
      },
    ]);
    const reasons = await caller("viewer").reports.get({ accountId: advanced, report: "deployments", by: "reason", ...march });
    expect(reasons.table.rows).toEqual([{ code: "E42", failed: 1, rejected: 0, deployments: 1 }]);
    const phases = await caller("viewer").reports.get({ accountId: advanced, report: "deployments", by: "phase", ...march });
    expect(phases.table.rows).toMatchObject([{ deployment: "#1", phase: 1, applied: 2, failed: 1, inProgress: 1 }]);
    const april = await caller("viewer").reports.get({
      accountId: advanced,
      report: "deployments",
      from: "2026-04-01",
      to: "2026-04-30",
    });
    expect(april.table.rows).toEqual([]);
  });

  it("commands: by type with the mean time to deliver; by day in the account's time zone", async () => {
    const byType = await caller("viewer").reports.get({ accountId: advanced, report: "commands", ...march });
    const rows = byCategory(byType.table);
    expect(rows.ping).toMatchObject({ succeeded: 1, failed: 1, total: 2, deliverSeconds: 60 });
    expect(rows.reboot).toMatchObject({ expired: 1, total: 1, deliverSeconds: null });
    expect(rows.message).toMatchObject({ waiting: 1, total: 1 });
    const byDay = await caller("viewer").reports.get({ accountId: advanced, report: "commands", by: "day", ...march });
    expect(byDay.table.rows).toHaveLength(31);
    const days = byCategory(byDay.table);
    expect(days["2026-03-10"]?.total).toBe(3);
    expect(days["2026-03-11"]?.total).toBe(1);
    expect(byDay.table.rows.reduce((sum, row) => sum + Number(row.total), 0)).toBe(4);
  });

  it("activity: changes per person and kind in the range", async () => {
    const people = await caller("viewer").reports.get({ accountId: advanced, report: "activity", ...march });
    expect(people.table.rows).toEqual([
      { label: "alice@reports.test", create: 1, update: 1, delete: 0, total: 2 },
      { label: "bob@reports.test", create: 0, update: 0, delete: 1, total: 1 },
    ]);
    const kinds = await caller("viewer").reports.get({ accountId: advanced, report: "activity", by: "kind", ...march });
    expect(byCategory(kinds.table).profile?.total).toBe(1);
  });
});

describe("gating", () => {
  const onlyAdvanced = { "view-reports-in-advanced-accounts": true };
  const onlyOthers = { "view-reports-in-non-advanced-accounts": true };

  it("opens an advanced account's reports with view-reports-in-advanced-accounts only", async () => {
    expect((await caller(onlyAdvanced).reports.list({ accountId: advanced })).reports).toHaveLength(8);
    expect((await refusal(caller(onlyOthers).reports.get({ accountId: advanced, report: "inventory" }))).code).toBe("FORBIDDEN");
  });

  it("opens an essential account's reports with view-reports-in-non-advanced-accounts only", async () => {
    expect((await caller(onlyOthers).reports.get({ accountId: essential, report: "inventory" })).table.rows).toEqual([]);
    expect((await refusal(caller(onlyAdvanced).reports.list({ accountId: essential }))).code).toBe("FORBIDDEN");
  });

  it("refuses a role without either flag", async () => {
    expect((await refusal(caller("case-agent").reports.list({ accountId: advanced }))).code).toBe("FORBIDDEN");
  });

  it("lists every report on an essential account, marking the advanced ones, and explains instead of opening them", async () => {
    const list = await caller("viewer").reports.list({ accountId: essential });
    expect(list.reports.filter((r) => r.available).map((r) => r.id)).toEqual(["inventory", "last-seen", "seats"]);
    expect(list.reports).toHaveLength(8);
    const refused = await refusal(caller("viewer").reports.get({ accountId: essential, report: "firmware" }));
    expect(refused).toMatchObject({ code: "FORBIDDEN", message: expect.stringContaining("advanced level") });
    const page = await request(`/accounts/${essential}/reports/firmware`, { headers: { Cookie: ownerCookie } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("advanced level");
  });

  it("answers another tenant's account as not found", async () => {
    expect((await refusal(caller("owner").reports.get({ accountId: otherAccount, report: "inventory" }))).code).toBe("NOT_FOUND");
    const page = await request(`/accounts/${otherAccount}/reports`, { headers: { Cookie: ownerCookie } });
    expect(page.status).toBe(404);
  });
});

describe("hostile input", () => {
  for (const [query, why] of [
    ["from=2026-02-30&to=2026-03-01", "not a calendar day"],
    ["from=2026-03-10&to=2026-03-01", "from after to"],
    ["from=2020-01-01&to=2026-03-01", "longer than a year"],
    ["from=%27%3B%20DROP%20TABLE%20devices&to=2026-03-01", "SQL"],
    ["by=__proto__", "an unknown grouping"],
  ]) {
    it(`answers 400 to ${why}`, async () => {
      const response = await request(`/accounts/${advanced}/reports/commands?${query}`, { headers: { Cookie: ownerCookie } });
      expect(response.status).toBe(400);
      expect(await response.text()).not.toContain("Internal");
    });
  }

  it("answers 404 to an unknown report", async () => {
    const response = await request(`/accounts/${advanced}/reports/nope`, { headers: { Cookie: ownerCookie } });
    expect(response.status).toBe(404);
  });
});

/** The <td> texts of the page's table, row by row. */
function tableCells(html: string): string[][] {
  const body = html.split("<tbody")[1]?.split("</tbody>")[0] ?? "";
  return [...body.matchAll(/<tr[^>]*>(.*?)<\/tr>/gs)].map((row) =>
    [...(row[1] ?? "").matchAll(/<td[^>]*>(.*?)<\/td>/gs)].map((cell) =>
      (cell[1] ?? "").replace(/<[^>]+>/g, "").replace(/&nbsp;/g, " "),
    ),
  );
}

describe("CSV and page", () => {
  it("holds exactly the rows and numbers of the page's table", async () => {
    const path = `/accounts/${advanced}/reports/commands?by=type&from=2026-03-01&to=2026-03-31`;
    const page = await request(path, { headers: { Cookie: ownerCookie } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('role="img"');
    const cells = tableCells(html);
    const csv = await request(`${path}&format=csv`, { headers: { Cookie: ownerCookie } });
    expect(csv.headers.get("content-type")).toContain("text/csv");
    const lines = (await csv.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines[0]).toBe("Type,Succeeded,Failed,Expired,Cancelled,Not finished,Total,Mean time to deliver (seconds)");
    const records = lines.slice(1).map((line) => line.split(","));
    expect(records).toHaveLength(cells.length);
    records.forEach((record, i) => {
      // Same label and the same counts (columns 1–6) as the page shows.
      expect(record[0]).toBe(cells[i]?.[0]);
      expect(record.slice(1, 7)).toEqual(cells[i]?.slice(1, 7));
    });
    expect(records.find((r) => r[0] === "Ping")).toEqual(["Ping", "1", "1", "0", "0", "0", "2", "60"]);
  });

  it("names each bar of the deployments-by-phase chart by its deployment and phase", async () => {
    const page = await request(`/accounts/${advanced}/reports/deployments?by=phase&from=2026-03-01&to=2026-03-31`, {
      headers: { Cookie: ownerCookie },
    });
    expect(page.status).toBe(200);
    const svg = (await page.text()).split(`<svg role="img"`)[1] ?? "";
    expect(svg).toContain("#1 · 1");
    expect(svg).toContain("Deployment · Phase");
  });

  it("writes the inventory page's shares in the CSV as percentages", async () => {
    const csv = await request(`/accounts/${advanced}/reports/inventory?by=model&format=csv`, {
      headers: { Cookie: ownerCookie },
    });
    const text = await csv.text();
    expect(text).toContain("XR-7,3,50");
  });
});
