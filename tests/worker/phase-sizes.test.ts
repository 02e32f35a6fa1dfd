import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bucketOf, bucketRange } from "@/schema/fleet/rollout";
import { phaseSizes, phaseSizesQuery } from "@/server/data/phase-sizes";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";
import { plan, timed } from "./scale-kit";

// The confirm page says how many radios each phase will hold before anything is confirmed
// (issue 23): for the default plan when it opens, for the plan as typed after "Count the radios
// per phase" (without JavaScript), from one grouped query on the bucket index.

let orgId = "";
let accountId = "";
let cookie = "";
let uids: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Phased fleet");
  await giveSeats(orgId, accountId, 60);
  uids = await registerRadios(orgId, accountId, "SIZE", 57);
  cookie = await sessionCookie(owner.email);
});

/** What each phase holds, counted radio by radio from the same hash. */
function expected(shares: number[]): number[] {
  return shares.map((_, i) => {
    const { from, to } = bucketRange(shares, i);
    return uids.filter((uid) => bucketOf(uid) >= from && bucketOf(uid) < to).length;
  });
}

const sizesOn = (html: string) =>
  [...(/data-slot="phase-sizes".*?<\/ol>/s.exec(html)?.[0] ?? "").matchAll(/<li>Phase (\d+): (\d+) radios?<\/li>/g)].map((m) =>
    Number(m[2]),
  );

describe("phase sizes on the confirm page", () => {
  it("shows the default plan's phases (5, 25, 100 %) when the page opens", async () => {
    const html = await (await request(`/accounts/${accountId}/confirm-deployment`, { headers: { Cookie: cookie } })).text();
    const sizes = sizesOn(html);
    expect(sizes).toEqual(expected([5, 25, 100]));
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(57);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deployments WHERE account_id = ?").bind(accountId).first()).toEqual({
      n: 0,
    });
  });

  it("counts the plan as typed without JavaScript, and confirms nothing", async () => {
    const form = {
      planKind: "phases",
      shares: "50, 100",
      successPercent: "90",
      successAction: "next",
      errorKind: "count",
      errorValue: "5",
      errorMinimum: "0",
      waitMinutes: "0",
      timeoutMinutes: "1440",
      switchover: "delivery",
      maxDelayMinutes: "60",
      intent: "count",
    };
    const answer = await postForm(`/accounts/${accountId}/confirm-deployment`, form, { Cookie: cookie });
    expect(answer.status).toBe(200);
    const html = await answer.text();
    expect(sizesOn(html)).toEqual(expected([50, 100]));
    expect(html).toContain('value="50, 100"');
    expect(await env.DB.prepare("SELECT count(*) AS n FROM deployments WHERE account_id = ?").bind(accountId).first()).toEqual({
      n: 0,
    });
    // A plan that does not parse is refused on its field, as a confirm would be.
    const bad = await postForm(`/accounts/${accountId}/confirm-deployment`, { ...form, shares: "60, 40" }, { Cookie: cookie });
    expect(bad.status).toBe(400);
  });

  it("is the create-deployments flag's, and another tenant's account is not found", async () => {
    const call = (cookieOf: string, account: string) =>
      request(`/api/deployments.phaseSizes?input=${encodeURIComponent(JSON.stringify({ accountId: account, shares: [100] }))}`, {
        headers: { Cookie: cookieOf, Origin: ORIGIN },
      });
    const viewer = await sessionCookie((await createUser({ role: "viewer", orgId })).email);
    expect((await call(viewer, accountId)).status).toBe(403);
    const stranger = await sessionCookie(
      (await createUser({ role: "owner", orgId: await createOrganization("Elsewhere") })).email,
    );
    expect((await call(stranger, accountId)).status).toBe(404);
    const mine = (await (await call(cookie, accountId)).json()) as { result: { data: { sizes: number[] } } };
    expect(mine.result.data.sizes).toEqual([57]);
  });
});

describe("phase sizes at 100,000 radios", () => {
  it("counts every phase in one grouped query on the bucket index, quickly", { timeout: 120_000 }, async () => {
    const big = await createAccount(orgId, "Big fleet");
    await giveSeats(orgId, big, 100_000);
    await registerRadios(orgId, big, "BIG", 100_000);
    const shares = [1, 5, 25, 50, 100];
    const { sql, params } = phaseSizesQuery(big, shares);
    const steps = await plan({ sql, params });
    // Each phase is a search of its own range of the bucket index, never a scan of devices.
    expect(steps.filter((step) => step.includes("devices"))).toEqual(
      shares.map(
        () =>
          "SEARCH devices USING INDEX devices_account_bucket (account_id=? AND status=? AND rollout_bucket>? AND rollout_bucket<?)",
      ),
    );
    // What one GROUP BY over the bucket would cost instead (it reads every row: printed, for the record).
    const grouped = `SELECT CASE WHEN rollout_bucket < 100 THEN 0 WHEN rollout_bucket < 500 THEN 1 WHEN rollout_bucket < 2500 THEN 2
      WHEN rollout_bucket < 5000 THEN 3 ELSE 4 END AS phase, count(*) AS n FROM devices INDEXED BY devices_account_bucket
      WHERE account_id = ? AND status = 'active' GROUP BY phase`;
    const groupedMs = await timed(() => env.DB.prepare(grouped).bind(big).all(), 5);
    const sizes = await phaseSizes(env.DB, big, shares);
    expect(sizes.reduce((a, b) => a + b, 0)).toBe(100_000);
    const ms = await timed(() => phaseSizes(env.DB, big, shares), 5);
    console.log(`phase sizes, 100,000 radios, 5 phases: median ${ms.toFixed(1)} ms (one GROUP BY: ${groupedMs.toFixed(1)} ms)`);
    const page = await timed(() => request(`/accounts/${big}/confirm-deployment`, { headers: { Cookie: cookie } }), 3);
    console.log(`confirm page, 100,000 radios: median ${page.toFixed(1)} ms`);
    expect(ms).toBeLessThan(1000);
  });
});
