import { env } from "cloudflare:test";
import { beforeAll, expect, inject, it } from "vitest";
import { planDefaults } from "@/routes/deployments/plan-form";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { call, data } from "../../tests/worker/api-calls";
import { createAccount, createUser, sessionCookie } from "../../tests/worker/fixtures";
import { giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";
import { request } from "../../tests/worker/helpers";

// Issue 25: confirming a deployment whose target holds BIG radios against one that holds 100, in
// one account and one run (median of RUNS, alternating): the confirm (deployments.create) and the
// confirm page's count of the target per phase. Also the rows one confirm writes, by target size.
const RUNS = 7;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

let cookie = "";
let accountId = "";

beforeAll(async () => {
  const big = inject("confirmTargetBig");
  const owner = await createUser({ role: "owner" });
  accountId = await createAccount(owner.orgId, "Confirm target bench");
  await giveSeats(owner.orgId, accountId, big + 200);
  for (const site of ["small", "big"])
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, ?)").bind(`site_${site}`, accountId, site).run();
  const started = Date.now();
  await registerRadios(owner.orgId, accountId, "CTS", 100);
  await registerRadios(owner.orgId, accountId, "CTB", big);
  await env.DB.prepare("UPDATE devices SET site_id = 'site_small' WHERE account_id = ? AND uid LIKE 'CTS-%'")
    .bind(accountId)
    .run();
  await env.DB.prepare("UPDATE devices SET site_id = 'site_big' WHERE account_id = ? AND uid LIKE 'CTB-%'").bind(accountId).run();
  console.log(`made ${big} + 100 radios in ${Date.now() - started} ms`);
  // Issue 26: a firmware package that fits their model, for the firmware deployment's confirm.
  await env.DB.prepare(
    `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, signature, key_id, created_by)
     VALUES ('fw_bench', ?, '2.0.0', '["NW-400"]', 'ready', 'packages/fw_bench', 1, '', '', '', 'bench')`,
  )
    .bind(owner.orgId)
    .run();
  cookie = await sessionCookie(owner.email);
}, 600_000);

const target = (site: string) => ({ kind: "filter", filter: { siteId: `site_${site}` } });

it("confirms for BIG radios within 1.2× of 100, writing the same rows", async () => {
  const big = inject("confirmTargetBig");
  const times: Record<string, number[]> = { small: [], big: [] };
  const created: Record<string, string> = {};
  for (let r = 0; r < RUNS + 1; r++)
    for (const site of r % 2 === 0 ? ["small", "big"] : ["big", "small"]) {
      const t0 = performance.now();
      const answer = data(
        await call<{ id: string }>("deployments.create", { accountId, note: `run ${r}`, target: target(site) }, cookie, "POST"),
      );
      if (r > 0) times[site]?.push(performance.now() - t0);
      created[site] = answer.id;
    }
  // Confirming does not count the target: the clock does, just after (stepDueDeployments).
  await stepDueDeployments(env);
  const targeted = async (id: string) =>
    (await env.DB.prepare("SELECT targeted FROM deployments WHERE id = ?").bind(id).first<{ targeted: number }>())?.targeted;
  expect(await targeted(created.small ?? "")).toBe(100);
  expect(await targeted(created.big ?? "")).toBe(big);
  const [small, large] = [median(times.small ?? []), median(times.big ?? [])];
  console.log(
    `confirm (deployments.create): 100 radios → ${small.toFixed(1)} ms, ${big} radios → ${large.toFixed(1)} ms (ratio ${(large / small).toFixed(2)}, goal ≤ 1.2)`,
  );

  // The one read that follows the target's size: its count, from the (account, status, site, …) index.
  const countSql = "SELECT count(*) AS n FROM devices d WHERE d.account_id = ? AND d.status = 'active' AND d.site_id = ?";
  const plan = await env.DB.prepare(`EXPLAIN QUERY PLAN ${countSql}`).bind(accountId, "site_big").all<{ detail: string }>();
  const counts: number[] = [];
  for (let r = 0; r < RUNS; r++) {
    const t0 = performance.now();
    await env.DB.prepare(countSql).bind(accountId, "site_big").first();
    counts.push(performance.now() - t0);
  }
  console.log(`the big target's count: ${median(counts).toFixed(1)} ms; plan: ${plan.results.map((r) => r.detail).join(" | ")}`);

  // What a confirm writes does not depend on the target's size: one deployment row and its entry.
  const rows = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM deployments WHERE account_id = ?1) AS deployments, (SELECT count(*) FROM deployment_devices x JOIN deployments d ON d.id = x.deployment_id WHERE d.account_id = ?1) AS per_radio",
  )
    .bind(accountId)
    .first<{ deployments: number; per_radio: number }>();
  console.log(`after ${2 * (RUNS + 1)} confirms: ${rows?.deployments} deployment rows, ${rows?.per_radio} per-radio rows`);
  expect(rows?.per_radio).toBe(0);

  // The confirm page's count of the target per phase (a read: it follows the target's size).
  const page = async (site: string) => {
    const t0 = performance.now();
    const html = await (
      await request(`/accounts/${accountId}/confirm-deployment`, {
        method: "POST",
        body: new URLSearchParams({
          ...planDefaults,
          targetPlace: `site_${site}`,
          intent: "count",
        }),
        headers: { Cookie: cookie, Origin: "http://config.test", "Content-Type": "application/x-www-form-urlencoded" },
      })
    ).text();
    expect(html).toContain("Radios in this target now");
    return performance.now() - t0;
  };
  const pages: Record<string, number[]> = { small: [], big: [] };
  for (let r = 0; r < RUNS; r++) for (const site of ["small", "big"]) pages[site]?.push(await page(site));
  console.log(
    `confirm page, counted per phase: 100 radios → ${median(pages.small ?? []).toFixed(1)} ms, ${big} radios → ${median(pages.big ?? []).toFixed(1)} ms`,
  );
}, 600_000);

it("confirms a firmware deployment for BIG radios within 1.2× of 100, writing the same rows", async () => {
  const big = inject("confirmTargetBig");
  const times: Record<string, number[]> = { small: [], big: [] };
  const created: Record<string, string> = {};
  for (let r = 0; r < RUNS + 1; r++)
    for (const site of r % 2 === 0 ? ["small", "big"] : ["big", "small"]) {
      const t0 = performance.now();
      const answer = data(
        await call<{ id: string }>(
          "deployments.create",
          { accountId, note: `firmware ${r}`, target: target(site), firmwarePackageId: "fw_bench" },
          cookie,
          "POST",
        ),
      );
      if (r > 0) times[site]?.push(performance.now() - t0);
      created[site] = answer.id;
    }
  await stepDueDeployments(env);
  const targeted = async (id: string) =>
    (await env.DB.prepare("SELECT targeted FROM deployments WHERE id = ?").bind(id).first<{ targeted: number }>())?.targeted;
  expect(await targeted(created.small ?? "")).toBe(100);
  expect(await targeted(created.big ?? "")).toBe(big);
  const [small, large] = [median(times.small ?? []), median(times.big ?? [])];
  console.log(
    `firmware confirm (deployments.create with a package): 100 radios → ${small.toFixed(1)} ms, ${big} radios → ${large.toFixed(1)} ms (ratio ${(large / small).toFixed(2)}, goal ≤ 1.2)`,
  );
  const rows = await env.DB.prepare(
    "SELECT count(*) AS n FROM deployment_devices x JOIN deployments d ON d.id = x.deployment_id WHERE d.account_id = ?",
  )
    .bind(accountId)
    .first<{ n: number }>();
  expect(rows?.n).toBe(0);
}, 600_000);
