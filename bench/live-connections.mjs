// Live connections at fleet scale (issue 12): N simulated radios hold a WebSocket each to the
// DeviceShard Durable Objects of ONE local workerd, answer heartbeats, and learn of a new
// deployment, of its pause and of a bulk command (one message per shard each): how long from
// the click (the API call) until each radio knows. Figures in bench/results/fleet.md.
//
//   npm run bench:live                 # builds into .builds/live-bench, serves it on :8795, measures, stops
//   LIVE_PORT=8933 npm run bench:live  # another port for its own server
//   BENCH_URL=http://localhost:8899 PERSIST_TO=.wrangler/state npm run bench:live   # against a running server
// Knobs: LIVE_COUNT (10000), LIVE_OPEN_AT_ONCE (200), LIVE_NO_BUILD=1 (serve the last build),
// LIVE_HOLD_S (keep the sockets open that long after connecting, to look at the server).
// Loopback only. Run it under `nice -n 19` on a shared machine.
//
// What bounds N on one machine here: workerd's HTTP listener keeps TWO file descriptors per
// accepted connection (accept4, then fcntl(F_DUPFD_CLOEXEC) from workerd_server::listen::hangup,
// a watcher for the client hanging up; no workerd.capnp option turns it off; measured with
// strace and /proc/<pid>/fd, bench/results/fleet.md 2026-11-24 "10,000 live connections"). With
// this sandbox's hard limit of 20,000 open files per process one workerd holds at most
// (20,000 − its other files) / 2 ≈ 9,900 sockets. The bench measures the cost per socket on the
// server it talks to and, if N does not fit, says so and connects as many as fit: never a
// second workerd (a second instance would hold its own objects, not the same product).
//
// The radios (LIVE-000001…, model LIVE-BENCH, one shared secret) are written into the server's
// local D1 first, as an operator would with `wrangler d1 execute`, in a bench account of the demo
// dealer with seats for them, and deleted at the end with their commands.
import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { assertDirectPortKeepsAssets } from "./direct-port.mjs";
import { buildApp, ROOT, serverRootPid, startServer } from "./server.mjs";

const OWN = { port: Number(process.env.LIVE_PORT ?? 8795), distDir: ".builds/live-bench", persistTo: ".builds/live-bench-state" };
const ownServer = !process.env.BENCH_URL;
// Its own server: the radios and the API calls reach the Worker alone on the next port
// (scripts/start.mjs DIRECT_PORT), as deployed, not through Miniflare's proxy Workers.
const base = (process.env.BENCH_URL ?? `http://localhost:${OWN.port + 1}`).replace(/\/$/, "");
if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(base)) throw new Error(`${base}: loopback only`);
const persistTo = ownServer ? OWN.persistTo : (process.env.PERSIST_TO ?? ".wrangler/state");
const asked = Number(process.env.LIVE_COUNT ?? 10_000);
const openAtOnce = Number(process.env.LIVE_OPEN_AT_ONCE ?? 200);
const ORG = "org_harbor";
const ACCOUNT = "acc_live_bench";
const SECRET = "live-bench-secret-not-for-real-radios";
const uidOf = (i) => `LIVE-${String(i + 1).padStart(6, "0")}`;
const load = () =>
  loadavg()
    .map((v) => v.toFixed(1))
    .join(" / ");

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
      ["wrangler", "d1", "execute", "configuration-tool", "--local", "--persist-to", persistTo, "--file", file],
      { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } },
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const cleanup = `DELETE FROM commands WHERE uid GLOB 'LIVE-*'; DELETE FROM devices WHERE uid GLOB 'LIVE-*' AND model = 'LIVE-BENCH';`;

// ---- the server's workerd, seen from /proc ----

