import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type Language, languages } from "@/schema/languages";
import { startOfDay, wallClock } from "@/schema/zoned-date";
import { listActivity } from "@/server/data/activity-logs";
import { translatorFor } from "@/server/i18n/i18n";
import { diffWords, textOf } from "@/ui/activity/activity-entry";
import { diffLines } from "@/ui/activity/diff-lines";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

// Activity logs, changes to deploy and the account home's summary (spec §4, §6, §7): keyset
// paging that neither skips nor repeats entries written in the same millisecond, the filters,
// `enabled: false`, tenant isolation, the pending count and its banner per permission, the
// review page, and the CSV (quoting, the filter, the attachment).

let orgId: string;
let pagingAccount: string;
let filterAccount: string;
let pendingAccount: string;
let quietAccount: string;
let foreignAccount: string;
const cookies: Record<"configurator" | "technician" | "outsider", string> = { configurator: "", technician: "", outsider: "" };

type Row = {
  accountId: string;
  createdAt: string;
  type?: string;
  actor?: string;
  action?: "create" | "update" | "delete";
  label?: string;
  diff?: unknown;
  deployable?: boolean;
  deploymentId?: string | null;
};

let serial = 0;
function insertStatement(row: Row) {
  serial += 1;
  const id = `log_t${String(serial).padStart(5, "0")}_${crypto.randomUUID().slice(0, 6)}`;
  return env.DB.prepare(
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, deployment_id, created_at)
     VALUES (?, ?, ?, NULL, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  ).bind(
    id,
    orgId,
    row.accountId,
    row.actor ?? "someone@example.com",
    row.action ?? "update",
    row.type ?? "site",
    `ent_${serial}`,
    row.label ?? `Thing ${serial}`,
    JSON.stringify(row.diff ?? { name: { before: "Old", after: "New" } }),
    row.deployable === false ? 0 : 1,
    row.deploymentId ?? null,
    row.createdAt,
  );
}

async function insertLogs(rows: Row[]) {
  await env.DB.batch(rows.map(insertStatement));
}

type Answer<T> = { result?: { data: T }; error?: { data?: { code?: string } } };

async function query<T>(path: string, input: unknown, cookie: string): Promise<Answer<T>> {
  const response = await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { Cookie: cookie },
  });
  return response.json();
}

type Page = { items: { id: string; entityType: string; actorEmail: string; createdAt: string }[]; nextCursor: string | null };

