import { env } from "cloudflare:test";
import { beforeAll, expect, inject, it } from "vitest";
import { allAtOnce } from "@/schema/fleet/deployment-plan";
import { createApp } from "@/server/app";
import { deploymentCounts, findDeployment } from "@/server/data/deployments";
import { confirmDeployment } from "@/server/fleet/deployment-engine";
import { createAccount, createOrganization } from "../../tests/worker/fixtures";
import { bearer, giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";
import { request } from "../../tests/worker/helpers";

// Fleet figures (issue 12), printed as ratios measured in one run:
// confirm for 100,000 radios vs 100 (≤ 1.2×, same rows written), counts for 100,000 radios
// (< 200 ms), and the check-in 304 path vs a static response of the same Worker (≥ 50 %).
// FLEET_BIG (100,000) and FLEET_MID (none) reach workerd through `provide` (bench/fleet/vitest.config.ts):
// `FLEET_MID=100000 FLEET_BIG=1000000` times confirm at 100, 100,000 and 1,000,000 radios in one run.
const BIG = inject("fleetBig");
const MID = inject("fleetMid");
const SMALL = 100;
const RUNS = 7;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;
const rowsWritten = async () => {
  const row = await env.DB.prepare(
    "SELECT (SELECT count(*) FROM revisions) + (SELECT count(*) FROM deployments) + (SELECT count(*) FROM activity_logs) + (SELECT count(*) FROM deployment_devices) AS n",
  ).first<{ n: number }>();
  return row?.n ?? 0;
};

let orgId = "";
let small = "";
let big = "";
let mid = "";
const bigUids: string[] = [];

beforeAll(async () => {
  orgId = await createOrganization("Bench");
  small = await createAccount(orgId, "Small fleet");
  big = await createAccount(orgId, "Big fleet");
  await giveSeats(orgId, small, SMALL);
  await giveSeats(orgId, big, BIG);
  await registerRadios(orgId, small, "SMALL", SMALL);
  if (MID) {
    mid = await createAccount(orgId, "Middle fleet");
    await giveSeats(orgId, mid, MID);
    for (let done = 0; done < MID; done += 20_000)
      await registerRadios(orgId, mid, `MID${done / 20_000}`, Math.min(20_000, MID - done));
  }
  // In chunks: one statement per 20,000 radios stays well inside D1's limits.
  for (let done = 0; done < BIG; done += 20_000) {
    const n = Math.min(20_000, BIG - done);
    const uids = await registerRadios(orgId, big, `BIG${done / 20_000}`, n);
    bigUids.push(...uids);
  }
});

async function timeConfirm(accountId: string): Promise<{ ms: number; rows: number }> {
  await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
    .bind(JSON.stringify({ ntpServers: [`t${crypto.randomUUID().slice(0, 6)}.example.com`] }), accountId)
    .run();
  const before = await rowsWritten();
  const started = performance.now();
  await confirmDeployment(
    { db: env.DB, env },
    { accountId, orgId, actor: { id: "bench", email: "bench" }, plan: allAtOnce(), switchover: { mode: "delivery" }, note: "" },
  );
  const ms = performance.now() - started;
  return { ms, rows: (await rowsWritten()) - before };
}

it("confirm costs the same for 100,000 radios as for 100", async () => {
  const smallRuns: number[] = [];
  const bigRuns: number[] = [];
  const midRuns: number[] = [];
  const rows = new Set<number>();
  for (let i = 0; i < RUNS; i++) {
    const s = await timeConfirm(small);
    const b = await timeConfirm(big);
    smallRuns.push(s.ms);
    bigRuns.push(b.ms);
    rows.add(s.rows);
    rows.add(b.rows);
    if (mid) {
      const m = await timeConfirm(mid);
      midRuns.push(m.ms);
      rows.add(m.rows);
    }
  }
  if (mid)
    console.log(
      `confirm: ${MID} radios ${median(midRuns).toFixed(1)} ms, ${BIG} radios ${median(bigRuns).toFixed(1)} ms (median of ${RUNS}); ratio ${(median(bigRuns) / median(midRuns)).toFixed(2)}×`,
    );
  const ratio = median(bigRuns) / median(smallRuns);
  console.log(
    `confirm: ${SMALL} radios ${median(smallRuns).toFixed(1)} ms, ${BIG} radios ${median(bigRuns).toFixed(1)} ms (median of ${RUNS}); ratio ${ratio.toFixed(2)}×; rows written per confirm: ${[...rows].join(", ")}`,
  );
  expect(rows.size).toBe(1);
});

it("counts a 100,000-radio deployment quickly", async () => {
  const latest = await env.DB.prepare("SELECT id FROM deployments WHERE account_id = ? ORDER BY number DESC LIMIT 1")
    .bind(big)
    .first<{ id: string }>();
  const deployment = await findDeployment(env.DB, latest?.id ?? "");
  if (!deployment) throw new Error("no deployment");
  // A tenth of the fleet reports (applied, some failed) so the grouped query has rows to count.
  const now = new Date().toISOString();
  for (let i = 0; i < bigUids.length / 10; i += 5000) {
    const chunk = bigUids.slice(i, Math.min(i + 5000, bigUids.length / 10));
    await env.DB.prepare(
      `INSERT INTO deployment_devices (deployment_id, uid, phase, state, updated_at)
       SELECT ?, value, 0, CASE WHEN key % 20 = 0 THEN 'failed' ELSE 'applied' END, ? FROM json_each(?)`,
    )
      .bind(deployment.id, now, JSON.stringify(chunk))
      .run();
  }
  const runs: number[] = [];
  let total = 0;
  for (let i = 0; i < RUNS; i++) {
    const started = performance.now();
    const counts = await deploymentCounts(env.DB, deployment);
    runs.push(performance.now() - started);
    total = Object.values(counts.total).reduce((sum, n) => sum + (n ?? 0), 0);
  }
  console.log(
    `counts: ${BIG} radios, median ${median(runs).toFixed(1)} ms, max ${Math.max(...runs).toFixed(1)} ms (${RUNS} runs)`,
  );
  expect(total).toBe(BIG);
});

it("check-in 304 path against a static response of the same Worker", async () => {
  const uid = bigUids[0] ?? "";
  const auth = bearer(uid);
  const first = await request("/device/v1/config", { headers: { Authorization: auth } });
  const etag = first.headers.get("etag") ?? "";
  await first.arrayBuffer();
  const N = 100;
  const ROUNDS = 7;
  const time = async (fn: () => Promise<Response>) => {
    const started = performance.now();
    for (let i = 0; i < N; i++) await (await fn()).arrayBuffer();
    return N / ((performance.now() - started) / 1000);
  };
  // Alternating rounds, the median of their ratios: on a shared, loaded machine the load moves
  // between rounds, and a ratio taken within one round cancels most of it.
  // `request` builds the app for every call (about 3 ms of the static figure); the deployed
  // Worker builds it once per isolate, so the second comparison reuses one app for both.
  // The signed ETag's 304 needs no D1 call while the account's fleet version is cached (10 s);
  // `Cache-Control: no-cache` forces the full path: one D1 statement, as every 304 was before.
  const compare = async (app?: ReturnType<typeof createApp>, extra: Record<string, string> = {}) => {
    const ratios: number[] = [];
    let staticRate = 0;
    let notModifiedRate = 0;
    for (let round = 0; round < ROUNDS; round++) {
      staticRate = await time(() => request("/healthz", {}, app));
      notModifiedRate = await time(() =>
        request("/device/v1/config", { headers: { Authorization: auth, "If-None-Match": etag, ...extra } }, app),
      );
      ratios.push(notModifiedRate / staticRate);
    }
    return `${notModifiedRate.toFixed(0)} req/s vs static ${staticRate.toFixed(0)} req/s in the last round (sequential, in workerd); median ratio of ${ROUNDS} alternating rounds: ${(100 * median(ratios)).toFixed(0)} %`;
  };
  for (const extra of [{}, { "Cache-Control": "no-cache" }] as Record<string, string>[]) {
    const check = await request("/device/v1/config", { headers: { Authorization: auth, "If-None-Match": etag, ...extra } });
    expect(check.status).toBe(304);
  }
  const fullPath = { "Cache-Control": "no-cache" };
  console.log(`304 path: ${await compare()}`);
  console.log(`304 path, one app for every request (as deployed): ${await compare(createApp())}`);
  console.log(`304 full path (no-cache: one D1 statement, as before): ${await compare(undefined, fullPath)}`);
  console.log(`304 full path, one app for every request: ${await compare(createApp(), fullPath)}`);
});
