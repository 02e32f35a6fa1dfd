import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createOrganization, createUser, sessionCookie } from "./fixtures";
import { request } from "./helpers";

// Settings → Subscriptions by keyset pages (issue 10): its visible order kept (newest period
// first, then plan A–Z, then id) across pages, cursors that survive a deleted row, a count
// capped at 1,000, and cursors that are not ours refused with a translated 400.

type Shown = { id: string; plan: string; startsAt: string };
type ListAnswer = { items: Shown[]; next: string | null; previous: string | null; total: { count: number; more: boolean } };
type Answer<T> = { result?: { data: T }; error?: { code: number; message: string; data: { httpStatus: number } } };

const BAD_REQUEST = -32600;
const NOT_FOUND = -32004;

let customer: string;
let crowded: string;
let owner: string;
let outsider: string;

async function list(input: Record<string, unknown>, cookie = owner): Promise<Answer<ListAnswer>> {
  const response = await request(`/api/subscriptions.list?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { Cookie: cookie },
  });
  return response.json();
}

async function page(input: Record<string, unknown>): Promise<ListAnswer> {
  const answer = await list(input);
  if (!answer.result) throw new Error(`expected a page, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

/** Every subscription of the organization in the order the list shows, read straight from the table. */
async function expectedOrder(orgId: string): Promise<string[]> {
  const { results } = await env.DB.prepare(
    "SELECT id FROM subscriptions WHERE org_id = ? ORDER BY starts_at DESC, plan COLLATE NOCASE, id",
  )
    .bind(orgId)
    .all<{ id: string }>();
  return results.map((row) => row.id);
}

/** `count` subscriptions in one statement: four start days, plans that tie and differ only in case. */
async function insertSubscriptions(orgId: string, count: number, prefix: string) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?2)
     INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at)
     SELECT ?3 || printf('%05d', i), ?1,
            CASE i % 3 WHEN 0 THEN 'fleet ' || (i % 5) WHEN 1 THEN 'Fleet ' || (i % 5) ELSE 'Alpha' END,
            10, '2026-0' || (1 + i % 4) || '-01'
     FROM n`,
  )
    .bind(orgId, count, prefix)
    .run();
}

beforeAll(async () => {
  const dealer = await createOrganization("Paging Dealer");
  customer = await createOrganization("Paging Customer", dealer);
  crowded = await createOrganization("Crowded Customer", dealer);
  const other = await createOrganization("Paging Outsider");
  owner = await sessionCookie((await createUser({ orgId: dealer, role: "owner" })).email);
  outsider = await sessionCookie((await createUser({ orgId: other, role: "owner" })).email);
  await insertSubscriptions(customer, 60, "sub_page_");
  await insertSubscriptions(crowded, 1_005, "sub_many_");
});

describe("the subscriptions list by pages", () => {
  it("shows 25 at a time in the visible order, and every row once going forwards", async () => {
    const expected = await expectedOrder(customer);
    const first = await page({ orgId: customer });
    expect(first.items.map((item) => item.id)).toEqual(expected.slice(0, 25));
    expect(first.previous).toBeNull();
    expect(first.total).toEqual({ count: 60, more: false });

    const seen = [...first.items.map((item) => item.id)];
    let next = first.next;
    while (next) {
      const more = await page({ orgId: customer, after: next });
      seen.push(...more.items.map((item) => item.id));
      next = more.next;
    }
    expect(seen).toEqual(expected);
  });

  it("goes back from page 2 to exactly page 1", async () => {
    const first = await page({ orgId: customer, pageSize: 10 });
    const second = await page({ orgId: customer, pageSize: 10, after: first.next });
    expect(second.previous).not.toBeNull();
    const back = await page({ orgId: customer, pageSize: 10, before: second.previous });
    expect(back.items.map((item) => item.id)).toEqual(first.items.map((item) => item.id));
    expect(back.previous).toBeNull();
  });

  it("goes on from a stale cursor whose row was removed since", async () => {
    const first = await page({ orgId: customer, pageSize: 10 });
    const expected = await expectedOrder(customer);
    const last = first.items.at(-1);
    if (!last) throw new Error("no rows");
    await env.DB.prepare("DELETE FROM subscriptions WHERE id = ?").bind(last.id).run();
    const second = await page({ orgId: customer, pageSize: 10, after: first.next });
    expect(second.items.map((item) => item.id)).toEqual(expected.slice(10, 20));
  });

  it("counts up to 1,000 and says there are more", async () => {
    const first = await page({ orgId: crowded });
    expect(first.total).toEqual({ count: 1_000, more: true });
    expect(first.items).toHaveLength(25);
  });

  it("refuses a cursor that is not one of ours with a translated 400", async () => {
    const wrongArity = btoa(JSON.stringify(["2026-01-01", "x"])).replace(/=+$/, "");
    const wrongTypes = btoa(JSON.stringify([{}, [], true])).replace(/=+$/, "");
    for (const cursor of ["not a cursor", "%%%", wrongArity, wrongTypes, "A".repeat(999)]) {
      const answer = await list({ orgId: customer, after: cursor });
      expect(answer.error?.code).toBe(BAD_REQUEST);
      expect(answer.error?.message).toBe("That page link is not valid any more. Start again from the first page.");
    }
    const before = await list({ orgId: customer, before: "' OR 1=1 --" });
    expect(before.error?.code).toBe(BAD_REQUEST);
    const tooLong = await list({ orgId: customer, after: "A".repeat(1_001) });
    expect(tooLong.error?.data.httpStatus).toBe(400);
  });

  it("answers NOT_FOUND for another tenant's organization, cursor or not", async () => {
    const first = await page({ orgId: customer, pageSize: 5 });
    expect((await list({ orgId: customer }, outsider)).error?.code).toBe(NOT_FOUND);
    expect((await list({ orgId: customer, after: first.next }, outsider)).error?.code).toBe(NOT_FOUND);
  });

  it("links the next and previous pages on the screen, and a bad cursor there is a 400 page", async () => {
    const base = `/settings/subscriptions?orgId=${customer}`;
    const html = await (await request(base, { headers: { Cookie: owner } })).text();
    expect(html).toMatch(/<p role="status"[^>]*>59 subscriptions<\/p>/);
    const next = /<a href="([^"]*)" rel="next"/.exec(html)?.[1]?.replaceAll("&amp;", "&");
    expect(next).toMatch(new RegExp(`^/settings/subscriptions\\?orgId=${customer}&after=`));
    const second = await request(next ?? "", { headers: { Cookie: owner } });
    expect(second.status).toBe(200);
    expect(await second.text()).toMatch(/<a href="[^"]*before=[^"]*" rel="prev"/);

    const bad = await request(`${base}&after=garbage`, { headers: { Cookie: owner } });
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("That page link is not valid any more.");
  });
});
