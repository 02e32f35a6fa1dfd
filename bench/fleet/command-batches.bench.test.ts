import { env } from "cloudflare:test";
import { beforeAll, expect, inject, it } from "vitest";
import { batchCounts, cancelBatchStatement } from "@/server/data/command-batches";
import { createAccount, createUser } from "../../tests/worker/fixtures";
import { giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";

// Bulk command batches (issue 25): a batch page's counts per state at BIG commands in one batch
// against a batch of 100 (one run, median of 9), and cancel's statements and rows written.
const RUNS = 9;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

let orgId = "";
let accountId = "";
let uid = "";

/** n commands in one batch, states spread as a batch in flight has them (rows made by SQLite). */
async function fill(batchId: string, n: number) {
  await env.DB.prepare(
    `WITH RECURSIVE k(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM k WHERE i < ?)
     INSERT INTO commands (id, uid, org_id, account_id, type, params, priority, state, batch_id, created_by, created_by_email, created_at, expires_at)
     SELECT ? || '-' || i, ?, ?, ?, 'ping', '{}', 1,
       CASE WHEN i % 20 < 8 THEN 'queued' WHEN i % 20 < 10 THEN 'sent' WHEN i % 20 < 12 THEN 'delivered'
            WHEN i % 20 < 16 THEN 'succeeded' WHEN i % 20 < 19 THEN 'failed' ELSE 'expired' END,
       ?, 'bench', 'bench@example.com', '2026-01-01T00:00:00.000Z', '2099-01-01T00:00:00.000Z' FROM k`,
  )
    .bind(n, batchId, uid, orgId, accountId, batchId)
    .run();
}

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  orgId = boss.orgId;
  accountId = await createAccount(orgId, "Batch bench");
  await giveSeats(orgId, accountId, 2);
  [uid = ""] = await registerRadios(orgId, accountId, "BB", 1);
});

it("counts a batch of BIG commands about as fast as one of 100; cancel is one statement", async () => {
  const big = inject("batchBig");
  const started = Date.now();
  await fill("big", big);
  await fill("small", 100);
  console.log(`filled ${big} + 100 commands in ${Date.now() - started} ms`);
  const time = async (batchId: string) => {
    const samples: number[] = [];
    for (let r = 0; r < RUNS; r++) {
      const t0 = performance.now();
      await batchCounts(env.DB, batchId);
      samples.push(performance.now() - t0);
    }
    return median(samples);
  };
  await time("small");
  const small = await time("small");
  const large = await time("big");
  const counts = await batchCounts(env.DB, "big");
  expect(counts.total).toBe(big);
  console.log(`counts: 100 → ${small.toFixed(2)} ms, ${big} → ${large.toFixed(2)} ms (ratio ${(large / small).toFixed(1)})`);
  const plan = await env.DB.prepare(
    "EXPLAIN QUERY PLAN SELECT state, count(*) AS n FROM commands WHERE batch_id = ? GROUP BY state",
  )
    .bind("big")
    .all<{ detail: string }>();
  console.log(`plan: ${plan.results.map((r) => r.detail).join(" | ")}`);

  const t0 = performance.now();
  const cancelled = await cancelBatchStatement(env.DB, {
    batchId: "big",
    email: "bench@example.com",
    at: new Date().toISOString(),
  }).run();
  const ms = performance.now() - t0;
  const after = await batchCounts(env.DB, "big");
  expect(after.queued + after.sent).toBe(0);
  expect(after.cancelled).toBe(counts.queued + counts.sent);
  console.log(
    `cancel: 1 statement, ${after.cancelled} commands cancelled, meta.changes ${cancelled.meta.changes}, rows_written ${cancelled.meta.rows_written}, rows_read ${cancelled.meta.rows_read}, ${ms.toFixed(0)} ms`,
  );
});
