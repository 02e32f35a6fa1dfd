import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/router";
import { permissionsOf } from "@/server/auth/roles";
import type { Bindable } from "@/server/data/db";
import { COUNT_CAP, decodeCursor, encodeCursor } from "@/server/data/keyset";
import { listLocations } from "@/server/data/locations";
import { listSites, type SiteSort } from "@/server/data/sites";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";
import { plan, type Recorded, recording, timed } from "./scale-kit";

// 10,000 sites in one account (and 10,000 locations in another, over 100 sites): how long a
// page of sites.list takes (first, middle at offset 5,000, a search, newest first) as the
// procedure and as the whole SSR page, and which index SQLite's plan uses. Figures are printed,
// not asserted (DESIGN.md §6: budgets live in benchmarks); the plan is asserted.
// Run: npx vitest run tests/worker/sites-scale.test.ts

const ROWS = 10_000;
const RUNS = 5;
let orgId: string;
let accountId: string;
let locationsAccount: string;
let cookie: string;

const timedRuns = (run: () => Promise<unknown>) => timed(run, RUNS);

function caller() {
  return createCaller({
    env,
    db: env.DB,
    user: {
      id: "usr_scale",
      sessionId: "ses_scale",
      email: "scale@example.com",
      name: "Scale",
      orgId,
      role: "owner",
      language: "en",
      permissions: permissionsOf("owner"),
    },
    language: "en",
    origin: ORIGIN,
    t: translatorFor("en", defaultSettings.brandNamespace),
  });
}

