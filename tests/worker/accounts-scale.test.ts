import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { type AccountSort, listAccounts } from "@/server/data/accounts";
import { COUNT_CAP, decodeCursor, encodeCursor } from "@/server/data/keyset";
import { createOrganization, createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";
import { plan, type Recorded, recording, timed } from "./scale-kit";

// The accounts list with 10,000 accounts in one organization tree: how long a page takes
// (first, 5,000 rows deep by cursor, a search, the newest first, by level) through the data
// module and as the whole /accounts page, and which indexes SQLite's plan uses. Figures are printed, not
// asserted (DESIGN.md §6: budgets live in benchmarks); the plan is asserted.

const ACCOUNTS = 10_000;
const RUNS = 9;
let root: string;
let cookie: string;

const timedRuns = (run: () => Promise<unknown>) => timed(run, RUNS);

beforeAll(async () => {
  root = await createOrganization("Big Dealer");
  const customers: string[] = [];
  for (let n = 0; n < 9; n += 1) customers.push(await createOrganization(`Customer ${n}`, root));
  const orgs = [root, ...customers];
  // One recursive INSERT … SELECT: 10,000 accounts over the 10 organizations, 1 in 100 a "Ferry".
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO accounts (id, org_id, name, subscription_level, timezone, updated_at)
     SELECT printf('acc_scale_%05d', i),
            json_extract(?, printf('$[%d]', i % 10)),
            CASE WHEN i % 100 = 0 THEN printf('Harbor Ferry %05d', i) ELSE printf('Fleet %05d', i) END,
            CASE WHEN i % 3 = 0 THEN 'advanced' ELSE 'essential' END,
            'UTC',
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d minutes', (i * 7919) % 100000))
     FROM n`,
  )
    .bind(ACCOUNTS, JSON.stringify(orgs))
    .run();
  cookie = await sessionCookie((await createUser({ orgId: root, role: "owner" })).email);
});

/** The cursor of the row at `offset` in name order, as a "Next" link 200 pages deep would carry. */
async function deepCursor(offset: number): Promise<string> {
  const row = await env.DB.prepare(
    "SELECT name, account_rowid FROM account_scopes WHERE org_id = ? ORDER BY name, account_rowid LIMIT 1 OFFSET ?",
  )
    .bind(root, offset)
    .first<{ name: string; account_rowid: number }>();
  return encodeCursor([row?.name ?? "", row?.account_rowid ?? 0]);
}

describe(`accounts list with ${ACCOUNTS.toLocaleString("en")} accounts`, () => {
  type Case = { label: string; search: string; sort: AccountSort; deep?: boolean; url: string };
  const cases: Case[] = [
    { label: "page 1 by name", search: "", sort: "name", url: "/accounts" },
    { label: "5,000 rows deep by name", search: "", sort: "name", deep: true, url: "/accounts?after=" },
    { label: "search 'ferry'", search: "ferry", sort: "name", url: "/accounts?q=ferry" },
    { label: "page 1 newest first", search: "", sort: "-updated", url: "/accounts?sort=-updated" },
    { label: "page 1 by level", search: "", sort: "-level", url: "/accounts?sort=-level" },
  ];

  it("pages quickly and prints the figures", async () => {
    const cursor = await deepCursor(5000);
    const figures: Record<string, { query: string; page: string; total: string; ms: number }> = {};
    for (const entry of cases) {
      let total = "";
      const query = await timedRuns(async () => {
        const result = await listAccounts(env.DB, {
          orgId: root,
          search: entry.search,
          sort: entry.sort,
          limit: 25,
          cursor: entry.deep ? { direction: "after", values: decodeCursor(cursor, 2) ?? [] } : null,
        });
        total = `${result.total.count}${result.total.more ? "+" : ""}`;
        expect(result.items).toHaveLength(25);
      });
      const page = await timedRuns(async () => {
        const response = await request(entry.deep ? entry.url + cursor : entry.url, { headers: { Cookie: cookie } });
        expect(response.status).toBe(200);
        await response.text();
      });
      figures[entry.label] = { query: `${query.toFixed(1)} ms`, page: `${page.toFixed(1)} ms`, total, ms: query };
    }
    const lines = Object.entries(figures).map(
      ([label, f]) =>
        `  ${label.padEnd(24)} listAccounts ${f.query.padStart(9)}   GET page ${f.page.padStart(9)}   total ${f.total}`,
    );
    const deep = (figures["5,000 rows deep by name"]?.ms ?? 0) / Math.max(0.01, figures["page 1 by name"]?.ms ?? 1);
    console.log(
      `accounts list, ${ACCOUNTS} accounts, median of ${RUNS} runs (listAccounts = rows + capped count in one batch; GET = whole SSR page)\n${lines.join("\n")}\n  deep / page 1: ${deep.toFixed(1)}x`,
    );
    // Counting stops at 1,000: "1000+" for the whole tree, exact for the 100 ferries.
    expect(figures["page 1 by name"]?.total).toBe("1000+");
    expect(figures["search 'ferry'"]?.total).toBe(String(ACCOUNTS / 100));
  }, 120_000);

  it("a search finds the same page whether few accounts match (read from the index) or most do", async () => {
    const expected = async (word: string, sort: "name" | "-updated", own = false) => {
      const order = sort === "name" ? "a.name COLLATE NOCASE, a.rowid" : "a.updated_at DESC, a.rowid DESC";
      const rows = await env.DB.prepare(
        `SELECT a.id FROM accounts a WHERE ${own ? "a.org_id = ?" : "a.org_id IN (SELECT org_id FROM organization_ancestors WHERE ancestor_id = ?)"}
           AND (' ' || lower(a.name) || ' ') LIKE ? ORDER BY ${order} LIMIT 25`,
      )
        .bind(root, `% ${word}%`)
        .all<{ id: string }>();
      return rows.results.map((row) => row.id);
    };
    for (const [word, count, more] of [
      ["ferry", ACCOUNTS / 100, false],
      ["fleet", 1000, true],
    ] as const) {
      for (const sort of ["name", "-updated"] as const) {
        const page = await listAccounts(env.DB, { orgId: root, search: word, sort, limit: 25 });
        expect(
          page.items.map((account) => account._id),
          `${word} by ${sort}`,
        ).toEqual(await expected(word, sort));
        expect(page.total).toEqual({ count, more });
        if (!page.next) throw new Error(`${word}: no next page`);
        // The next page continues where this one ended.
        const next = await listAccounts(env.DB, {
          orgId: root,
          search: word,
          sort,
          limit: 25,
          cursor: { direction: "after", values: decodeCursor(page.next, 2) ?? [] },
        });
        expect(next.items[0]?._id).not.toBe(page.items[24]?._id);
        expect(next.items).toHaveLength(25);
      }
      // The organization's own accounts only.
      const own = await listAccounts(env.DB, { orgId: root, includeDescendants: false, search: word, limit: 25 });
      expect(own.items.map((account) => account._id)).toEqual(await expected(word, "name", true));
    }
  });

  it("reads one index range of account_scopes in the sort's order: no temporary sort, no OFFSET", async () => {
    const seen: Recorded[] = [];
    const cursor = decodeCursor(await deepCursor(5000), 2) ?? [];
    for (const entry of cases) {
      await listAccounts(recording(env.DB, seen), {
        orgId: root,
        search: entry.search,
        sort: entry.sort,
        limit: 25,
        cursor: entry.deep ? { direction: "after", values: cursor } : null,
      });
    }
    for (const recorded of seen) {
      const detail = await plan(recorded);
      console.log(`${recorded.sql.replace(/\s+/g, " ").slice(-110)}\n  ${detail.join("\n  ")}`);
      expect(detail.some((line) => /^SEARCH s USING/.test(line))).toBe(true);
      expect(detail.some((line) => /^SCAN a\b/.test(line))).toBe(false);
      // A search scans and sorts only the matches it read from the FTS index (materialized as
      // `s`), at most COUNT_CAP + 1 of them, whatever the number of accounts; nothing else is
      // scanned or sorted.
      const boundedSort = recorded.sql.includes(`MATCH ? LIMIT ${COUNT_CAP + 1}`);
      if (boundedSort) expect(detail).toContain("MATERIALIZE s");
      else expect(detail.some((line) => /^SCAN s\b/.test(line) || line.includes("TEMP B-TREE"))).toBe(false);
      expect(recorded.sql).not.toContain("OFFSET");
    }
  });
});
