import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bucketOf } from "@/schema/fleet/rollout";
import {
  type ContactState,
  contactStates,
  emptySyncCounts,
  type SyncCounts,
  type SyncState,
  syncStates,
} from "@/schema/fleet/sync-state";
import { refreshSyncSnapshots } from "@/server/data/sync-snapshots";
import { call, data } from "./api-calls";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { request } from "./helpers";

// One truth about each radio (issue 23): an account with radios in every sync × contact
// combination, made through the device protocol (a phased deployment with radios outside its
// open phase, applied, failed, rejected, a foreign revision, never seen, overdue), and every
// screen and call that counts them: the compliance report (page and CSV), the account home, the
// registry's strip, the filtered inventory (page, procedure, keyset pages), the export CSV and
// the API, all giving the oracle's numbers.

const radio = (path: string, uid: string, body: unknown) =>
  request(`/device/v1${path}`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });

const html = async (path: string, cookie: string) => {
  const response = await request(path, { headers: { Cookie: cookie } });
  expect(response.status, path).toBe(200);
  // React's markers between text parts would split the words the assertions read.
  return (await response.text()).replaceAll("<!-- -->", "");
};

const csvLines = async (path: string, cookie: string) =>
  (await (await request(path, { headers: { Cookie: cookie } })).text())
    .replace(/^\uFEFF/, "")
    .trim()
    .split("\r\n");

let cookie = "";
let orgId = "";
let accountId = "";
let deploymentId = "";
/** The oracle: each radio's sync and contact state and site, as this file made them. */
const expected = new Map<string, { sync: SyncState; contact: ContactState; site: string | null }>();

function oracleCounts(filter: (r: { site: string | null }) => boolean = () => true): SyncCounts {
  const counts = emptySyncCounts();
  for (const r of expected.values()) {
    if (!filter(r)) continue;
    counts.total++;
    counts.sync[r.sync]++;
    counts.contact[r.contact]++;
  }
  return counts;
}

const plan = {
  phases: [
    {
      share: 50,
      successPercent: 100,
      successAction: "next",
      errorKind: "count",
      errorValue: 50,
      errorMinimum: 0,
      waitMinutes: 0,
    },
    {
      share: 100,
      successPercent: 100,
      successAction: "next",
      errorKind: "count",
      errorValue: 50,
      errorMinimum: 0,
      waitMinutes: 0,
    },
  ],
};

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  cookie = await sessionCookie(owner.email);
  accountId = await createAccount(orgId, "Truth fleet", "advanced");
  await giveSeats(orgId, accountId, 200);
  await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_truth_a', ?, 'Truth depot')")
    .bind(accountId)
    .run();
  const uids = await registerRadios(orgId, accountId, "TRUTH", 90);
  const open = uids.filter((uid) => bucketOf(uid) < 5000);
  const closed = uids.filter((uid) => bucketOf(uid) >= 5000);
  // Three radios of each state per contact state: enough of each side of the phase boundary.
  expect(open.length).toBeGreaterThanOrEqual(36);
  expect(closed.length).toBeGreaterThanOrEqual(18);

  // Phase one (half the buckets) opens; phase two's radios are outside the open phase.
  deploymentId = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST")).id;
  const take = (from: string[], n: number) => from.splice(0, n);
  const groups: [SyncState, string[]][] = [
    ["inSync", take(open, 9)],
    ["failed", take(open, 9)],
    ["pending", take(open, 9)],
    ["drifted", [...take(open, 6), ...take(closed, 3)]],
    ["neverDeployed", take(closed, 9)],
  ];
  for (const [sync, members] of groups) {
    for (const [i, uid] of members.entries()) {
      await radio("/check-in", uid, sync === "drifted" ? { reportedRevision: "rev_not_ours" } : {});
      if (sync === "inSync")
        expect((await radio(`/deployments/${deploymentId}/status`, uid, { state: "applied" })).status).toBe(200);
      if (sync === "failed") {
        const state = i % 2 ? "rejected" : "failed";
        expect((await radio(`/deployments/${deploymentId}/status`, uid, { state, code: "E7", detail: "flash" })).status).toBe(
          200,
        );
      }
      if (sync === "pending" && i % 2) await radio(`/deployments/${deploymentId}/status`, uid, { state: "delivered" });
      // Contact by when it last checked in: now, an hour ago (overdue), never.
      const contact = contactStates[i % 3] as ContactState;
      const seen =
        contact === "recent"
          ? new Date().toISOString()
          : contact === "overdue"
            ? new Date(Date.now() - 3_600_000).toISOString()
            : null;
      const site = i < 5 ? "site_truth_a" : null;
      await env.DB.prepare("UPDATE devices SET last_seen_at = ?, site_id = ? WHERE uid = ?").bind(seen, site, uid).run();
      expected.set(uid, { sync, contact, site });
    }
  }
  // The rest never checked in: pending inside the open phase, never deployed outside it.
  for (const uid of open) expected.set(uid, { sync: "pending", contact: "neverSeen", site: null });
  for (const uid of closed) expected.set(uid, { sync: "neverDeployed", contact: "neverSeen", site: null });
}, 120_000);

