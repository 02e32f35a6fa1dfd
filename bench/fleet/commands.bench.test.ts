import { env } from "cloudflare:test";
import { beforeAll, expect, it } from "vitest";
import { createApp } from "@/server/app";
import { createAccount, createUser, sessionCookie } from "../../tests/worker/fixtures";
import { bearer, giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";
import { ORIGIN } from "../../tests/worker/helpers";

// Command figures (issue 13), as ratios measured in one run:
// - a bulk send to 10,000 radios costs the same number of requests (browser → Worker, Worker
//   → D1, Worker → shards) as one to 100, and finishes in seconds;
// - a radio's queue reads in constant time: a check-in of a radio with 100,000 past commands
//   costs what one of a radio with none does.
const BIG = Number(process.env.COMMANDS_BIG ?? 10_000);
const SMALL = 100;
const HISTORY = Number(process.env.COMMANDS_HISTORY ?? 100_000);
const RUNS = 9;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? 0;

/** The Worker's bindings with the database and the shards counted: every round trip they take. */
function countingEnv() {
  const counts = { d1: 0, shards: 0 };
  const db = env.DB;
  const DB = new Proxy(db, {
    get(target, name, receiver) {
      if (name === "batch")
        return (...args: Parameters<typeof db.batch>) => {
          counts.d1++;
          return target.batch(...args);
        };
      if (name === "prepare")
        return (sql: string) => {
          const wrap = (s: ReturnType<typeof db.prepare>): ReturnType<typeof db.prepare> =>
            new Proxy(s, {
              get(st, key, r) {
                if (key === "bind") return (...values: unknown[]) => wrap(st.bind(...values));
                if (key === "first" || key === "all" || key === "run" || key === "raw")
                  return (...a: unknown[]) => {
                    counts.d1++;
                    return (st[key] as (...x: unknown[]) => unknown)(...a);
                  };
                return Reflect.get(st, key, r);
              },
            });
          return wrap(target.prepare(sql));
        };
      return Reflect.get(target, name, receiver);
    },
  });
  const shards = env.DEVICE_SHARDS;
  const DEVICE_SHARDS = shards
    ? new Proxy(shards, {
        get(target, name, receiver) {
          if (name === "get")
            return (id: Parameters<typeof shards.get>[0]) => {
              const stub = target.get(id);
              return new Proxy(stub, {
                get(s, key, r) {
                  if (key === "fetch")
                    return (...a: Parameters<typeof stub.fetch>) => {
                      counts.shards++;
                      return s.fetch(...a);
                    };
                  const value = Reflect.get(s, key, r);
                  return typeof value === "function" ? value.bind(s) : value;
                },
              });
            };
          // The runtime's methods want their own object as `this`, not the proxy.
          const value = Reflect.get(target, name, receiver);
          return typeof value === "function" ? value.bind(target) : value;
        },
      })
    : undefined;
  return { bindings: { ...env, DB, DEVICE_SHARDS }, counts };
}

let cookie = "";
let small = "";
let big = "";
let quiet = "";
let busy = "";

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  const orgId = owner.orgId;
  cookie = await sessionCookie(owner.email);
  small = await createAccount(orgId, "Small fleet");
  big = await createAccount(orgId, "Big fleet");
  await giveSeats(orgId, small, SMALL + 2);
  await giveSeats(orgId, big, BIG);
  await registerRadios(orgId, small, "CSMALL", SMALL);
  for (let done = 0; done < BIG; done += 20_000)
    await registerRadios(orgId, big, `CBIG${done / 20_000}`, Math.min(20_000, BIG - done));
  [quiet = "", busy = ""] = await registerRadios(orgId, small, "CQUEUE", 2);
  // The busy radio's history: HISTORY finished commands, written straight into the table.
  for (let done = 0; done < HISTORY; done += 50_000) {
    await env.DB.prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, ended_at)
       SELECT lower(hex(randomblob(16))), ?, ?, ?, 'ping', 'succeeded', 'bench', 'bench', '2026-01-01T00:00:00.000Z', '2026-01-02T00:00:00.000Z', '2026-01-01T00:00:01.000Z' FROM n`,
    )
      .bind(Math.min(50_000, HISTORY - done), busy, orgId, small)
      .run();
  }
});

async function bulkSend(accountId: string) {
  const { bindings, counts } = countingEnv();
  const started = performance.now();
  const response = await createApp().request(
    new Request(new URL("/api/commands.sendBulk", ORIGIN), {
      method: "POST",
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
      body: JSON.stringify({ accountId, selection: { filter: {} }, type: "message", params: { text: "Bench" } }),
    }),
    undefined,
    bindings,
  );
  const ms = performance.now() - started;
  const body = (await response.json()) as { result?: { data: { queued: number } } };
  return { ms, queued: body.result?.data.queued ?? 0, ...counts };
}

it("queues a command for 10,000 radios with the same number of requests as for 100, in seconds", async () => {
  const s = await bulkSend(small);
  const b = await bulkSend(big);
  console.log(
    `bulk send: ${s.queued} radios ${s.ms.toFixed(0)} ms (D1 round trips ${s.d1}, shard requests ${s.shards}); ` +
      `${b.queued} radios ${b.ms.toFixed(0)} ms (D1 round trips ${b.d1}, shard requests ${b.shards}); browser requests 1 each`,
  );
  expect(b.queued).toBe(BIG);
  expect(b.d1).toBe(s.d1);
  expect(b.shards).toBeLessThanOrEqual(32);
  expect(b.ms).toBeLessThan(30_000);
});

async function checkIn(uid: string): Promise<number> {
  const started = performance.now();
  const response = await createApp().request(
    new Request(new URL("/device/v1/check-in", ORIGIN), {
      method: "POST",
      headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
      body: "{}",
    }),
    undefined,
    env,
  );
  await response.json();
  return performance.now() - started;
}

it("reads a radio's queue in constant time however many commands it has had", async () => {
  const quietRuns: number[] = [];
  const busyRuns: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    quietRuns.push(await checkIn(quiet));
    busyRuns.push(await checkIn(busy));
  }
  const plan = await env.DB.prepare(
    "EXPLAIN QUERY PLAN SELECT id FROM commands WHERE uid = ? AND state IN ('queued', 'sent') ORDER BY priority, created_at, id LIMIT 10",
  )
    .bind(busy)
    .all<{ detail: string }>();
  const ratio = median(busyRuns) / median(quietRuns);
  console.log(
    `check-in (reads the queue): no history ${median(quietRuns).toFixed(1)} ms, ${HISTORY} past commands ${median(busyRuns).toFixed(1)} ms (median of ${RUNS}); ratio ${ratio.toFixed(2)}×; plan: ${plan.results.map((r) => r.detail).join("; ")}`,
  );
  expect(plan.results.some((r) => r.detail.includes("commands_waiting"))).toBe(true);
  expect(ratio).toBeLessThan(2);
});
