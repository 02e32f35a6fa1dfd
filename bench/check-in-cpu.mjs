// Worker CPU per check-in (issue 24, docs/capacity.md's op-cost table): workerd's own clock does
// not advance during pure CPU work, so the CPU is read from /proc for the server's workerd
// processes around an autocannon round, divided by the requests answered. It includes the shard
// (a Durable Object in the same workerd) and, locally, D1's SQLite: so the shard path (no D1
// statement) is the Worker + shard cost; the full path is an upper bound (its D1 work included).
// Rounds, each against a demo radio (HD-0001…5, secret demo-secret-<uid>):
//   - no-op: GET /healthz without a session (the floor of any request);
//   - shard path: POST /device/v1/check-in with nothing new (answered from the shard's memory);
//   - full path: the same, reporting a firmware that alternates, so each check-in is "something
//     new": the shard reads the radio (one D1 statement) and writes the firmware (one UPDATE).
//
//   node bench/check-in-cpu.mjs                       (builds, starts its own server on BENCH_PORT)
//   BENCH_URL=http://localhost:8811 node bench/check-in-cpu.mjs   (a running local server)
// Knobs: CPU_ROUND_S (6), CPU_CONNECTIONS (4), CPU_ROUNDS (2).
import autocannon from "autocannon";
import { mean, num } from "./report.mjs";
import { benchUrl, buildApp, serverCpu, serverRootPid, startServer } from "./server.mjs";

const DURATION = Number(process.env.CPU_ROUND_S ?? 6);
const CONNECTIONS = Number(process.env.CPU_CONNECTIONS ?? 4);
const ROUNDS = Number(process.env.CPU_ROUNDS ?? 2);

const bearer = (uid) => `Bearer ${uid}:demo-secret-${uid.toLowerCase()}`;
const checkIn = (uid, bodies) => ({
  path: "/device/v1/check-in",
  method: "POST",
  headers: { authorization: bearer(uid), "content-type": "application/json" },
  requests: bodies.map((body) => ({ method: "POST", body: JSON.stringify(body) })),
});

const TARGETS = [
  { name: "no-op (GET /healthz, no session)", path: "/healthz", method: "GET", headers: {} },
  { name: "check-in, shard path (nothing new)", ...checkIn("HD-0002", [{ battery: 80 }]) },
  { name: "check-in, full path (+ firmware write)", ...checkIn("HD-0004", [{ firmware: "9.9.1" }, { firmware: "9.9.2" }]) },
];

function run(url, target, duration) {
  return new Promise((resolve, reject) => {
    autocannon(
      {
        url: `${url}${target.path}`,
        method: target.method,
        headers: target.headers,
        requests: target.requests,
        connections: CONNECTIONS,
        duration,
        pipelining: 1,
      },
      (error, result) => (error ? reject(error) : resolve(result)),
    );
  });
}

async function round(url, rootPid, target, duration) {
  const before = serverCpu(rootPid).workerdMs;
  const started = performance.now();
  const result = await run(url, target, duration);
  const wallMs = performance.now() - started;
  const workerdMs = serverCpu(rootPid).workerdMs - before;
  if (result.errors > 0 || result.non2xx > 0)
    throw new Error(`${target.name}: ${result.non2xx} non-2xx, ${result.errors} errors`);
  const requests = result["2xx"];
  return { requests, rps: requests / (wallMs / 1000), cpuMs: workerdMs / requests, p50: result.latency.p50 };
}

async function main() {
  let server = null;
  let url = process.env.BENCH_URL ? benchUrl() : null;
  if (!url) {
    buildApp();
    server = await startServer();
    url = server.url;
  }
  try {
    const rootPid = serverRootPid(url, server?.pid);
    if (!rootPid) throw new Error("no local server process to read the CPU of");
    // Each radio's first check-in takes the full path; one warm-up round each.
    for (const target of TARGETS) await round(url, rootPid, target, 2);
    const measured = new Map(TARGETS.map((t) => [t.name, []]));
    for (let i = 0; i < ROUNDS; i++)
      for (const target of TARGETS) measured.get(target.name).push(await round(url, rootPid, target, DURATION));
    console.log(`workerd CPU per request, ${ROUNDS} rounds of ${DURATION} s, ${CONNECTIONS} connections:`);
    for (const [name, rounds] of measured) {
      const cpu = rounds.map((r) => r.cpuMs);
      console.log(
        `  ${name}: ${num(mean(cpu), 2)} ms CPU/request (rounds: ${cpu.map((c) => num(c, 2)).join(", ")}), ` +
          `${num(mean(rounds.map((r) => r.rps)), 0)} req/s, p50 ${num(mean(rounds.map((r) => r.p50)), 1)} ms`,
      );
    }
  } finally {
    await server?.stop();
  }
}

await main();