let workerdPid = null;
const megabytes = () => {
  const rssKb = Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${workerdPid}/status`, "utf8"))?.[1] ?? 0);
  return Math.round(rssKb / 1024);
};
/** CPU time (user + system, ms) of the server's workerd and of this process (the radios). */
const CLOCK_TICKS_PER_S = 100;
const cpuMs = () => {
  const stat = readFileSync(`/proc/${workerdPid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  const usage = process.cpuUsage();
  return {
    server: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S,
    radios: (usage.user + usage.system) / 1000,
  };
};
const cpuSince = (before) => {
  const now = cpuMs();
  return `CPU used meanwhile: workerd ${(now.server - before.server).toFixed(0)} ms, the radios (this process) ${(now.radios - before.radios).toFixed(0)} ms`;
};
const openFiles = () => readdirSync(`/proc/${workerdPid}/fd`).length;
const fileLimit = () =>
  Number(/Max open files\s+(\d+)/.exec(readFileSync(`/proc/${workerdPid}/limits`, "utf8"))?.[1] ?? Infinity);

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
  const radio = { uid, socket, told: null, pong: null };
  return new Promise((resolve) => {
    socket.addEventListener("message", (event) => {
      const message = JSON.parse(String(event.data));
      if (message.type === "hello") resolve(radio);
      if (message.type === "pong") radio.pong?.();
      if (message.type === "commands-queued" || message.type === "command-queued" || message.type === "check-in")
        radio.told ??= performance.now();
    });
    socket.addEventListener("error", () => resolve(null), { once: true });
    socket.addEventListener("close", () => resolve(null), { once: true });
  });
}

async function openMany(from, to, radios) {
  for (let i = from; i < to; i += openAtOnce) {
    const batch = await Promise.all(Array.from({ length: Math.min(openAtOnce, to - i) }, (_, j) => open(uidOf(i + j))));
    radios.push(...batch.filter(Boolean));
  }
}

const summary = (values) =>
  `first ${Math.min(...values).toFixed(0)} ms, p50 ${percentile(values, 50).toFixed(0)} ms, p95 ${percentile(values, 95).toFixed(0)} ms, last ${Math.max(...values).toFixed(0)} ms`;