async function list(input: Record<string, unknown>, cookie = cookies.configurator): Promise<Page> {
  const answer = await query<Page>("activityLogs.list", input, cookie);
  if (!answer.result) throw new Error(`activityLogs.list failed: ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

/** Every entry the filter finds, page by page through the cursor. */
async function listAll(input: Record<string, unknown>, limit: number): Promise<Page["items"]> {
  const items: Page["items"] = [];
  let cursor: string | null = null;
  for (let pages = 0; pages < 100; pages += 1) {
    const page = await list({ ...input, limit, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor;
    if (!cursor) return items;
  }
  throw new Error("the cursor never ended");
}

function get(path: string, cookie: string, headers: Record<string, string> = {}) {
  return request(path, { headers: { Cookie: cookie, ...headers }, redirect: "manual" });
}

beforeAll(async () => {
  orgId = await createOrganization("Activity dealer");
  const customer = await createOrganization("Activity customer", orgId);
  pagingAccount = await createAccount(customer, "Paging fleet");
  filterAccount = await createAccount(customer, "Filter fleet");
  pendingAccount = await createAccount(customer, "Pending fleet");
  quietAccount = await createAccount(customer, "Quiet fleet");
  foreignAccount = await createAccount(await createOrganization("Elsewhere"), "Not yours");
  // Chicago: six hours behind UTC in January, so calendar days there start at 06:00Z.
  await env.DB.prepare("UPDATE accounts SET timezone = 'America/Chicago' WHERE id IN (?, ?)")
    .bind(filterAccount, pendingAccount)
    .run();
  for (const role of ["configurator", "technician"] as const) {
    cookies[role] = await sessionCookie((await createUser({ role, orgId })).email);
  }
  cookies.outsider = await sessionCookie((await createUser({ role: "owner" })).email);

  // 120 entries in the same millisecond, then 30 spread over time.
  await insertLogs(Array.from({ length: 120 }, () => ({ accountId: pagingAccount, createdAt: "2026-03-01T12:00:00.000Z" })));
  await insertLogs(
    Array.from({ length: 30 }, (_, n) => ({
      accountId: pagingAccount,
      createdAt: new Date(Date.UTC(2026, 2, 1, 12, 0, 0, 1) + n * 997).toISOString(),
    })),
  );

  await insertLogs([
    { accountId: filterAccount, createdAt: "2026-01-10T05:30:00.000Z", type: "site", actor: "ana@example.com" },
    { accountId: filterAccount, createdAt: "2026-01-10T06:30:00.000Z", type: "location", actor: "ana@example.com" },
    { accountId: filterAccount, createdAt: "2026-01-11T05:59:59.999Z", type: "site", actor: "bo_b@example.com" },
    { accountId: filterAccount, createdAt: "2026-01-11T06:00:00.000Z", type: "network-config", actor: "boxb@example.com" },
    {
      accountId: filterAccount,
      createdAt: "2026-01-12T15:00:00.000Z",
      type: "site",
      actor: "ANA@example.com",
      label: 'Dock "A", north\nside',
    },
    { accountId: filterAccount, createdAt: "2026-01-12T16:00:00.000Z", type: "location", label: "=HYPERLINK(1)" },
  ]);

  await insertLogs([
    {
      accountId: pendingAccount,
      createdAt: "2026-02-01T10:00:00.000Z",
      type: "site",
      label: "Deployed site",
      deploymentId: "dep_1",
    },
    { accountId: pendingAccount, createdAt: "2026-02-02T10:00:00.000Z", type: "account", deployable: false },
    {
      accountId: pendingAccount,
      createdAt: "2026-02-03T10:00:00.000Z",
      type: "site",
      label: "North yard",
      diff: { name: { before: "North", after: "North yard" } },
    },
    {
      accountId: pendingAccount,
      createdAt: "2026-02-04T10:00:00.000Z",
      type: "location",
      action: "create",
      label: "Gate 4",
      diff: { name: { after: "Gate 4" }, description: { after: "" } },
    },
    {
      accountId: pendingAccount,
      createdAt: "2026-02-05T10:00:00.000Z",
      type: "network-config",
      label: "Pending fleet",
      diff: { dnsServers: { before: ["1.1.1.1"], after: ["9.9.9.9", "8.8.8.8"] } },
    },
    { accountId: pendingAccount, createdAt: "2026-02-06T10:00:00.000Z", type: "allocation", deployable: false },
  ]);
});

describe("activityLogs.list: keyset paging", () => {
  it("pages 150 entries (120 in one millisecond) without a duplicate or a gap, newest first", async () => {
    const all = await env.DB.prepare("SELECT id FROM activity_logs WHERE account_id = ? ORDER BY created_at DESC, id DESC")
      .bind(pagingAccount)
      .all<{ id: string }>();
    for (const limit of [25, 7, 200]) {
      const items = await listAll({ accountId: pagingAccount }, limit);
      expect(new Set(items.map((item) => item.id)).size).toBe(150);
      expect(items.map((item) => item.id)).toEqual(all.results.map((row) => row.id));
    }
  });

  it("answers an opaque cursor and null after the last page", async () => {
    const first = await list({ accountId: pagingAccount, limit: 25 });
    expect(first.items).toHaveLength(25);
    expect(first.nextCursor).toMatch(/^[\w-]+$/);
    expect(first.nextCursor).not.toContain("2026");
    const last = await list({ accountId: pagingAccount, limit: 200 });
    expect(last.items).toHaveLength(150);
    expect(last.nextCursor).toBeNull();
  });

  it("refuses a cursor that is not one of its own", async () => {
    for (const cursor of ["not-a-cursor", btoa("[1,2]"), btoa('["yesterday","log_1"]')]) {
      const answer = await query("activityLogs.list", { accountId: pagingAccount, cursor }, cookies.configurator);
      expect(answer.error?.data?.code).toBe("BAD_REQUEST");
    }
  });

  it("seeks through the account-and-time index instead of sorting or skipping", async () => {
    const plan = await env.DB.prepare(
      `EXPLAIN QUERY PLAN SELECT id FROM activity_logs WHERE account_id = ? AND (created_at, id) < (?, ?)
       ORDER BY created_at DESC, id DESC LIMIT 26`,
    )
      .bind(pagingAccount, "2026-03-01T12:00:00.000Z", "log_x")
      .all<{ detail: string }>();
    const details = plan.results.map((row) => row.detail).join("\n");
    expect(details).toContain("activity_logs_account_time");
    expect(details).not.toContain("TEMP B-TREE");
  });
});

describe("activityLogs.list: filters", () => {
  it("filters by entity type", async () => {
    const items = await listAll({ accountId: filterAccount, entityType: "site" }, 2);
    expect(items.map((item) => item.createdAt)).toEqual([
      "2026-01-12T15:00:00.000Z",
      "2026-01-11T05:59:59.999Z",
      "2026-01-10T05:30:00.000Z",
    ]);
  });

  it("filters by part of the actor's email, any case, wildcards taken literally", async () => {
    const ana = await list({ accountId: filterAccount, actor: "ana@" });
    expect(ana.items).toHaveLength(3);
    // "_" is a letter here, not SQL's any-character: boxb does not match bo_b.
    const bob = await list({ accountId: filterAccount, actor: "bo_b" });
    expect(bob.items.map((item) => item.actorEmail)).toEqual(["bo_b@example.com"]);
  });

  it("pages by actor across several matching actors, newest first, none skipped or repeated", async () => {
    const accountId = await createAccount(await createOrganization("Actor paging"), "Actor fleet");
    const at = (n: number) => new Date(Date.UTC(2026, 4, 1) + n * 1000).toISOString();
    // Interleaved: two matching actors ("ana", "dana"), one not, and same-instant ties.
    await insertLogs(
      Array.from({ length: 24 }, (_, n) => ({
        accountId,
        createdAt: at(Math.floor(n / 2)),
        actor: ["ana@example.com", "dana@example.com", "bob@example.com"][n % 3],
      })),
    );
    const expected = (await listActivity(env.DB, { accountId, limit: 100 }))
      .filter((entry) => entry.actorEmail.includes("ana"))
      .map((entry) => entry.id);
    expect(expected).toHaveLength(16);
    const seen: string[] = [];
    let after: { createdAt: string; id: string } | null = null;
    for (let page = 0; page < 10; page += 1) {
      const items = await listActivity(env.DB, { accountId, after, limit: 5, filter: { actor: "ANA" } });
      seen.push(...items.map((entry) => entry.id));
      const last = items.at(-1);
      if (items.length < 5 || !last) break;
      after = { createdAt: last.createdAt, id: last.id };
    }
    expect(seen).toEqual(expected);
    expect(await listActivity(env.DB, { accountId, limit: 5, filter: { actor: "nobody" } })).toEqual([]);
  });

  it("reads from/to as calendar days in the account's time zone, both inclusive", async () => {
    const day = await list({ accountId: filterAccount, from: "2026-01-10", to: "2026-01-10" });
    expect(day.items.map((item) => item.createdAt)).toEqual(["2026-01-11T05:59:59.999Z", "2026-01-10T06:30:00.000Z"]);
    const since = await list({ accountId: filterAccount, from: "2026-01-11" });
    expect(since.items).toHaveLength(3);
    const combined = await list({
      accountId: filterAccount,
      from: "2026-01-10",
      to: "2026-01-12",
      entityType: "site",
      actor: "ana",
    });
    expect(combined.items.map((item) => item.createdAt)).toEqual(["2026-01-12T15:00:00.000Z"]);
  });

  it("refuses a day that does not exist", async () => {
    const answer = await query("activityLogs.list", { accountId: filterAccount, from: "2026-02-30" }, cookies.configurator);
    expect(answer.error?.data?.code).toBe("BAD_REQUEST");
  });

  it("turns days into instants across daylight saving time", () => {
    expect(startOfDay("2026-01-10", "America/Chicago")).toBe("2026-01-10T06:00:00.000Z");
    expect(startOfDay("2026-07-10", "America/Chicago")).toBe("2026-07-10T05:00:00.000Z");
    // 2026-03-08 is the day clocks move forward in Chicago: it starts before the change.
    expect(startOfDay("2026-03-08", "America/Chicago")).toBe("2026-03-08T06:00:00.000Z");
    expect(startOfDay("2026-03-08", "America/Chicago", 1)).toBe("2026-03-09T05:00:00.000Z");
    expect(startOfDay("2026-01-31", "Asia/Kolkata", 1)).toBe("2026-01-31T18:30:00.000Z");
    expect(wallClock("2026-01-10T05:30:00.000Z", "America/Chicago")).toBe("2026-01-09 23:30:00");
  });
});

describe("enabled: false", () => {
  it("answers empty without asking, even for an id that is nobody's", async () => {
    expect(await list({ accountId: "acc_nobody", enabled: false })).toEqual({ items: [], nextCursor: null });
    const pending = await query(
      "activityLogs.listChangesToDeploy",
      { accountId: "acc_nobody", enabled: false },
      cookies.configurator,
    );
    expect(pending.result?.data).toEqual({ items: [], count: 0 });
  });
});

describe("tenant isolation", () => {
  it("answers NOT_FOUND for another tenant's account, from every procedure", async () => {
    for (const path of [
      "activityLogs.list",
      "activityLogs.listChangesToDeploy",
      "accounts.getConfiguredEntitiesSummary",
      "accounts.getLastConfigurationActivity",
      "devices.getConfiguredDeviceCounts",
    ]) {
      const answer = await query(path, { accountId: pendingAccount }, cookies.outsider);
      expect(answer.error?.data?.code, path).toBe("NOT_FOUND");
    }
  });

  it("shows the 404 screen for another tenant's log, changes and CSV", async () => {
    for (const path of ["activity-logs", "changes", "activity-logs/export.csv"]) {
      const response = await get(`/accounts/${foreignAccount}/${path}`, cookies.configurator);
      expect(response.status, path).toBe(404);
      expect(response.headers.get("content-type")).toContain("text/html");
    }
  });
});

describe("changes to deploy", () => {
  it("counts the configuration changes without a deployment, newest first, with their diffs", async () => {
    const answer = await query<{ items: { entityLabel: string; diff: unknown }[]; count: number }>(
      "activityLogs.listChangesToDeploy",
      { accountId: pendingAccount },
      cookies.technician,
    );
    expect(answer.result?.data.count).toBe(3);
    expect(answer.result?.data.items.map((item) => item.entityLabel)).toEqual(["Pending fleet", "Gate 4", "North yard"]);
    expect(answer.result?.data.items[2]?.diff).toEqual({ name: { before: "North", after: "North yard" } });
    const countOnly = await query<{ items: unknown[]; count: number }>(
      "activityLogs.listChangesToDeploy",
      { accountId: pendingAccount, limit: 0 },
      cookies.technician,
    );
    expect(countOnly.result?.data).toEqual({ items: [], count: 3 });
  });

  it("logs a real network change as pending, without its secrets", async () => {
    const accountId = await createAccount(orgId, "Secret fleet");
    const response = await request("/api/accounts.updateNetworkConfig", {
      method: "POST",
      headers: { Cookie: cookies.configurator, Origin: ORIGIN, "Content-Type": "application/json" },
      body: JSON.stringify({
        id: accountId,
        version: 1,
        config: {
          wifi: [{ id: "w1", ssid: "Yard", security: "wpa2-personal", passphrase: "hunter2-secret-pass", priority: 1 }],
          dnsServers: ["9.9.9.9"],
        },
      }),
    });
    expect(response.status).toBe(200);
    const pending = await query<{ items: { entityType: string; diff: unknown }[]; count: number }>(
      "activityLogs.listChangesToDeploy",
      { accountId },
      cookies.configurator,
    );
    expect(pending.result?.data.count).toBe(1);
    expect(pending.result?.data.items[0]?.entityType).toBe("network-config");
    expect(JSON.stringify(pending.result?.data)).not.toContain("hunter2");
    const html = await (await get(`/accounts/${accountId}/activity-logs`, cookies.configurator)).text();
    // Translated labels, never developer names (issue 9, §4).
    expect(html).toContain("Wi-Fi networks › Wi-Fi network 1 › Network name (SSID)");
    expect(html).not.toContain("wifi › #1");
    expect(html).toContain("Yard");
    expect(html).not.toContain("hunter2");
    // Network settings are edit-network-config's to read, in the log too (issue 9, §3).
    const viewed = await query<{ items: { entityType: string; diff: Record<string, unknown> }[] }>(
      "activityLogs.list",
      { accountId },
      cookies.technician,
    );
    const entry = viewed.result?.data.items.find((item) => item.entityType === "network-config");
    expect(entry?.diff).toEqual({});
    const technicianPage = await (await get(`/accounts/${accountId}/activity-logs`, cookies.technician)).text();
    expect(technicianPage).toContain("Network settings");
    expect(technicianPage).not.toContain("Yard");
  });
});

describe("the account home's summary", () => {
  it("counts sites, locations, the account's own profiles and rules; and no radios yet", async () => {
    const accountId = await createAccount(orgId, "Counted fleet");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_c1', ?, 'North'), ('site_c2', ?, 'South')").bind(
        accountId,
        accountId,
      ),
      env.DB.prepare(
        "INSERT INTO locations (id, account_id, site_id, name) VALUES ('loc_c1', ?, 'site_c1', 'Gate'), ('loc_c2', ?, 'site_c1', 'Dock'), ('loc_c3', ?, 'site_c2', 'Yard')",
      ).bind(accountId, accountId, accountId),
      env.DB.prepare(
        "INSERT INTO profiles (id, org_id, account_id, type, name) VALUES ('pro_c1', ?, ?, 'device', 'Radio'), ('pro_c2', ?, NULL, 'device', 'Template')",
      ).bind(orgId, accountId, orgId),
      env.DB.prepare("INSERT INTO rules (id, account_id, name, priority) VALUES ('rul_c1', ?, 'All', 1)").bind(accountId),
    ]);
    const summary = await query("accounts.getConfiguredEntitiesSummary", { accountId }, cookies.technician);
    expect(summary.result?.data).toEqual({ sites: 2, locations: 3, profiles: 1, rules: 1, devices: 0, awaitingApproval: 0 });
    const devices = await query("devices.getConfiguredDeviceCounts", { accountId }, cookies.technician);
    expect(devices.result?.data).toMatchObject({ total: 0, upToDate: 0, pending: 0, neverSeen: 0 });

    const html = await (await get(`/accounts/${accountId}`, cookies.configurator)).text();
    expect(html).toContain("Configured in this account");
    expect(html).toMatch(new RegExp(`href="/accounts/${accountId}/sites"[^>]*aria-label="Sites: 2"`));
    expect(html).toContain(`href="/accounts/${accountId}/registry/devices"`);
    expect(html).toContain("No configuration changes yet.");
    // A technician may not open the sites list (the count is there, not the link), but may see the radios.
    const technician = await (await get(`/accounts/${accountId}`, cookies.technician)).text();
    expect(technician).not.toContain('aria-label="Sites: 2"');
    expect(technician).toContain(`href="/accounts/${accountId}/registry/devices"`);
  });

  it("names the newest configuration change, deployed or not, and skips other activity", async () => {
    const answer = await query<{ entityLabel: string } | null>(
      "accounts.getLastConfigurationActivity",
      { accountId: pendingAccount },
      cookies.technician,
    );
    // The allocation of 2026-02-06 is newer, but it is not configuration.
    expect(answer.result?.data?.entityLabel).toBe("Pending fleet");
    const none = await query("accounts.getLastConfigurationActivity", { accountId: quietAccount }, cookies.technician);
    expect(none.result?.data).toBeNull();
  });
});

describe("the banner of changes not deployed yet", () => {
  it("shows the count and the Review changes button to a user with create-deployments", async () => {
    for (const path of ["", "/activity-logs"]) {
      const html = await (await get(`/accounts/${pendingAccount}${path}`, cookies.configurator)).text();
      expect(html).toContain("3 changes not deployed yet");
      expect(html).toMatch(new RegExp(`<a[^>]*href="/accounts/${pendingAccount}/changes"[^>]*>Review changes</a>`));
    }
  });

  it("shows the count without the button to a technician", async () => {
    const html = await (await get(`/accounts/${pendingAccount}`, cookies.technician)).text();
    expect(html).toContain("3 changes not deployed yet");
    expect(html).not.toContain(`/accounts/${pendingAccount}/changes`);
  });

  it("is absent when nothing waits, and says “1 change” for one", async () => {
    const quiet = await (await get(`/accounts/${quietAccount}`, cookies.configurator)).text();
    expect(quiet).not.toContain("data-pending-changes");
    await insertLogs([{ accountId: quietAccount, createdAt: "2026-04-01T00:00:00.000Z", label: "Only one" }]);
    const one = await (await get(`/accounts/${quietAccount}`, cookies.configurator)).text();
    expect(one).toContain("1 change not deployed yet");
    await env.DB.prepare("UPDATE activity_logs SET deployment_id = 'dep_q' WHERE account_id = ?").bind(quietAccount).run();
  });

  it("is translated, plural included", async () => {
    const html = await (
      await get(`/accounts/${pendingAccount}`, cookies.configurator, { Cookie: `${cookies.configurator}; lang=fr-CA` })
    ).text();
    expect(html).toContain("3 changements pas encore déployés");
    expect(html).toContain("Réviser les changements");
  });
});

describe("the review of changes", () => {
  it("lists the pending changes with their diffs, and leads on to confirming a deployment", async () => {
    const response = await get(`/accounts/${pendingAccount}/changes`, cookies.configurator);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("<title>Review changes · Configuration Tool</title>");
    expect(html).toMatch(new RegExp(`<a[^>]*href="/accounts/${pendingAccount}/confirm-deployment"[^>]*>Deploy…</a>`));
    expect(html).toContain("North yard");
    expect(html).toContain("Gate 4");
    expect(html).not.toContain("Deployed site");
    expect(html).toMatch(/<del[^>]*>1\.1\.1\.1<\/del>/);
    expect(html).toMatch(/<ins[^>]*>9\.9\.9\.9, 8\.8\.8\.8<\/ins>/);
    // Deploying is a link to the confirm page: nothing on this page posts.
    expect(html).not.toMatch(/<form[^>]*action="\/accounts\/[^"]*\/(changes|confirm-deployment)"/);
    expect(html).not.toContain("Confirm");
    // The banner stays, without a button to the page it is on.
    expect(html).toContain("3 changes not deployed yet");
    expect(html).not.toMatch(/<a[^>]*>Review changes<\/a>/);
  });

  it("is protected from users without create-deployments", async () => {
    const response = await get(`/accounts/${pendingAccount}/changes`, cookies.technician);
    expect(response.status).toBe(403);
    expect(await response.text()).toContain("This route is protected.");
  });
});

describe("the activity log page", () => {
  it("shows entries newest first with readable diffs, in the account's time zone and the reader's language", async () => {
    const html = await (await get(`/accounts/${pendingAccount}/activity-logs`, cookies.technician)).text();
    expect(html).toContain("<title>Activity logs · Configuration Tool</title>");
    // The time zone by its name in the reader's language, not its IANA id.
    expect(html).toContain("Central Time – Chicago");
    // 2026-02-05T10:00Z is 4:00 AM in Chicago.
    expect(html).toMatch(/Feb 5, 2026, 4:00\sAM/);
    expect(html.indexOf("Pending fleet")).toBeLessThan(html.indexOf("North yard"));
    expect(html).toMatch(/<span class="[^"]*">Name<\/span>: <del[^>]*>North<\/del>/);
    const spanish = await (
      await get(`/accounts/${pendingAccount}/activity-logs`, cookies.technician, { Cookie: `${cookies.technician}; lang=es-MX` })
    ).text();
    expect(spanish).toMatch(/5 feb 2026, 4:00\sa\.\s?m\./);
    expect(spanish).toContain("Modificación");
  });

  it("pages without JavaScript through a Load more link that carries the cursor and the filters", async () => {
    const base = `/accounts/${pagingAccount}/activity-logs`;
    const first = await (await get(base, cookies.technician)).text();
    const more = /<a href="([^"]*cursor=[^"]*)"[^>]*>Load more<\/a>/.exec(first)?.[1]?.replaceAll("&amp;", "&");
    expect(more).toBeDefined();
    const seen = new Set([...first.matchAll(/data-activity-entry="([^"]+)"/g)].map((m) => m[1]));
    expect(seen.size).toBe(25);
    const second = await (await get(more ?? "", cookies.technician)).text();
    const next = [...second.matchAll(/data-activity-entry="([^"]+)"/g)].map((m) => m[1]);
    expect(next).toHaveLength(25);
    expect(next.some((id) => seen.has(id))).toBe(false);
    expect(second).toContain("Back to the newest");
    // "Load more" is the link and a plain script of a few hundred bytes: no React on the log.
    expect(first).not.toMatch(/data-island="/);
    expect(first).toMatch(/<script type="module" src="[^"]*more-entries[^"]*"/);

    const filtered = await (await get(`${base}?type=site&actor=someone`, cookies.technician)).text();
    expect(filtered).toMatch(/href="[^"]*\?type=site&amp;actor=someone&amp;cursor=[^"]+"/);
    expect(filtered).toContain(`href="${base}/export.csv?type=site&amp;actor=someone"`);
  });

  it("keeps typed filters and says which dates it could not use", async () => {
    const bad = await (await get(`/accounts/${filterAccount}/activity-logs?from=2026-13-01`, cookies.technician)).text();
    expect(bad).toContain("Enter a valid date.");
    const reversed = await (
      await get(`/accounts/${filterAccount}/activity-logs?from=2026-01-12&to=2026-01-10`, cookies.technician)
    ).text();
    expect(reversed).toContain("The end date must be on or after the start date.");
    expect(reversed).toContain('value="2026-01-12"');
    const none = await (await get(`/accounts/${filterAccount}/activity-logs?type=rule`, cookies.technician)).text();
    expect(none).toContain("No matching entries");
  });
});

describe("the CSV export", () => {
  async function csv(query: string) {
    const response = await get(`/accounts/${filterAccount}/activity-logs/export.csv${query}`, cookies.technician);
    const bytes = new Uint8Array(await response.arrayBuffer());
    return { response, bytes, text: new TextDecoder().decode(bytes) };
  }

  it("is an attachment with a header row, quoting commas, quotes and newlines", async () => {
    const { response, bytes, text } = await csv("");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toMatch(/^attachment; filename="activity-log-[\w-]+\.csv"$/);
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const records = text.split("\r\n").filter(Boolean);
    expect(records[0]).toBe('Time (America/Chicago),"Time (UTC, ISO 8601)",Changed by,Action,Type,Name,ID,Changes,Deployment');
    expect(records).toHaveLength(7);
    expect(text).toContain('"Dock ""A"", north\nside"');
    expect(text).toContain("2026-01-09 23:30:00,2026-01-10T05:30:00.000Z,ana@example.com,Updated,Site,");
    expect(text).toContain("Name: Old → New");
    // A name a spreadsheet would run as a formula stays text.
    expect(text).toContain(",'=HYPERLINK(1),");
    expect(text).not.toMatch(/,=HYPERLINK/);
  });

  it("applies the page's filters", async () => {
    const { text } = await csv("?type=site&actor=ana");
    const records = text.split("\r\n").filter(Boolean);
    expect(records).toHaveLength(3);
    expect(records.slice(1).every((record) => record.includes(",Site,"))).toBe(true);
    const empty = await csv("?type=rule");
    expect(empty.text.split("\r\n").filter(Boolean)).toHaveLength(1);
  });

  it("is translated", async () => {
    const response = await get(`/accounts/${filterAccount}/activity-logs/export.csv?type=network-config`, cookies.technician, {
      Cookie: `${cookies.technician}; lang=fr-CA`,
    });
    const text = await response.text();
    expect(text).toContain("Modifié par");
    expect(text).toContain("Paramètres réseau");
    expect(text).toContain("Pas encore déployé");
  });
});

describe("readable diffs", () => {
  const words = { yes: "yes", no: "no", none: "(none)", empty: "(empty)" };

  it("walks nested settings down to what changed and keeps secrets out", () => {
    const lines = diffLines(
      {
        wifi: {
          before: [{ id: "a", ssid: "Yard", priority: 1, hasPassphrase: false }],
          after: [
            { id: "a", ssid: "Yard 2", priority: 1, hasPassphrase: true },
            { id: "b", ssid: "Dock", priority: 2, passphrase: "leak" },
          ],
        },
        lte: { before: undefined, after: { apn: "iot", hasPassword: true } },
      },
      "update",
      words,
    );
    expect(lines).toEqual([
      { field: "wifi › #1 › ssid", before: "Yard", after: "Yard 2" },
      { field: "wifi › #1 › hasPassphrase", before: "no", after: "yes" },
      { field: "wifi › #2 › ssid", before: "(none)", after: "Dock" },
      { field: "wifi › #2 › priority", before: "(none)", after: "2" },
      { field: "lte › apn", before: "(none)", after: "iot" },
      { field: "lte › hasPassword", before: "(none)", after: "yes" },
    ]);
  });

  it("names every field, list item and coded value in the reader's language", async () => {
    const diff = {
      wifi: {
        before: [{ id: "a", ssid: "Yard", security: "open", priority: 1, hasPassphrase: false }],
        after: [{ id: "a", ssid: "Yard", security: "wpa2-personal", priority: 1, hasPassphrase: true }],
      },
      settings: { before: { gpsIntervalSeconds: 60, powerSave: "off" }, after: { gpsIntervalSeconds: 120, powerSave: "off" } },
      timezone: { before: "America/Chicago", after: "UTC" },
    };
    const expected: Record<Language, string[]> = {
      en: ["Wi-Fi networks › Wi-Fi network 1 › Security", "WPA2-Personal", "Passphrase set", "Settings › GPS"],
      "es-MX": ["Redes Wi-Fi › Red Wi-Fi 1 › Seguridad", "WPA2-Personal", "Frase de contraseña definida", "Configuración › "],
      "fr-CA": ["Réseaux Wi-Fi › Réseau Wi-Fi 1 › Sécurité", "Phrase secrète définie", "Paramètres › "],
      "pt-BR": ["Redes Wi-Fi › Rede Wi-Fi 1 › Segurança", "Senha definida", "Configurações › "],
    };
    for (const language of languages) {
      const text = textOf(translatorFor(language, "northwind"));
      const shown = diffLines(diff, "update", diffWords(text, language))
        .map((line) => `${line.field}: ${line.before} → ${line.after}`)
        .join("\n");
      for (const part of expected[language]) expect(shown).toContain(part);
      expect(shown).not.toMatch(/wifi|#1|hasPassphrase|gpsIntervalSeconds|wpa2-personal|America\/Chicago/);
    }
  });

  it("shows one side for creates and deletes", () => {
    expect(diffLines({ name: { after: "Gate" }, description: { after: "" } }, "create", words)).toEqual([
      { field: "name", before: null, after: "Gate" },
      { field: "description", before: null, after: "(empty)" },
    ]);
    expect(diffLines({ tags: { before: ["a", "b"] } }, "delete", words)).toEqual([
      { field: "tags", before: "a, b", after: null },
    ]);
  });
});
