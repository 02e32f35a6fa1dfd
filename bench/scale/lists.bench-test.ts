import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "../../tests/worker/fixtures";
import { cursorAt, timeOf } from "./request-timing";

// Lists at 100, 10,000 and 100,000 rows (DESIGN.md §8), and what the main pages cost against
// a signed-in no-op. Each figure is the median time of a whole request through the Worker's
// app in workerd (session lookup, procedures, D1, server rendering), one request at a time;
// throughput relative to the no-op is the inverse of the time ratio. Rows are generated into
// this run's own D1 and grown in place: 100, then 10,000, then 100,000. The printed
// BENCH_JSON line is what bench/list-scale.mjs writes to bench/results.

const SCALES = [100, 10_000, 100_000];
const RUNS = 15;

/** Grows the tables to `rows`: accounts over a tree of 10 organizations, sites and log entries in one account each. */
async function grow(from: number, to: number, ids: { orgs: string[]; sitesAccount: string; logAccount: string; orgId: string }) {
  const range = `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)`;
  // 1 in 100 names is a "Harbor Ferry" (the search); the rest are "Fleet …" (the switcher's search).
  await env.DB.prepare(
    `${range} INSERT INTO accounts (id, org_id, name, subscription_level, timezone, updated_at)
     SELECT printf('acc_bench_%06d', i), json_extract(?, printf('$[%d]', i % 10)),
            CASE WHEN i % 100 = 0 THEN printf('Harbor Ferry %06d', i) ELSE printf('Fleet %06d', i) END,
            CASE WHEN i % 3 = 0 THEN 'advanced' ELSE 'essential' END, 'UTC',
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d seconds', (i * 7919) % 10000000))
     FROM n`,
  )
    .bind(from + 1, to, JSON.stringify(ids.orgs))
    .run();
  await env.DB.prepare(
    `${range} INSERT INTO sites (id, account_id, name, address, updated_at)
     SELECT printf('site_bench_%06d', i), ?,
            CASE WHEN i % 100 = 0 THEN printf('Ferry Terminal %06d', i) ELSE printf('Depot %06d', i) END,
            printf('%d Harbor Road', i),
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d seconds', (i * 7919) % 10000000))
     FROM n`,
  )
    .bind(from + 1, to, ids.sitesAccount)
    .run();
  await env.DB.prepare(
    `${range} INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     SELECT printf('act_bench_%06d', i), ?, ?, 'usr_bench', CASE WHEN i % 100 = 0 THEN 'ferry@example.com' ELSE 'fleet@example.com' END,
            'update', 'site', 'site_x', 'Depot', '[]', 1,
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d seconds', i))
     FROM n`,
  )
    .bind(from + 1, to, ids.orgId, ids.logAccount)
    .run();
}

it("measures lists at 100, 10,000 and 100,000 rows, and page cost against a no-op", async () => {
  const orgId = await createOrganization("Bench dealer");
  const orgs = [orgId];
  for (let n = 1; n < 10; n += 1) orgs.push(await createOrganization(`Bench customer ${n}`, orgId));
  // The accounts that hold the sites and the log sit in an organization of their own, outside the tree listed.
  const side = await createOrganization("Bench side");
  const sitesAccount = await createAccount(side, "Sites bench");
  const logAccount = await createAccount(side, "Log bench");
  const cookie = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
  const sideCookie = await sessionCookie((await createUser({ orgId: side, role: "owner" })).email);
  const ids = { orgs, sitesAccount, logAccount, orgId: side };

  const scale: Record<string, Record<number, number>> = {};
  const record = (label: string, rows: number, ms: number) => {
    scale[label] ??= {};
    (scale[label] as Record<number, number>)[rows] = ms;
  };
  let grown = 0;
  for (const rows of SCALES) {
    await grow(grown, rows, ids);
    grown = rows;
    await env.DB.prepare("PRAGMA optimize").run();
    const half = Math.floor(rows / 2);
    const accountsDeep = await cursorAt(
      "SELECT name, account_rowid FROM account_scopes WHERE org_id = ? ORDER BY name, account_rowid LIMIT 1 OFFSET ?",
      orgId,
      half,
    );
    const sitesDeep = await cursorAt(
      "SELECT name, rowid FROM sites WHERE account_id = ? ORDER BY name COLLATE NOCASE, rowid LIMIT 1 OFFSET ?",
      sitesAccount,
      half,
    );
    const logDeep = await cursorAt(
      "SELECT created_at, id FROM activity_logs WHERE account_id = ? ORDER BY created_at DESC, id DESC LIMIT 1 OFFSET ?",
      logAccount,
      half,
    );
    const sites = `/accounts/${sitesAccount}/sites`;
    const log = `/accounts/${logAccount}/activity-logs`;
    const switcher = (search: string) => `/api/accounts.publicList?input=${encodeURIComponent(JSON.stringify({ search }))}`;
    const cases: [string, string, string][] = [
      ["accounts: page 1", "/accounts", cookie],
      ["accounts: deep page (row N/2)", `/accounts?after=${accountsDeep}`, cookie],
      ["accounts: search 'ferry' (1 in 100 match)", "/accounts?q=ferry", cookie],
      ["accounts: sort name desc", "/accounts?sort=-name", cookie],
      ["accounts: sort updated", "/accounts?sort=updated", cookie],
      ["accounts: sort updated desc", "/accounts?sort=-updated", cookie],
      ["accounts: sort level", "/accounts?sort=level", cookie],
      ["accounts: sort level desc", "/accounts?sort=-level", cookie],
      ["switcher: search 'fleet'", switcher("fleet"), cookie],
      ["switcher: search 'ferry'", switcher("ferry"), cookie],
      ["switcher: no search", switcher(""), cookie],
      ["sites: page 1", sites, sideCookie],
      ["sites: deep page (row N/2)", `${sites}?after=${sitesDeep}`, sideCookie],
      ["sites: search 'ferry'", `${sites}?q=ferry`, sideCookie],
      ["sites: sort name desc", `${sites}?sort=-name`, sideCookie],
      ["sites: sort updated", `${sites}?sort=updated`, sideCookie],
      ["sites: sort updated desc", `${sites}?sort=-updated`, sideCookie],
      ["activity log: page 1", log, sideCookie],
      ["activity log: deep page (row N/2)", `${log}?cursor=${logDeep}`, sideCookie],
      ["activity log: actor 'ferry'", `${log}?actor=ferry`, sideCookie],
    ];
    for (const [label, path, who] of cases) record(label, rows, await timeOf(path, who, RUNS));
  }

  // Server cost at the largest scale: each main page against the signed-in no-op, same run.
  const noop = await timeOf("/api/me", cookie, RUNS);
  const cost: Record<string, number> = { "no-op (/api/me, session lookup only)": noop };
  cost["/accounts"] = await timeOf("/accounts", cookie, RUNS);
  cost["account home"] = await timeOf(`/accounts/${sitesAccount}`, sideCookie, RUNS);
  cost["sites list"] = await timeOf(`/accounts/${sitesAccount}/sites`, sideCookie, RUNS);
  cost["activity log"] = await timeOf(`/accounts/${logAccount}/activity-logs`, sideCookie, RUNS);

  console.log(`BENCH_JSON ${JSON.stringify({ runs: RUNS, scales: SCALES, scale, cost })}`);
  expect(Object.keys(scale).length).toBeGreaterThan(0);
});
