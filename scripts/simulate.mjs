// `npm run simulate -- [options]`: many radios at once against a running server, speaking
// the device protocol (docs/device-protocol.md), for load tests and benchmarks.
//
//   --url http://localhost:8887     server (default http://localhost:$PORT or 8787)
//   --demo                          the five local demo radios (HD-0001…HD-0005)
//   --prefix LOAD --count 1000 --secret <secret>   radios <prefix>-000001… sharing one secret
//   --connect                       hold a WebSocket per radio and check in when pushed
//   --answer applied|failed|rejected|none   what radios report on a new deployment (default applied)
//   --fail-percent 10               of radios that answer failed instead (default 0)
//   --duration 60                   seconds to run (default 60; 0 = one round of check-ins)
//   --firmware 2.3.0                the firmware the radios start with (default sim-cli)
//   --interrupt-percent 10          of radios whose firmware download is cut once midway, then resumed
//   --firmware-fail download|verify|install|reboot|boot-old   where radios fail a firmware update
//   --firmware-fail-percent 10      of radios that fail there (default 100 with --firmware-fail)
//
// Radios follow the check-in's `firmware` block (scripts/simulate-firmware.mjs). Prints
// check-ins, 304s, reports, the push latency (push → check-in answered) and a firmware summary
// (bytes, resumed downloads, failures per stage).
import { FIRMWARE_FAIL_STAGES, followFirmware, newFirmwareStats, shouldAct } from "./simulate-firmware.mjs";

const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
if (flag("help")) {
  console.log(
    "usage: npm run simulate -- [--url URL] (--demo | --prefix P --count N --secret S) [--connect] [--answer applied|failed|rejected|none] [--fail-percent N] [--duration S] [--firmware V] [--interrupt-percent N] [--firmware-fail download|verify|install|reboot|boot-old] [--firmware-fail-percent N]",
  );
  process.exit(0);
}
const base = opt("url", `http://localhost:${process.env.PORT ?? 8787}`);
const answer = opt("answer", "applied");
const failPercent = Number(opt("fail-percent", "0"));
const duration = Number(opt("duration", "60"));
const startFirmware = opt("firmware", "sim-cli");
const interruptPercent = Number(opt("interrupt-percent", "0"));
const firmwareFail = opt("firmware-fail", "");
if (firmwareFail && !FIRMWARE_FAIL_STAGES.includes(firmwareFail))
  throw new Error(`--firmware-fail takes one of ${FIRMWARE_FAIL_STAGES.join(", ")}`);
const firmwareFailPercent = Number(opt("firmware-fail-percent", firmwareFail ? "100" : "0"));
let radios;
if (flag("demo"))
  radios = ["HD-0001", "HD-0002", "HD-0003", "HD-0004", "HD-0005"].map((uid) => ({
    uid,
    secret: `demo-secret-${uid.toLowerCase()}`,
  }));
else {
  const prefix = opt("prefix", "LOAD");
  const count = Number(opt("count", "10"));
  const secret = opt("secret", "");
  if (!secret) throw new Error("--secret is required with --prefix (or use --demo)");
  radios = Array.from({ length: count }, (_, i) => ({ uid: `${prefix}-${String(i + 1).padStart(6, "0")}`, secret }));
}

for (const radio of radios) {
  radio.firmware = startFirmware;
  // Decided once per radio, so a rollout's numbers are what was asked for.
  radio.fwPlan = {
    interruptOnce: Math.random() * 100 < interruptPercent,
    failAt: firmwareFail && Math.random() * 100 < firmwareFailPercent ? firmwareFail : null,
  };
}

const stats = { checkIns: 0, notModified: 0, configs: 0, reports: 0, refused: 0, pushes: 0, latencies: [] };
const firmwareStats = newFirmwareStats();
const firmwareJobs = new Set();

/** How a radio's firmware job reaches the server. */
function firmwareIo(radio) {
  return {
    report: (deploymentId, body) => call(radio, `/deployments/${encodeURIComponent(deploymentId)}/status`, body),
    configKeys: async () => (await call(radio, "/config")).json?.firmwareKeys ?? [],
    checkIn: async () => (await call(radio, "/check-in", { firmware: radio.firmware })).json?.firmware ?? null,
    // The signed URL is the credential: no Authorization header.
    fetch: (path, headers, signal) => fetch(new URL(path, base), { headers, signal }),
  };
}

