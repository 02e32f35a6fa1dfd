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
//
// Prints check-ins, 304s, reports and the push latency (push → check-in answered).
const args = process.argv.slice(2);
const opt = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 && args[i + 1] && !args[i + 1].startsWith("--") ? args[i + 1] : fallback;
};
const flag = (name) => args.includes(`--${name}`);
if (flag("help")) {
  console.log(
    "usage: npm run simulate -- [--url URL] (--demo | --prefix P --count N --secret S) [--connect] [--answer applied|failed|rejected|none] [--fail-percent N] [--duration S]",
  );
  process.exit(0);
}
const base = opt("url", `http://localhost:${process.env.PORT ?? 8787}`);
const answer = opt("answer", "applied");
const failPercent = Number(opt("fail-percent", "0"));
const duration = Number(opt("duration", "60"));
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

const stats = { checkIns: 0, notModified: 0, configs: 0, reports: 0, refused: 0, pushes: 0, latencies: [] };

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
    firmware: "sim-cli",
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
for (const radio of radios) radio.socket?.close();
const sorted = [...stats.latencies].sort((a, b) => a - b);
const p95 = sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * 0.95))] : null;
console.log(JSON.stringify({ radios: radios.length, ...stats, latencies: undefined, pushCheckInP95Ms: p95 }, null, 2));