async function measure() {
  workerdPid = serverRootPid(base);
  if (!workerdPid) throw new Error(`no process listens on ${base}`);
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
WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i < ${asked - 1})
INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash)
SELECT printf('LIVE-%06d', i + 1), '${ORG}', '${ACCOUNT}', 'Northwind', 'LIVE-BENCH', '${hash}' FROM n;`,
  );
  console.log(
    `${asked.toLocaleString("en")} radios registered; workerd (pid ${workerdPid}) ${megabytes()} MB, ${openFiles()} open files of ${fileLimit()}; load ${load()}`,
  );
  const radios = [];
  try {
    // Wake every shard first (a shard keeps a few files open: its SQLite database), then
    // measure what one more socket costs the server; then open the rest in batches that leave
    // the server room: a socket being opened holds one more file until its upgrade is done, and
    // a workerd out of files crashes ("accept(): Too many open files") instead of refusing.
    const startedOpening = performance.now();
    const probe = Math.min(asked, 400);
    await openMany(0, Math.floor(probe / 2), radios);
    const filesBefore = openFiles();
    await openMany(Math.floor(probe / 2), probe, radios);
    const perSocket = (openFiles() - filesBefore) / (probe - Math.floor(probe / 2));
    const margin = 128; // sign-in, the API calls, D1 and Durable Object files still to open
    const fits = Math.floor((fileLimit() - openFiles() - margin) / perSocket) + radios.length;
    console.log(
      `each socket costs workerd ${perSocket.toFixed(2)} open files; about ${fits.toLocaleString("en")} sockets fit under its limit of ${fileLimit()}` +
        (fits < asked ? `: connecting as many as fit, not the ${asked.toLocaleString("en")} asked` : ""),
    );
    for (let next = probe; next < asked; ) {
      const room = Math.floor((fileLimit() - openFiles() - margin) / (perSocket + 1));
      const batch = Math.min(openAtOnce, room, asked - next);
      if (batch <= 0) break;
      await openMany(next, next + batch, radios);
      next += batch;
    }
    const count = radios.length;
    // Compression is the client's offer (Node's WebSocket offers permessage-deflate) and the server's choice.
    console.log(`WebSocket extensions the server accepted: ${radios[0]?.socket.extensions || "none"}`);
    const openedIn = performance.now() - startedOpening;
    console.log(
      `connected: ${count.toLocaleString("en")} of ${asked.toLocaleString("en")} asked in ${(openedIn / 1000).toFixed(1)} s; workerd ${megabytes()} MB, ${openFiles()} open files; load ${load()}`,
    );
    if (process.env.LIVE_HOLD_S) await new Promise((r) => setTimeout(r, Number(process.env.LIVE_HOLD_S) * 1000));

    // Heartbeats: every radio pings at once; the shard answers without waking (auto-response).
    const cpuBeforePings = cpuMs();
    const pongs = await Promise.all(
      radios.map(
        (radio) =>
          new Promise((resolve) => {
            const started = performance.now();
            const timer = setTimeout(() => resolve(null), 30_000);
            radio.pong = () => {
              clearTimeout(timer);
              resolve(performance.now() - started);
            };
            radio.socket.send('{"type":"ping"}');
          }),
      ),
    ).then((all) => all.filter((ms) => ms !== null));
    if (pongs.length < radios.length)
      throw new Error(`${radios.length - pongs.length} radios did not answer a heartbeat in 30 s`);
    console.log(
      `heartbeat round trip (all at once): p50 ${percentile(pongs, 50).toFixed(0)} ms, p95 ${percentile(pongs, 95).toFixed(0)} ms; ${cpuSince(cpuBeforePings)}`,
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
      for (const radio of radios) radio.told = null;
      const cpuBefore = cpuMs();
      const clicked = performance.now();
      const result = await click();
      const answered = performance.now() - clicked;
      const deadline = Date.now() + 30_000;
      while (radios.some((radio) => radio.told === null) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
      const told = radios.filter((radio) => radio.told !== null).map((radio) => radio.told - clicked);
      console.log(
        `${label}: API answered in ${answered.toFixed(0)} ms; ${told.length.toLocaleString("en")} of ${radios.length.toLocaleString("en")} radios told, ${summary(told)} after the click; ${cpuSince(cpuBefore)}`,
      );
      return result;
    }

    // A change to deploy (a new site), then a deployment to every radio of the account, all at
    // once; then its pause (a running deployment: these radios never report).
    await api("sites.add", { accountId: ACCOUNT, name: `Bench site ${Date.now()}` });
    const deployment = await timeToTell("deployment to all radios", () => api("deployments.create", { accountId: ACCOUNT }));
    await timeToTell("pause of that deployment", () => api("deployments.act", { id: deployment.id, action: "pause" }));
    // Its cancel tells the radios too (and must be heard before the next figure starts).
    await timeToTell("cancel of that deployment", () => api("deployments.act", { id: deployment.id, action: "cancel" }));
    // One bulk command to every bench radio: its rows are written first, then one message per shard.
    await timeToTell("bulk ping command", () =>
      api("commands.sendBulk", { accountId: ACCOUNT, selection: { filter: { model: "LIVE-BENCH", search: "" } }, type: "ping" }),
    );
    console.log(`workerd ${megabytes()} MB at the end; load ${load()}`);
  } finally {
    for (const radio of radios) radio.socket.close(1000, "bench done");
    sqlFile(cleanup);
  }
}

let server = null;
try {
  if (ownServer) {
    if (!process.env.LIVE_NO_BUILD) {
      console.log(`Building into ${OWN.distDir} …`);
      buildApp({ distDir: OWN.distDir });
    }
    process.env.DIRECT_PORT = String(OWN.port + 1);
    server = await startServer({ port: String(OWN.port), distDir: OWN.distDir, persistTo: OWN.persistTo });
    console.log(`server on ${server.url} after ${(server.startMs / 1000).toFixed(1)} s`);
    // The pages on PORT keep their scripts while the radios use the Worker alone.
    for (const line of await assertDirectPortKeepsAssets({ pageUrl: server.url, directUrl: base })) console.log(line);
  }
  await measure();
} finally {
  await server?.stop();
}
