// Live connections at fleet scale (issue 12): N simulated radios hold a WebSocket each to the
// DeviceShard Durable Objects of one local workerd, answer heartbeats, and learn of a new
// deployment and of a bulk command (one message per shard each): how long until they know.
//
//   PORT=8899 npm start                # in another shell (or any running `npm start`)
//   BENCH_URL=http://localhost:8899 PERSIST_TO=.wrangler/state node bench/live-connections.mjs
// Knobs: LIVE_COUNT (10000), LIVE_OPEN_AT_ONCE (200). Loopback only.
// Locally each socket costs workerd two file descriptors (one is Miniflare's loopback to its
// Node process) and about 0.4 MB (no hibernation eviction in local workerd): with this
// sandbox's 20,000 open files per process, one local server holds about 9,600 radios.
//
// The radios (LIVE-000001…, model LIVE-BENCH, one shared secret) are written into the server's
// local D1 first, as an operator would with `wrangler d1 execute`, in a bench account of the demo
// dealer with seats for them, and deleted at the end with their commands.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { serverRootPid } from "./server.mjs";

const base = (process.env.BENCH_URL ?? "http://localhost:8787").replace(/\/$/, "");
if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(base)) throw new Error(`${base}: loopback only`);
const count = Number(process.env.LIVE_COUNT ?? 10_000);
const openAtOnce = Number(process.env.LIVE_OPEN_AT_ONCE ?? 200);
const ORG = "org_harbor";
const ACCOUNT = "acc_live_bench";
const SECRET = "live-bench-secret-not-for-real-radios";
const uidOf = (i) => `LIVE-${String(i + 1).padStart(6, "0")}`;

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

function sqlFile(sql) {
  const dir = mkdtempSync(join(tmpdir(), "live-bench-"));
  const file = join(dir, "bench.sql");
  writeFileSync(file, sql);
  try {
    execFileSync(
      "npx",
      [
        "wrangler",
        "d1",
        "execute",
        "configuration-tool",
        "--local",
        "--persist-to",
        process.env.PERSIST_TO ?? ".wrangler/state",
        "--file",
        file,
      ],
      { stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cleanup = `DELETE FROM commands WHERE uid GLOB 'LIVE-*'; DELETE FROM devices WHERE uid GLOB 'LIVE-*' AND model = 'LIVE-BENCH';`;

/** Resident memory (MB) of the server's workerd: the process listening on BENCH_URL's port. */
function serverMegabytes() {
  const pid = serverRootPid(base);
  if (!pid) return NaN;
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(rssKb / 1024);
}

async function signIn() {
  const response = await fetch(`${base}/api/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ username: "owner@example.com", password: "radios-demo-2025" }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(";")[0];
}

function open(uid) {
  const url = new URL("/device/v1/connect", base);
  url.protocol = "ws:";
  const token = Buffer.from(`${uid}:${SECRET}`).toString("base64url");
  const socket = new WebSocket(url, ["device-v1", `auth.${token}`]);
  const radio = { uid, socket, woken: null, pong: null };
  return new Promise((resolve) => {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data));
      if (message.type === "hello") resolve(radio);
      if (message.type === "pong") radio.pong?.();
      if (message.type === "commands-queued" || message.type === "command-queued" || message.type === "check-in")
        radio.woken ??= performance.now();
    });
    socket.addEventListener("error", () => resolve(null), { once: true });
    socket.addEventListener("close", () => resolve(null), { once: true });
  });
}

const memoryBefore = serverMegabytes();
const hash = createHash("sha256").update(SECRET).digest("hex");
sqlFile(
  `${cleanup}
INSERT INTO accounts (id, org_id, name, subscription_level, timezone)
  VALUES ('${ACCOUNT}', '${ORG}', 'Live connections bench', 'advanced', 'UTC') ON CONFLICT DO NOTHING;
INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at, reference)
  VALUES ('sub_live_bench', '${ORG}', 'Bench', 100000, '2025-01-01', 'bench') ON CONFLICT DO NOTHING;
INSERT INTO allocations (id, subscription_id, account_id, quantity)
  SELECT 'alc_live_bench', 'sub_live_bench', '${ACCOUNT}', 100000
  WHERE NOT EXISTS (SELECT 1 FROM allocations WHERE id = 'alc_live_bench');
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash)
SELECT printf('LIVE-%06d', i + 1), '${ORG}', '${ACCOUNT}', 'Northwind', 'LIVE-BENCH', '${hash}' FROM n;`,
);
console.log(`${count.toLocaleString("en")} radios registered; server (workerd) ${memoryBefore} MB before connecting`);

try {
  const startedOpening = performance.now();
  const radios = [];
  for (let i = 0; i < count; i += openAtOnce) {
    const batch = await Promise.all(Array.from({ length: Math.min(openAtOnce, count - i) }, (_, j) => open(uidOf(i + j))));
    radios.push(...batch.filter(Boolean));
  }
  const openedIn = performance.now() - startedOpening;
  console.log(
    `connected: ${radios.length.toLocaleString("en")} of ${count.toLocaleString("en")} in ${(openedIn / 1000).toFixed(1)} s; server ${serverMegabytes()} MB`,
  );

  // Heartbeats: every radio pings; the shard answers without waking (auto-response).
  const pongs = await Promise.all(
    radios.map(
      (radio) =>
        new Promise((resolve) => {
          const started = performance.now();
          radio.pong = () => resolve(performance.now() - started);
          radio.socket.send('{"type":"ping"}');
        }),
    ),
  );
  console.log(
    `heartbeat round trip (all at once): p50 ${percentile(pongs, 50).toFixed(0)} ms, p95 ${percentile(pongs, 95).toFixed(0)} ms`,
  );

  const cookie = await signIn();
  const api = async (procedure, input) => {
    const response = await fetch(`${base}/api/${procedure}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
      body: JSON.stringify(input),
    });
    const answer = await response.json();
    if (!answer.result) throw new Error(`${procedure} refused: ${JSON.stringify(answer.error)}`);
    return answer.result.data;
  };
  /** From the click until every connected radio has been told. */
  async function timeToTell(label, click) {
    for (const radio of radios) radio.woken = null;
    const clicked = performance.now();
    await click();
    const answered = performance.now() - clicked;
    const deadline = Date.now() + 30_000;
    while (radios.some((radio) => radio.woken === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    const told = radios.filter((radio) => radio.woken !== null).map((radio) => radio.woken - clicked);
    console.log(
      `${label}: API answered in ${answered.toFixed(0)} ms; ${told.length.toLocaleString("en")} connected radios told, ` +
        `first ${Math.min(...told).toFixed(0)} ms, p50 ${percentile(told, 50).toFixed(0)} ms, p95 ${percentile(told, 95).toFixed(0)} ms, last ${Math.max(...told).toFixed(0)} ms after the click`,
    );
  }

  // A change to deploy (a new site), then a deployment to every radio of the account, all at once.
  await api("sites.add", { accountId: ACCOUNT, name: `Bench site ${Date.now()}` });
  await timeToTell("deployment to all radios", () => api("deployments.create", { accountId: ACCOUNT }));
  // One bulk command to every bench radio: its rows are written first, then one message per shard.
  await timeToTell("bulk ping command", () =>
    api("commands.sendBulk", { accountId: ACCOUNT, selection: { filter: { model: "LIVE-BENCH", search: "" } }, type: "ping" }),
  );
  for (const radio of radios) radio.socket.close(1000, "bench done");
} finally {
  sqlFile(cleanup);
}
