// `npm run bench:firmware` (issue 26): 1,000 simulated radios download a 20 MB firmware package
// at once from the local server (the built Worker in workerd, reached directly on DIRECT_PORT
// as radios reach it deployed), 10 % of them cut midway and resumed with Range + If-Range.
// Every file is checked byte-exact (SHA-256) on arrival. Prints the requests, the failed ones
// (must be 0), MB served, wall time and the Worker's CPU per MB: workerd's CPU from /proc
// before and after, over the MB served. Locally that CPU also holds Miniflare's R2 simulator
// (a Durable Object in the same workerd reading the file from disk): an upper bound of what
// the Worker alone costs, where R2 is a service of its own.
//
//   npm run bench:firmware
// Knobs: FW_RADIOS (1000), FW_MB (20), FW_INTERRUPT_PERCENT (10), FW_BENCH_PORT (8946; the
// Worker alone on the next port), FW_VERIFY=all|interrupted (all), FW_NO_BUILD=1 (serve the last build).
import { execFileSync } from "node:child_process";
import { createHash, createHmac, randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import http from "node:http";
import { loadavg, tmpdir } from "node:os";
import { join } from "node:path";
import { buildApp, ROOT, serverCpu, startServer } from "../server.mjs";

const RADIOS = Number(process.env.FW_RADIOS ?? 1000);
const SIZE = Math.round(Number(process.env.FW_MB ?? 20) * 1024 * 1024);
const INTERRUPT_PERCENT = Number(process.env.FW_INTERRUPT_PERCENT ?? 10);
const VERIFY_ALL = (process.env.FW_VERIFY ?? "all") === "all";
const OWN = {
  port: Number(process.env.FW_BENCH_PORT ?? 8946),
  distDir: ".builds/firmware-bench",
  persistTo: ".builds/firmware-bench-state",
};
const PACKAGE_ID = "fw_bench_download";
const BUCKET = "configuration-tool-firmware";
// The local Worker's key for download URLs (src/server/firmware/download-url.ts: outside
// production, without FIRMWARE_KEY_SECRET, this fixed text); the HMAC is the same as there.
const SECRET = process.env.FIRMWARE_KEY_SECRET ?? "local-only firmware secret: set FIRMWARE_KEY_SECRET when deployed";

function signedPath(uid) {
  const exp = Math.ceil((Date.now() / 1000 + 3600) / 60) * 60;
  const key = createHmac("sha256", Buffer.from(`download-url\n${SECRET}`));
  const sig = key.update(`${PACKAGE_ID}\n${uid}\n${exp}`).digest("hex");
  return `/device/v1/firmware/${PACKAGE_ID}?${new URLSearchParams({ uid, exp: String(exp), sig })}`;
}

/** The package's file into the local R2 the server will serve (before it starts: one writer at a time). */
function putPackage(file) {
  execFileSync(
    "npx",
    [
      "wrangler",
      "r2",
      "object",
      "put",
      `${BUCKET}/packages/${PACKAGE_ID}`,
      "--file",
      file,
      "--local",
      "--persist-to",
      OWN.persistTo,
    ],
    { cwd: ROOT, stdio: ["ignore", "ignore", "inherit"], env: { ...process.env, CI: "true" } },
  );
}

const agent = new http.Agent({ keepAlive: false, maxSockets: Number.POSITIVE_INFINITY });
const stats = { requests: 0, failed: 0, bytes: 0, resumed: 0, whole: 0, failures: [] };

function fail(uid, why) {
  stats.failed++;
  if (stats.failures.length < 10) stats.failures.push(`${uid}: ${why}`);
}

/**
 * One GET; `stopAfter` bytes read, it drops the connection (a radio losing its link). Resolves
 * with the status, headers and how many bytes came, hashing them into `hash`.
 */
function download(base, path, headers, hash, stopAfter = Number.POSITIVE_INFINITY) {
  return new Promise((resolve) => {
    stats.requests++;
    const request = http.get(`${base}${path}`, { agent, headers }, (response) => {
      let received = 0;
      response.on("data", (chunk) => {
        if (received >= stopAfter) return;
        const take = Math.min(chunk.length, stopAfter - received);
        const piece = take === chunk.length ? chunk : chunk.subarray(0, take);
        hash?.update(piece);
        received += take;
        stats.bytes += take;
        if (received >= stopAfter) {
          request.destroy();
          resolve({ status: response.statusCode, headers: response.headers, received, cut: true });
        }
      });
      response.on("end", () => resolve({ status: response.statusCode, headers: response.headers, received, cut: false }));
      response.on("error", (error) => resolve({ error, received }));
    });
    request.on("error", (error) => resolve({ error, received: 0 }));
  });
}

async function radio(base, index, expectedSha) {
  const uid = `FW-BENCH-${String(index + 1).padStart(6, "0")}`;
  const path = signedPath(uid);
  // Exactly INTERRUPT_PERCENT % of the radios, spread evenly over them.
  const interrupted = Math.floor(((index + 1) * INTERRUPT_PERCENT) / 100) > Math.floor((index * INTERRUPT_PERCENT) / 100);
  const hash = VERIFY_ALL || interrupted ? createHash("sha256") : null;
  // Cut somewhere between 30 % and 70 % of the file.
  const cutAt = interrupted ? Math.floor(SIZE * (0.3 + 0.4 * Math.random())) : Number.POSITIVE_INFINITY;
  const first = await download(base, path, {}, hash, cutAt);
  if (first.error && !first.cut) return fail(uid, `first request: ${first.error.message}`);
  if (first.status !== 200) return fail(uid, `first request answered ${first.status}`);
  let have = first.received;
  if (interrupted) {
    const rest = await download(base, path, { Range: `bytes=${have}-`, "If-Range": first.headers.etag }, hash);
    if (rest.error) return fail(uid, `resume: ${rest.error.message}`);
    if (rest.status !== 206) return fail(uid, `resume answered ${rest.status}`);
    if (rest.headers["content-range"] !== `bytes ${have}-${SIZE - 1}/${SIZE}`)
      return fail(uid, `resume Content-Range ${rest.headers["content-range"]}`);
    have += rest.received;
    stats.resumed++;
  } else stats.whole++;
  if (have !== SIZE) return fail(uid, `${have} of ${SIZE} bytes`);
  if (hash && hash.digest("hex") !== expectedSha) return fail(uid, "SHA-256 differs");
}

async function measure(base, rootPid, sha) {
  // Warm-up: one download, so the isolate and the R2 simulator are up before the clock runs.
  await radio(base, RADIOS + 1, sha);
  if (stats.failed) {
    console.log(`the warm-up download failed: ${stats.failures.join("; ")}`);
    return stats.failed;
  }
  Object.assign(stats, { requests: 0, failed: 0, bytes: 0, resumed: 0, whole: 0, failures: [] });
  const before = serverCpu(rootPid).workerdMs;
  const started = performance.now();
  await Promise.all(Array.from({ length: RADIOS }, (_, i) => radio(base, i, sha)));
  const wallS = (performance.now() - started) / 1000;
  const workerdMs = serverCpu(rootPid).workerdMs - before;
  const mb = stats.bytes / (1024 * 1024);
  const load = loadavg()
    .map((v) => v.toFixed(1))
    .join(" / ");
  console.log(
    `${RADIOS} radios downloading a ${(SIZE / 1024 / 1024).toFixed(1)} MB package at once (${INTERRUPT_PERCENT} % cut midway and resumed):`,
  );
  console.log(`  requests: ${stats.requests} (${stats.whole} whole, ${stats.resumed} resumed after a cut)`);
  console.log(`  failed requests: ${stats.failed}${stats.failures.length ? ` — ${stats.failures.join("; ")}` : ""}`);
  console.log(`  served: ${mb.toFixed(0)} MB; files checked byte-exact (SHA-256): ${VERIFY_ALL ? "all" : "the resumed ones"}`);
  console.log(`  wall time: ${wallS.toFixed(1)} s (${(mb / wallS).toFixed(0)} MB/s)`);
  console.log(
    `  workerd CPU: ${(workerdMs / 1000).toFixed(1)} s, ${(workerdMs / mb).toFixed(2)} ms per MB served; load average ${load}`,
  );
  return stats.failed;
}

/**
 * The fixed cost of a download request without its bytes: HEAD (the URL's HMAC, R2's head, the
 * headers), 50 at a time, one per radio. What the MB figure above adds per request.
 */
async function headCost(base, rootPid) {
  const before = serverCpu(rootPid).workerdMs;
  let refused = 0;
  const one = (i) =>
    new Promise((resolve) => {
      const uid = `FW-BENCH-${String(i + 1).padStart(6, "0")}`;
      const request = http.request(`${base}${signedPath(uid)}`, { method: "HEAD", agent }, (response) => {
        if (response.statusCode !== 200) refused++;
        response.resume();
        response.on("end", resolve);
      });
      request.on("error", () => {
        refused++;
        resolve();
      });
      request.end();
    });
  for (let i = 0; i < RADIOS; i += 50) await Promise.all(Array.from({ length: Math.min(50, RADIOS - i) }, (_, j) => one(i + j)));
  const ms = serverCpu(rootPid).workerdMs - before;
  console.log(`  HEAD of the same URLs (no bytes): ${(ms / RADIOS).toFixed(2)} ms workerd CPU per request, ${refused} refused`);
  return refused;
}

let server = null;
let failed = 1;
const dir = mkdtempSync(join(tmpdir(), "firmware-bench-"));
try {
  if (!process.env.FW_NO_BUILD) {
    console.log(`Building into ${OWN.distDir} …`);
    buildApp({ distDir: OWN.distDir });
  }
  const file = join(dir, "package.bin");
  const content = randomBytes(SIZE);
  writeFileSync(file, content);
  putPackage(file);
  process.env.DIRECT_PORT = String(OWN.port + 1);
  server = await startServer({ port: String(OWN.port), distDir: OWN.distDir, persistTo: OWN.persistTo });
  console.log(
    `server on ${server.url} after ${(server.startMs / 1000).toFixed(1)} s; radios on the Worker alone (port ${OWN.port + 1})`,
  );
  const base = `http://localhost:${OWN.port + 1}`;
  failed = await measure(base, server.pid, createHash("sha256").update(content).digest("hex"));
  failed += await headCost(base, server.pid);
} finally {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
}
process.exitCode = failed === 0 ? 0 : 1;
