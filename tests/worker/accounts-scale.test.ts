import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { type AccountSort, listAccounts } from "@/server/data/accounts";
import { createOrganization, createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// The accounts list with 10,000 accounts in one organization tree: how long a page takes
// (first, middle at offset 5,000, a search, the newest first) through the data module and as
// the whole /accounts page, and which indexes SQLite's plan uses. Figures are printed, not
// asserted (DESIGN.md §6: budgets live in benchmarks); the plan is asserted.

const ACCOUNTS = 10_000;
const RUNS = 9;
let root: string;
let cookie: string;

type Recorded = { sql: string; params: unknown[] };

/** A D1 binding that remembers the statements it prepares, to explain them afterwards. */
function recording(db: D1Database, seen: Recorded[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property !== "prepare") return Reflect.get(target, property);
      return (sql: string) => {
        const statement = target.prepare(sql);
        return new Proxy(statement, {
          get(inner, name) {
            if (name !== "bind") return Reflect.get(inner, name);
            return (...params: unknown[]) => {
              seen.push({ sql, params });
              return inner.bind(...params);
            };
          },
        });
      };
    },
  });
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

async function timed(run: () => Promise<unknown>): Promise<number> {
  const times: number[] = [];
  await run(); // warm the statement cache and pages
  for (let n = 0; n < RUNS; n += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

async function plan(recorded: Recorded): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${recorded.sql}`)
    .bind(...(recorded.params as (string | number)[]))
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}

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

describe(`accounts list with ${ACCOUNTS.toLocaleString("en")} accounts`, () => {
  const cases: { label: string; search: string; sort: AccountSort; offset: number; url: string }[] = [
    { label: "page 1 by name", search: "", sort: "name", offset: 0, url: "/accounts" },
    { label: "offset 5,000 by name", search: "", sort: "name", offset: 5000, url: "/accounts?page=201" },
    { label: "search 'ferry'", search: "ferry", sort: "name", offset: 0, url: "/accounts?q=ferry" },
    { label: "page 1 newest first", search: "", sort: "-updated", offset: 0, url: "/accounts?sort=-updated" },
  ];

  it("pages quickly and prints the figures", async () => {
    const figures: Record<string, { query: string; page: string; total: number; ms: number }> = {};
    for (const entry of cases) {
      let total = 0;
      const query = await timed(async () => {
        const result = await listAccounts(env.DB, {
          orgId: root,
          search: entry.search,
          sort: entry.sort,
          limit: 25,
          offset: entry.offset,
        });
        total = result.total;
        expect(result.items).toHaveLength(entry.search ? 25 : 25);
      });
      const page = await timed(async () => {
        const response = await request(entry.url, { headers: { Cookie: cookie } });
        expect(response.status).toBe(200);
        await response.text();
      });
      figures[entry.label] = { query: `${query.toFixed(1)} ms`, page: `${page.toFixed(1)} ms`, total, ms: query };
    }
    const lines = Object.entries(figures).map(
      ([label, f]) =>
        `  ${label.padEnd(22)} listAccounts ${f.query.padStart(9)}   GET page ${f.page.padStart(9)}   total ${f.total}`,
    );
    // A ratio survives a busy machine better than milliseconds do.
    const deep = (figures["offset 5,000 by name"]?.ms ?? 0) / Math.max(1, figures["page 1 by name"]?.ms ?? 1);
    console.log(
      `accounts list, ${ACCOUNTS} accounts, median of ${RUNS} runs (listAccounts = rows + count; GET = whole SSR page)\n${lines.join("\n")}\n  offset 5,000 / page 1: ${deep.toFixed(1)}x`,
    );
    expect(figures["page 1 by name"]?.total).toBe(ACCOUNTS);
    expect(figures["search 'ferry'"]?.total).toBe(ACCOUNTS / 100);
  });

  it("finds the rows through the accounts_org_name index", async () => {
    const seen: Recorded[] = [];
    for (const entry of cases) {
      await listAccounts(recording(env.DB, seen), {
        orgId: root,
        search: entry.search,
        sort: entry.sort,
        limit: 25,
        offset: entry.offset,
      });
    }
    for (const recorded of seen) {
      const detail = await plan(recorded);
      console.log(`${recorded.sql.replace(/\s+/g, " ").slice(-110)}\n  ${detail.join("\n  ")}`);
      expect(detail.some((line) => line.includes("accounts_org_name"))).toBe(true);
      expect(detail.some((line) => /^SCAN accounts\b(?! USING)/.test(line))).toBe(false);
    }
  });
});