beforeAll(async () => {
  orgId = await createOrganization("Big Dealer");
  accountId = await createAccount(orgId, "Ten Thousand Sites");
  locationsAccount = await createAccount(orgId, "Ten Thousand Locations");
  // One recursive INSERT … SELECT each: 1 site in 100 is a "Ferry …"; update times spread out.
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO sites (id, account_id, name, address, updated_at)
     SELECT printf('site_scale_%05d', i), ?,
            CASE WHEN i % 100 = 0 THEN printf('Ferry Terminal %05d', i) ELSE printf('Depot %05d', i) END,
            printf('%d Harbor Road', i),
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d minutes', (i * 7919) % 100000))
     FROM n`,
  )
    .bind(ROWS, accountId)
    .run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < 100)
     INSERT INTO sites (id, account_id, name) SELECT printf('site_loc_%03d', i), ?, printf('Campus %03d', i) FROM n`,
  )
    .bind(locationsAccount)
    .run();
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO locations (id, account_id, site_id, name, updated_at)
     SELECT printf('loc_scale_%05d', i), ?, printf('site_loc_%03d', 1 + i % 100),
            CASE WHEN i % 100 = 0 THEN printf('Ferry Office %05d', i) ELSE printf('Room %05d', i) END,
            strftime('%Y-%m-%dT%H:%M:%fZ', '2025-01-01', printf('+%d minutes', (i * 7919) % 100000))
     FROM n`,
  )
    .bind(ROWS, locationsAccount)
    .run();
  cookie = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
});

/** The cursor of the row `offset` deep by name, as a "Next" link 200 pages in would carry. */
async function deepCursor(table: "sites" | "locations", scopeId: string, offset: number): Promise<Bindable[]> {
  const row = await env.DB.prepare(
    `SELECT name, rowid AS id FROM ${table} WHERE account_id = ? ORDER BY name COLLATE NOCASE, rowid LIMIT 1 OFFSET ?`,
  )
    .bind(scopeId, offset)
    .first<{ name: string; id: number }>();
  return [row?.name ?? "", row?.id ?? 0];
}

const cases: { label: string; search: string; sort: SiteSort; deep?: boolean; query: string }[] = [
  { label: "page 1 by name", search: "", sort: "name", query: "" },
  { label: "5,000 rows deep by name", search: "", sort: "name", deep: true, query: "?after=" },
  { label: "search 'ferry'", search: "ferry", sort: "name", query: "?q=ferry" },
  { label: "page 1 newest first", search: "", sort: "-updated", query: "?sort=-updated" },
];

describe(`sites.list with ${ROWS.toLocaleString("en")} sites in one account`, () => {
  it("pages quickly and prints the figures", async () => {
    const lines: string[] = [];
    const ms: Record<string, number> = {};
    const siteCursor = await deepCursor("sites", accountId, 5000);
    const locationCursor = await deepCursor("locations", locationsAccount, 5000);
    for (const entry of cases) {
      let total = "";
      const procedure = await timedRuns(async () => {
        const result = await caller().sites.list({
          accountId,
          search: entry.search,
          sort: entry.sort,
          after: entry.deep ? encodeCursor(siteCursor) : undefined,
          pageSize: 25,
        });
        total = `${result.total.count}${result.total.more ? "+" : ""}`;
        expect(result.items).toHaveLength(25);
      });
      const page = await timedRuns(async () => {
        const url = `/accounts/${accountId}/sites${entry.query}${entry.deep ? encodeCursor(siteCursor) : ""}`;
        const response = await request(url, { headers: { Cookie: cookie } });
        expect(response.status).toBe(200);
        await response.text();
      });
      const locations = await timedRuns(() =>
        listLocations(env.DB, {
          accountId: locationsAccount,
          search: entry.search,
          sort: entry.sort,
          limit: 25,
          cursor: entry.deep ? { direction: "after", values: locationCursor } : null,
        }),
      );
      ms[entry.label] = procedure;
      lines.push(
        `  ${entry.label.padEnd(24)} sites.list ${procedure.toFixed(1).padStart(6)} ms   GET page ${page.toFixed(1).padStart(6)} ms   listLocations ${locations.toFixed(1).padStart(6)} ms   total ${total}`,
      );
    }
    const deep = (ms["5,000 rows deep by name"] ?? 0) / Math.max(0.1, ms["page 1 by name"] ?? 0.1);
    console.log(
      `sites.list, ${ROWS} sites in one account, median of ${RUNS} runs (procedure = tenant check + rows + capped count; GET = whole SSR page)\n${lines.join("\n")}\n  deep / page 1: ${deep.toFixed(1)}x`,
    );
    const search = await caller().sites.list({ accountId, search: "ferry" });
    expect(search.total).toEqual({ count: ROWS / 100, more: false });
  }, 120_000);

  it("a search finds the same pages whether few rows match (read from the index) or most do", async () => {
    const expected = async (word: string, sort: SiteSort) => {
      const order = sort === "name" ? "name COLLATE NOCASE, rowid" : "updated_at DESC, rowid DESC";
      const rows = await env.DB.prepare(
        `SELECT id FROM sites WHERE account_id = ? AND (' ' || lower(name)) LIKE ? ORDER BY ${order} LIMIT 50`,
      )
        .bind(accountId, `% ${word}%`)
        .all<{ id: string }>();
      return rows.results.map((row) => row.id);
    };
    for (const [word, total] of [
      ["ferry", { count: ROWS / 100, more: false }],
      ["depot", { count: COUNT_CAP, more: true }],
    ] as const) {
      for (const sort of ["name", "-updated"] as const) {
        const want = await expected(word, sort);
        const ids = async (direction: "after" | "before" | null, cursor: string | null = null) => {
          const page = await listSites(env.DB, {
            accountId,
            search: word,
            sort,
            limit: 25,
            cursor: direction ? { direction, values: decodeCursor(cursor, 2) ?? [] } : null,
          });
          return { ...page, ids: page.items.map((site) => site._id) };
        };
        const first = await ids(null);
        expect(first.ids, `${word} by ${sort}`).toEqual(want.slice(0, 25));
        expect(first.total).toEqual(total);
        const next = await ids("after", first.next);
        expect(next.ids).toEqual(want.slice(25, 50));
        // "Previous" from the second page is the first page again.
        expect((await ids("before", next.previous)).ids).toEqual(want.slice(0, 25));
      }
    }
    // Past the last match the page is empty, and the count still says how many matched.
    const past = await listSites(env.DB, {
      accountId,
      search: "ferry",
      limit: 25,
      cursor: { direction: "after", values: ["zzz", 0] },
    });
    expect(past.items).toEqual([]);
    expect(past.total).toEqual({ count: ROWS / 100, more: false });
    const locations = await listLocations(env.DB, { accountId: locationsAccount, search: "ferry office", limit: 3 });
    expect(locations.items.map((location) => location.name)).toEqual([
      "Ferry Office 00100",
      "Ferry Office 00200",
      "Ferry Office 00300",
    ]);
    expect(locations.total).toEqual({ count: ROWS / 100, more: false });
  });

  it("finds the rows through the sites_account_name / locations_account_name indexes, with no temporary sort", async () => {
    const seen: Recorded[] = [];
    const siteCursor = await deepCursor("sites", accountId, 5000);
    const locationCursor = await deepCursor("locations", locationsAccount, 5000);
    for (const entry of cases) {
      await listSites(recording(env.DB, seen), {
        accountId,
        search: entry.search,
        sort: entry.sort,
        limit: 25,
        cursor: entry.deep ? { direction: "after", values: siteCursor } : null,
      });
      await listLocations(recording(env.DB, seen), {
        accountId: locationsAccount,
        search: entry.search,
        sort: entry.sort,
        limit: 25,
        cursor: entry.deep ? { direction: "after", values: locationCursor } : null,
      });
    }
    for (const recorded of seen) {
      const detail = await plan(recorded);
      console.log(`${recorded.sql.replace(/\s+/g, " ").slice(0, 150)}\n  ${detail.join("\n  ")}`);
      expect(detail.some((line) => /^SCAN (sites|locations)\b(?! USING)/.test(line))).toBe(false);
      if (recorded.sql.includes(`MATCH ? AND account_id = ? LIMIT ${COUNT_CAP + 1}`)) {
        // A search reads its matches from the FTS index, at most COUNT_CAP + 1, each checked
        // by rowid, and sorts only those.
        expect(detail.some((line) => /^SCAN (sites|locations)_fts VIRTUAL TABLE/.test(line))).toBe(true);
        expect(detail.some((line) => /^SEARCH (sites|locations) USING INTEGER PRIMARY KEY/.test(line))).toBe(true);
        continue;
      }
      expect(detail.some((line) => /USING (COVERING )?INDEX (sites|locations)_account_(name|updated)/.test(line))).toBe(true);
      if (!recorded.sql.includes("count(*)")) expect(detail.some((line) => line.includes("TEMP B-TREE"))).toBe(false);
      expect(recorded.sql).not.toContain("OFFSET");
    }
  });
});
