import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/router";
import { permissionsOf } from "@/server/auth/roles";
import type { SessionUser } from "@/server/auth/sessions";
import { listProfiles } from "@/server/data/profiles";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization } from "./fixtures";
import { ORIGIN } from "./helpers";

// profiles.list pages by cursor (keyset, no OFFSET), searches through profiles_fts and counts
// up to the cap: every sort walks every profile once, "Previous" comes back to where it was,
// a cursor that is not ours starts over, and another tenant's account stays NOT_FOUND.

let orgId: string;
let accountId: string;
let templateOrg: string;
const types = ["device", "channels", "contacts", "buttons"] as const;

function caller(org: string) {
  const user: SessionUser = {
    id: "usr_paging",
    sessionId: "ses_paging",
    email: "viewer@paging.test",
    name: "Viewer",
    orgId: org,
    role: "viewer",
    language: "en",
    permissions: permissionsOf("viewer"),
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

beforeAll(async () => {
  orgId = await createOrganization("Paging dealer");
  accountId = await createAccount(orgId, "Paging fleet");
  templateOrg = await createOrganization("Template dealer");
  // 30 profiles, names with ties in case, same update instants, one "Ferry" in ten.
  const rows = Array.from({ length: 30 }, (_, n) => ({
    id: `prf_paging_${String(n).padStart(2, "0")}`,
    type: types[n % 4],
    name: n % 10 === 0 ? `Harbor Ferry ${n}` : `${n % 2 ? "depot" : "Depot"} ${String(n % 7)}`,
    updated: `2026-02-0${1 + (n % 5)}T00:00:00.000Z`,
  }));
  await env.DB.batch(
    rows.flatMap((row) => [
      env.DB.prepare(
        "INSERT INTO profiles (id, org_id, account_id, type, name, settings, updated_at) VALUES (?, ?, ?, ?, ?, '{}', ?)",
      ).bind(row.id, orgId, accountId, row.type, `${row.name} ${row.id.slice(-2)}`, row.updated),
      env.DB.prepare(
        "INSERT INTO profiles (id, org_id, account_id, type, name, settings, updated_at) VALUES (?, ?, NULL, 'device', ?, '{}', ?)",
      ).bind(`${row.id}_tpl`, templateOrg, `Template ${row.id.slice(-2)}`, row.updated),
    ]),
  );
});

async function walk(input: Record<string, unknown>, org = orgId): Promise<string[]> {
  const seen: string[] = [];
  let after: string | undefined;
  for (let n = 0; n < 20; n += 1) {
    const page = await caller(org).profiles.list({ ...input, pageSize: 7, after });
    seen.push(...page.items.map((item) => item.id));
    if (!page.next) break;
    after = page.next;
  }
  return seen;
}

describe("profiles.list by cursor", () => {
  for (const sort of ["name", "-name", "type", "-type", "updated", "-updated"] as const) {
    it(`sort ${sort}: every profile once, in order`, async () => {
      const all = await caller(orgId).profiles.list({ accountId, sort, pageSize: 100 });
      expect(all.items).toHaveLength(30);
      expect(all.total).toEqual({ count: 30, more: false });
      expect(await walk({ accountId, sort })).toEqual(all.items.map((item) => item.id));
    });
  }

  it("Previous comes back to the page before", async () => {
    const first = await caller(orgId).profiles.list({ accountId, pageSize: 7 });
    expect(first.previous).toBeNull();
    const second = await caller(orgId).profiles.list({ accountId, pageSize: 7, after: first.next ?? "" });
    const back = await caller(orgId).profiles.list({ accountId, pageSize: 7, before: second.previous ?? "" });
    expect(back.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
  });

  it("a type filter pages within the type; templates page within their organization", async () => {
    const channels = await walk({ accountId, type: "channels", sort: "-updated" });
    expect(channels).toHaveLength(8);
    expect(await walk({ orgId: templateOrg, type: "device" }, templateOrg)).toHaveLength(30);
  });

  it("searches names by word prefix, any case; typed FTS syntax is plain text", async () => {
    const ferry = await caller(orgId).profiles.list({ accountId, search: "ferr" });
    expect(ferry.items.map((item) => item.name).sort()).toEqual([
      "Harbor Ferry 0 00",
      "Harbor Ferry 10 10",
      "Harbor Ferry 20 20",
    ]);
    expect(ferry.total).toEqual({ count: 3, more: false });
    for (const hostile of ['"', "*", "NEAR(a b)", "-x:y", "^(", "%_"]) {
      const answer = await caller(orgId).profiles.list({ accountId, search: hostile });
      expect(answer.items).toEqual([]);
    }
  });

  it("a cursor that is not ours starts from the first page", async () => {
    const first = await caller(orgId).profiles.list({ accountId, pageSize: 7 });
    for (const after of ["not-a-cursor", "eyJ4IjoxfQ", "W10"]) {
      const page = await caller(orgId).profiles.list({ accountId, pageSize: 7, after });
      expect(page.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
    }
  });

  it("another tenant's account or templates answer NOT_FOUND", async () => {
    await expect(caller(templateOrg).profiles.list({ accountId })).rejects.toMatchObject({ code: "NOT_FOUND" });
    await expect(caller(orgId).profiles.list({ orgId: templateOrg })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });
});

describe("a deep page's query plan", () => {
  /** The plan of the page query `listProfiles` sends for this scope and cursor. */
  async function planOf(scope: { accountId: string } | { orgId: string }, cursor: [string, number]) {
    const seen: { sql: string; params: unknown[] }[] = [];
    const db = new Proxy(env.DB, {
      get(target, property) {
        if (property !== "prepare") return Reflect.get(target, property);
        return (sql: string) => {
          const statement = target.prepare(sql);
          return Object.assign(Object.create(statement), {
            bind: (...params: unknown[]) => {
              seen.push({ sql, params });
              return statement.bind(...params);
            },
          });
        };
      },
    });
    await listProfiles(db, { scope, type: "device", cursor: { direction: "after", values: cursor } });
    const page = seen.find((s) => s.sql.includes("ORDER BY"));
    if (!page) throw new Error("no page query");
    const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${page.sql}`)
      .bind(...(page.params as (string | number)[]))
      .all<{ detail: string }>();
    return results.map((row) => row.detail).join("\n");
  }

  it("seeks the index at the cursor's name instead of walking the scope from its start", async () => {
    // (name, rowid) > (?, ?) alone is no index range (a rowid is not an index column): the
    // leading key's own bound (keyset.ts) is what makes page 2,000 cost what page 2 does.
    expect(await planOf({ orgId: templateOrg }, ["m", 1])).toMatch(
      /USING INDEX profiles_template_type_name \(org_id=\? AND type=\? AND name>\?\)/,
    );
    expect(await planOf({ accountId }, ["m", 1])).toMatch(/USING INDEX \w+ \(account_id=\? AND type=\? AND name>\?\)/);
  });
});
