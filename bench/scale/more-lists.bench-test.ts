import { env } from "cloudflare:test";
import { expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "../../tests/worker/fixtures";
import { cursorAt, timeOf } from "./request-timing";

// The lists moved to keyset paging after the first scale run (issue 10): an account's
// profiles, an organization's templates, an account's rules and the users of a tree, at 100,
// 10,000 and 100,000 rows, measured as lists.bench-test.ts does (median of whole requests).
// OFFSET_PAGING = true measures the same pages on a build that still pages with ?page=N (how
// the "before" figures were taken, on the commit before this one).

const OFFSET_PAGING = false;
const SCALES = [100, 10_000, 100_000];
const RUNS = 15;
const PAGE_SIZE = 25;

type Ids = { account: string; orgId: string; tree: string[] };

/** Grows profiles (one account), device templates (one organization), rules (one account) and users (over a tree of 10). */
async function grow(from: number, to: number, ids: Ids) {
  const range = `WITH RECURSIVE n(i) AS (SELECT ? UNION ALL SELECT i + 1 FROM n WHERE i < ?)`;
  const name = (word: string) => `CASE WHEN i % 100 = 0 THEN printf('Harbor Ferry %06d', i) ELSE printf('${word} %06d', i) END`;
  const updated = "strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d seconds', (i * 7919) % 10000000))";
  await env.DB.prepare(
    `${range} INSERT INTO profiles (id, org_id, account_id, type, name, settings, updated_at)
     SELECT printf('prf_bench_%06d', i), ?, ?, json_extract('["device","channels","contacts","buttons"]', printf('$[%d]', i % 4)),
            ${name("Radios")}, '{}', ${updated} FROM n`,
  )
    .bind(from + 1, to, ids.orgId, ids.account)
    .run();
  await env.DB.prepare(
    `${range} INSERT INTO profiles (id, org_id, account_id, type, name, settings, updated_at)
     SELECT printf('tpl_bench_%06d', i), ?, NULL, 'device', ${name("Template")}, '{}', ${updated} FROM n`,
  )
    .bind(from + 1, to, ids.orgId)
    .run();
  await env.DB.prepare(
    `${range} INSERT INTO rules (id, account_id, name, priority, enabled, conditions)
     SELECT printf('rul_bench_%06d', i), ?, ${name("Rule")}, i, 1, '{}' FROM n`,
  )
    .bind(from + 1, to, ids.account)
    .run();
  await env.DB.prepare(
    `${range} INSERT INTO users (id, org_id, email, name, role)
     SELECT printf('usr_bench_%06d', i), json_extract(?, printf('$[%d]', i % 10)), printf('user%06d@bench.example', i),
            ${name("Driver")}, 'viewer' FROM n`,
  )
    .bind(from + 1, to, JSON.stringify(ids.tree))
    .run();
}

it("measures profiles, templates, rules and users at 100, 10,000 and 100,000 rows", async () => {
  const orgId = await createOrganization("More lists dealer");
  const tree = [orgId];
  for (let n = 1; n < 10; n += 1) tree.push(await createOrganization(`More lists customer ${n}`, orgId));
  const account = await createAccount(orgId, "More lists fleet");
  const cookie = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
  const ids = { account, orgId, tree };

  const scale: Record<string, Record<number, number>> = {};
  let grown = 0;
  for (const rows of SCALES) {
    await grow(grown, rows, ids);
    grown = rows;
    await env.DB.prepare("PRAGMA optimize").run();
    const half = Math.floor(rows / 2);
    const deepPage = Math.floor(half / PAGE_SIZE) + 1;
    const profilesDeep = OFFSET_PAGING
      ? `page=${deepPage}`
      : `after=${await cursorAt(
          "SELECT name, rowid FROM profiles WHERE account_id = ? ORDER BY name COLLATE NOCASE, rowid LIMIT 1 OFFSET ?",
          account,
          half,
        )}`;
    const templatesDeep = OFFSET_PAGING
      ? `page=${deepPage}`
      : `after=${await cursorAt(
          "SELECT name, rowid FROM profiles WHERE account_id IS NULL AND org_id = ? AND type = 'device' ORDER BY name COLLATE NOCASE, rowid LIMIT 1 OFFSET ?",
          orgId,
          half,
        )}`;
    const usersDeep = OFFSET_PAGING
      ? `page=${deepPage}`
      : `after=${await cursorAt(
          "SELECT name, email FROM users WHERE org_id IN (SELECT id FROM organizations WHERE id = ?1 OR parent_id = ?1) ORDER BY name COLLATE NOCASE, email LIMIT 1 OFFSET ?2",
          orgId,
          half,
        )}`;
    const profiles = `/accounts/${account}/profiles`;
    const cases: [string, string][] = [
      ["profiles: page 1", profiles],
      ["profiles: deep page (row N/2)", `${profiles}?${profilesDeep}`],
      ["profiles: search 'ferry'", `${profiles}?q=ferry`],
      ["profiles: type device, sort updated desc", `${profiles}?type=device&sort=-updated`],
      ["profiles: sort name desc", `${profiles}?sort=-name`],
      ["profiles: sort type", `${profiles}?sort=type`],
      ["templates: page 1", "/devices/profiles/device"],
      ["templates: deep page (row N/2)", `/devices/profiles/device?${templatesDeep}`],
      ["rules: page 1", `/accounts/${account}/rules`],
      ["rules: deep page (row N/2)", `/accounts/${account}/rules?page=${deepPage}`],
      ["users (tree): page 1", "/settings/users"],
      ["users (tree): deep page (row N/2)", `/settings/users?${usersDeep}`],
      ["users (tree): search 'ferry'", "/settings/users?search=ferry"],
      ["users (one organization): page 1", `/settings/users?orgId=${tree[1]}`],
    ];
    for (const [label, path] of cases) {
      scale[label] ??= {};
      (scale[label] as Record<number, number>)[rows] = await timeOf(path, cookie, RUNS);
    }
  }
  console.log(`BENCH_JSON ${JSON.stringify({ runs: RUNS, scales: SCALES, scale, cost: {} })}`);
  expect(Object.keys(scale).length).toBeGreaterThan(0);
});