describe("every screen and call gives the same numbers", () => {
  it("the API: deployments.drift and devices.getConfiguredDeviceCounts (the spec's fields and the full counts)", async () => {
    const oracle = oracleCounts();
    for (const state of syncStates) expect(oracle.sync[state], state).toBeGreaterThanOrEqual(9);
    expect(data(await call("deployments.drift", { accountId }, cookie, "GET"))).toEqual(oracle);
    expect(data(await call("devices.getConfiguredDeviceCounts", { accountId }, cookie, "GET"))).toEqual({
      total: oracle.total,
      upToDate: oracle.sync.inSync,
      pending: oracle.sync.pending,
      neverSeen: oracle.contact.neverSeen,
      counts: oracle,
    });
  });

  it("the compliance report, its page and its CSV: by site, each radio once per dimension", async () => {
    const report = data(
      await call<{ table: { rows: Record<string, number | string | null>[] } }>(
        "reports.get",
        { accountId, report: "compliance" },
        cookie,
        "GET",
      ),
    );
    const bySite = Object.fromEntries(report.table.rows.map((row) => [String(row.site), row]));
    for (const [name, site] of [
      ["Truth depot", "site_truth_a"],
      ["null", null],
    ] as const) {
      const oracle = oracleCounts((r) => r.site === site);
      expect(bySite[name]).toEqual({
        site: name === "null" ? null : name,
        ...oracle.sync,
        ...oracle.contact,
        total: oracle.total,
      });
    }
    const lines = await csvLines(`/accounts/${accountId}/reports/compliance?format=csv`, cookie);
    expect(lines[0]).toBe(
      "Site,Sync: in sync,Sync: pending,Sync: failed,Sync: drifted,Sync: never deployed,Contact: seen recently,Contact: overdue,Contact: never seen,Total",
    );
    const depot = oracleCounts((r) => r.site === "site_truth_a");
    expect(lines).toContain(
      ["Truth depot", ...syncStates.map((s) => depot.sync[s]), ...contactStates.map((s) => depot.contact[s]), depot.total].join(
        ",",
      ),
    );
    const page = await html(`/accounts/${accountId}/reports/compliance`, cookie);
    expect(page).toContain("Contact: overdue");
  });

  it("the account home: one block, both dimensions, each count a link to the radios it counts", async () => {
    const oracle = oracleCounts();
    const page = await html(`/accounts/${accountId}`, cookie);
    const labels: [string, number, string][] = [
      ["In sync", oracle.sync.inSync, "sync=inSync"],
      ["Pending", oracle.sync.pending, "sync=pending"],
      ["Failed", oracle.sync.failed, "sync=failed"],
      ["Drifted (unknown revision)", oracle.sync.drifted, "sync=drifted"],
      ["Never deployed", oracle.sync.neverDeployed, "sync=neverDeployed"],
      ["Seen recently", oracle.contact.recent, "contact=recent"],
      ["Overdue (not seen lately)", oracle.contact.overdue, "contact=overdue"],
      ["Never seen", oracle.contact.neverSeen, "contact=neverSeen"],
    ];
    for (const [label, count, query] of labels)
      expect(page).toMatch(
        new RegExp(
          `href="/accounts/${accountId}/registry/devices\\?${query}"[^>]*aria-label="${label.replace(/[()]/g, "\\$&")}: ${count}"`,
        ),
      );
    expect(page).toContain(`href="/accounts/${accountId}/deployments"`);
    // The old second block saying the same numbers in other words is gone.
    expect(page).not.toContain("Up to date");
  });

  it("the registry's strip, the filtered inventory page, its keyset pages and the export CSV", async () => {
    const oracle = oracleCounts();
    const registry = await html(`/accounts/${accountId}/registry/devices`, cookie);
    for (const state of syncStates)
      expect(registry).toMatch(
        new RegExp(`data-count="${state}">.*?<a href="[^"]*\\?sync=${state}"[^>]*>${oracle.sync[state]}</a>`),
      );
    for (const state of contactStates)
      expect(registry).toMatch(
        new RegExp(`data-count="${state}">.*?<a href="[^"]*\\?contact=${state}"[^>]*>${oracle.contact[state]}</a>`),
      );

    for (const sync of syncStates) {
      const page = await html(`/accounts/${accountId}/registry/devices?sync=${sync}`, cookie);
      expect((page.match(/<td[^>]*data-sync="/g) ?? []).length, sync).toBe(oracle.sync[sync]);
      expect(page.match(/data-sync="(\w+)"/g)?.every((m) => m === `data-sync="${sync}"`)).toBe(true);
      const lines = await csvLines(`/accounts/${accountId}/registry/devices/export.csv?sync=${sync}`, cookie);
      expect(lines.length - 1, `export ${sync}`).toBe(oracle.sync[sync]);
    }
    for (const contact of contactStates) {
      const lines = await csvLines(`/accounts/${accountId}/registry/devices/export.csv?contact=${contact}`, cookie);
      expect(lines.length - 1, `export ${contact}`).toBe(oracle.contact[contact]);
    }
    // Combined with each other and with the site filter, a few radios per keyset page.
    for (const sync of syncStates)
      for (const contact of contactStates) {
        const want = [...expected.values()].filter(
          (r) => r.sync === sync && r.contact === contact && r.site === "site_truth_a",
        ).length;
        let seen = 0;
        let cursor: string | undefined;
        do {
          const page = data(
            await call<{ items: { sync: string; contact: string; siteId: string }[]; next: string | null }>(
              "devices.list",
              { accountId, filter: { sync, contact, siteId: "site_truth_a" }, limit: 2, ...(cursor ? { cursor } : {}) },
              cookie,
              "GET",
            ),
          );
          expect(page.items.every((d) => d.sync === sync && d.contact === contact && d.siteId === "site_truth_a")).toBe(true);
          seen += page.items.length;
          cursor = page.next ?? undefined;
        } while (cursor);
        expect(seen, `${sync} × ${contact}`).toBe(want);
      }
    // The export's own columns carry the same words.
    const all = await csvLines(`/accounts/${accountId}/registry/devices/export.csv`, cookie);
    const header = all[0]?.split(",") ?? [];
    const [syncAt, contactAt] = [header.indexOf("sync"), header.indexOf("contact")];
    const tally = (at: number, word: string) => all.slice(1).filter((line) => line.split(",")[at] === word).length;
    expect(tally(syncAt, "In sync")).toBe(oracle.sync.inSync);
    expect(tally(contactAt, "Overdue (not seen lately)")).toBe(oracle.contact.overdue);
  });

  it("each row says desired vs reported revision", async () => {
    const list = data(
      await call<{ items: { uid: string; sync: string; revisions: { desired: number | null; reported: number | null } }[] }>(
        "devices.list",
        { accountId, limit: 200 },
        cookie,
        "GET",
      ),
    );
    const of = (sync: SyncState) => list.items.filter((d) => d.sync === sync).map((d) => d.revisions);
    expect(new Set(of("inSync").map((r) => JSON.stringify(r)))).toEqual(new Set(['{"desired":1,"reported":1}']));
    expect(of("neverDeployed").every((r) => r.desired === null && r.reported === null)).toBe(true);
    expect(of("drifted").every((r) => r.reported === null)).toBe(true);
    const page = await html(`/accounts/${accountId}/registry/devices?sync=drifted`, cookie);
    expect(page).toContain("Reported: unknown");
  });
});

describe("the radio's page", () => {
  it("lists the deployments it went through with what it reported, and both states", async () => {
    const failed = [...expected].find(([, r]) => r.sync === "failed" && r.contact === "overdue")?.[0] ?? "";
    const page = await html(`/accounts/${accountId}/registry/devices/view/${failed}`, cookie);
    const history = page.slice(page.indexOf('data-slot="radio-deployments"'));
    expect(history).toMatch(/Deployment #1.*Revision 1.*running.*(Failed|Rejected).*E7 — flash/s);
    expect(page).toMatch(/Configuration \(sync\): <strong>Failed<\/strong>/);
    expect(page).toMatch(/Contact: <strong>Overdue \(not seen lately\)<\/strong>/);
    const none = [...expected].find(([, r]) => r.sync === "neverDeployed")?.[0] ?? "";
    expect(await html(`/accounts/${accountId}/registry/devices/view/${none}`, cookie)).toContain(
      "This radio has not reported on any deployment of its account yet.",
    );
  });
});

describe("tenancy and bad input", () => {
  it("refuses a sync filter across accounts, and another tenant's account and radio", async () => {
    const across = await call("devices.list", { filter: { sync: "failed" } }, cookie, "GET");
    expect(across.error?.data.code).toBe("BAD_REQUEST");
    // One account chosen in the organization's inventory: the same radios as its registry.
    const chosen = data(
      await call<{ items: unknown[] }>(
        "devices.list",
        { filter: { account: accountId, sync: "failed" }, limit: 200 },
        cookie,
        "GET",
      ),
    );
    expect(chosen.items).toHaveLength(oracleCounts().sync.failed);
    const orgPage = await html(`/devices?account=${accountId}&sync=failed`, cookie);
    expect((orgPage.match(/<td[^>]*data-sync="failed"/g) ?? []).length).toBe(oracleCounts().sync.failed);
    // Across accounts the page offers no sync filter and does not apply one.
    const anyPage = await html("/devices?sync=failed", cookie);
    expect(anyPage).toContain("Choose one account to see and filter the configuration state");
    expect(anyPage).not.toContain('name="sync"');
    expect((await call("devices.list", { accountId, filter: { sync: "bogus" } }, cookie, "GET")).error?.data.code).toBe(
      "BAD_REQUEST",
    );

    const stranger = await createUser({ role: "owner", orgId: await createOrganization("Truth stranger") });
    const strangerCookie = await sessionCookie(stranger.email);
    const someRadio = [...expected.keys()][0] ?? "";
    for (const [path, input] of [
      ["deployments.drift", { accountId }],
      ["devices.getConfiguredDeviceCounts", { accountId }],
      ["devices.list", { accountId, filter: { sync: "failed" } }],
      ["devices.list", { filter: { account: accountId, sync: "failed" } }],
      ["devices.deployments", { uid: someRadio }],
    ] as const) {
      const answer = await call(path, input, strangerCookie, "GET");
      expect(["NOT_FOUND", "BAD_REQUEST"], path).toContain(answer.error?.data.code);
    }
  });
});

describe("a large account: every screen reads one snapshot and says when it was counted", () => {
  it("counts with the live statement, shows the time, keeps its numbers until the next count, and is dropped below the size", async () => {
    const countedAt = new Date();
    // The size from which an account gets a snapshot, lowered to this account's (20,000 in production).
    expect(await refreshSyncSnapshots(env.DB, countedAt, { fromRadios: expected.size })).toEqual({
      accounts: 1,
      refreshed: 1,
      dropped: 0,
    });
    const oracle = oracleCounts();
    const asOf = countedAt.toISOString();
    expect(data(await call("deployments.drift", { accountId }, cookie, "GET"))).toEqual({ ...oracle, asOf });
    expect(
      data(await call<{ counts: SyncCounts }>("devices.getConfiguredDeviceCounts", { accountId }, cookie, "GET")).counts,
    ).toEqual({ ...oracle, asOf });
    const report = data(
      await call<{ table: { rows: Record<string, number | string | null>[]; asOf?: string } }>(
        "reports.get",
        { accountId, report: "compliance" },
        cookie,
        "GET",
      ),
    );
    expect(report.table.asOf).toBe(asOf);
    const depot = oracleCounts((r) => r.site === "site_truth_a");
    expect(report.table.rows.find((row) => row.site === "Truth depot")).toEqual({
      site: "Truth depot",
      ...depot.sync,
      ...depot.contact,
      total: depot.total,
    });
    for (const path of [
      `/accounts/${accountId}`,
      `/accounts/${accountId}/registry/devices`,
      `/accounts/${accountId}/reports/compliance`,
    ])
      expect(await html(path, cookie), path).toMatch(
        /data-slot="counted-at">Counted at [^<]+ UTC: an account with this many radios/,
      );
    const registry = await html(`/accounts/${accountId}/registry/devices`, cookie);
    expect(registry).toMatch(new RegExp(`data-count="inSync">.*?>${oracle.sync.inSync}</a>`));
    // The filtered list reads each radio's state as the snapshot counted it (radio_sync_states).
    const listed = async (sync: SyncState) =>
      ((await html(`/accounts/${accountId}/registry/devices?sync=${sync}`, cookie)).match(/<td[^>]*data-sync="/g) ?? []).length;
    for (const sync of syncStates) expect(await listed(sync), sync).toBe(oracle.sync[sync]);

    // A pending radio applies the deployment: the snapshot says so at its next count, not before.
    const [uid] = [...expected].find(([, r]) => r.sync === "pending" && r.contact === "recent") ?? [];
    expect(uid).toBeDefined();
    expect((await radio(`/deployments/${deploymentId}/status`, uid ?? "", { state: "applied" })).status).toBe(200);
    const was = expected.get(uid ?? "");
    if (was) expected.set(uid ?? "", { ...was, sync: "inSync" });
    expect(data(await call<SyncCounts>("deployments.drift", { accountId }, cookie, "GET")).sync.inSync).toBe(oracle.sync.inSync);
    expect(await listed("inSync")).toBe(oracle.sync.inSync);
    const later = new Date(countedAt.getTime() + 60_000);
    await refreshSyncSnapshots(env.DB, later, { fromRadios: expected.size });
    expect(data(await call("deployments.drift", { accountId }, cookie, "GET"))).toEqual({
      ...oracleCounts(),
      asOf: later.toISOString(),
    });
    expect(await listed("inSync")).toBe(oracle.sync.inSync + 1);
    expect(await listed("pending")).toBe(oracle.sync.pending - 1);
    // Not due again within its interval (a minute per 200,000 radios): nothing is counted.
    expect(await refreshSyncSnapshots(env.DB, new Date(later.getTime() + 30_000), { fromRadios: expected.size })).toEqual({
      accounts: 1,
      refreshed: 0,
      dropped: 0,
    });

    // Below the size again: no snapshot, counted live, no time said.
    expect(await refreshSyncSnapshots(env.DB, later, { fromRadios: expected.size + 1 })).toEqual({
      accounts: 0,
      refreshed: 0,
      dropped: 1,
    });
    expect(await env.DB.prepare("SELECT count(*) AS n FROM radio_sync_states").first("n")).toBe(0);
    expect(data(await call("deployments.drift", { accountId }, cookie, "GET"))).toEqual(oracleCounts());
    expect(await html(`/accounts/${accountId}`, cookie)).not.toContain('data-slot="counted-at"');
    // About twenty pages and calls: more than the default 5 s when the machine is loaded.
  }, 30_000);
});