async function call(radio, path, body, headers = {}) {
  const response = await fetch(`${base}/device/v1${path}`, {
    method: body === undefined ? "GET" : "POST",
    headers: {
      Authorization: `Bearer ${radio.uid}:${radio.secret}`,
      ...(body === undefined ? {} : { "Content-Type": "application/json" }),
      ...headers,
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await response.text();
  return { status: response.status, headers: response.headers, json: text ? JSON.parse(text) : null };
}

async function checkIn(radio) {
  const result = await call(radio, "/check-in", {
    firmware: radio.firmware,
    reportedRevision: radio.running ?? null,
    battery: 80,
    signal: -70,
  });
  stats.checkIns++;
  if (result.status !== 200) {
    stats.refused++;
    return;
  }
  const body = result.json;
  radio.poll = body.pollSeconds;
  if (body.configEtag !== radio.etag) {
    // Told that something moved: `no-cache` takes the server's full path, so a fleet version an
    // isolate cached a few seconds ago cannot answer 304 (docs/device-protocol.md); still a 304
    // when the configuration itself is unchanged, with the new ETag to keep.
    const config = await call(
      radio,
      "/config",
      undefined,
      radio.etag ? { "If-None-Match": radio.etag, "Cache-Control": "no-cache" } : {},
    );
    if (config.status === 304) stats.notModified++;
    else stats.configs++;
    if (config.status === 200 || config.status === 304) radio.etag = config.headers.get("etag");
  } else stats.notModified++;
  const d = body.deployment;
  if (d && d.yourState === "pending" && answer !== "none") {
    const fails = Math.random() * 100 < failPercent;
    const final = fails ? "failed" : answer;
    for (const state of final === "applied" ? ["delivered", "applying", "applied"] : [final]) {
      const r = await call(radio, `/deployments/${d.id}/status`, { state, ...(fails ? { code: "SIM" } : {}) });
      if (r.status === 200) stats.reports++;
    }
    if (final === "applied") radio.running = d.revision.id;
  }
  if (shouldAct(radio, body.firmware)) {
    const job = followFirmware(radio, body.firmware, firmwareIo(radio), radio.fwPlan, firmwareStats)
      .catch((error) => {
        firmwareStats.failures.download++;
        console.error(`${radio.uid}: firmware update stopped: ${error.message}`);
      })
      .finally(() => firmwareJobs.delete(job));
    firmwareJobs.add(job);
  }
}

function connect(radio) {
  const url = `${base.replace(/^http/, "ws")}/device/v1/connect`;
  const socket = new WebSocket(url, ["device-v1", `auth.${Buffer.from(`${radio.uid}:${radio.secret}`).toString("base64url")}`]);
  socket.addEventListener("message", async (event) => {
    const message = JSON.parse(String(event.data));
    if (message.type !== "check-in") return;
    stats.pushes++;
    const started = Date.now();
    await checkIn(radio);
    stats.latencies.push(Date.now() - started);
  });
  const heartbeat = setInterval(() => socket.readyState === 1 && socket.send('{"type":"ping"}'), 30_000);
  socket.addEventListener("close", () => clearInterval(heartbeat));
  radio.socket = socket;
}

for (const radio of radios) await checkIn(radio);
if (flag("connect")) for (const radio of radios) connect(radio);
const end = Date.now() + duration * 1000;
while (Date.now() < end) {
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const now = Date.now();
  for (const radio of radios) {
    radio.next ??= now + (radio.poll ?? 300) * 1000;
    if (now >= radio.next) {
      radio.next = now + (radio.poll ?? 300) * 1000;
      checkIn(radio).catch(() => stats.refused++);
    }
  }
}
// Downloads under way finish before the summary (a deadline does not cut them short).
while (firmwareJobs.size > 0) await Promise.all([...firmwareJobs]);
for (const radio of radios) radio.socket?.close();
const sorted = [...stats.latencies].sort((a, b) => a - b);
const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : null;
const firmware = { ...firmwareStats, megabytes: Number((firmwareStats.bytes / 1024 / 1024).toFixed(1)) };
console.log(JSON.stringify({ radios: radios.length, ...stats, latencies: undefined, pushCheckInP95Ms: p95, firmware }, null, 2));
