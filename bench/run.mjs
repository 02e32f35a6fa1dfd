// `npm run bench`: build into .builds/bench, serve it in workerd on :8789 (local D1 in
// .builds/bench-state), run the three benchmarks, print the figures, write them to
// bench/results/latest.json and latest.md (the inline CSS per page: css-bytes.md), and stop the server, whatever happens; then the
// list-scale benchmark (bench/list-scale.mjs → bench/results/list-scale.{json,md}).
//
// Each benchmark also runs alone against a running server: BENCH_URL=http://localhost:8789
// node bench/{js-bytes,ssr-throughput,mobile-load}.mjs
// Knobs: BENCH_PORT (8789), BENCH_DURATION_S (10), BENCH_CONNECTIONS (10), BENCH_MOBILE_RUNS (9).
// BENCH_STRICT=1 makes a failed budget exit 1 (by default budgets are reported, exit 0).
// BENCH_SERVER_ONLY=1 stops after [4/6]: the scale benchmarks have scripts of their own
// (bench/inventory.mjs, bench/list-scale.mjs, bench/reports-scale.mjs) and take the longest.
// Not run here: `npm run bench:live` (bench/live-connections.mjs, 10,000 live WebSockets against
// a server of its own; minutes of both cores and ~1.5 GB) and `npm run bench:fleet`.
import { execFileSync } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { launchChromium } from "./browser.mjs";
import { measureCommandLatency } from "./commands-latency.mjs";
import { measureCssBytes, writeCssBytes } from "./css-bytes.mjs";
import { inventoryBudgets, measureInventory, writeInventoryResults } from "./inventory.mjs";
import { jsBytesTable, jsChunksTable, measureJsBytes } from "./js-bytes.mjs";
import { measureListScale, writeListScale } from "./list-scale.mjs";
import { measureMobileLoad, mobileTable } from "./mobile-load.mjs";
import { formatTable, markdownTable } from "./report.mjs";
import { measureReports, reportsBudgets, writeReportsResults } from "./reports-scale.mjs";
import { BENCH_CONFIG, buildApp, ROOT, startServer } from "./server.mjs";
import { measureSignedInThroughput, signedInLines } from "./signed-in-throughput.mjs";
import { measureSsrThroughput, ssrSummaryLines, ssrTable } from "./ssr-throughput.mjs";

const major = Number(process.versions.node.split(".")[0]);
if (major < 22) {
  console.error(`Node ${process.versions.node}: wrangler and workerd need Node >= 22.12 (. /work/shared/tools/ensure-node.sh)`);
  process.exit(1);
}

const RESULTS = join(ROOT, "bench/results");
const started = Date.now();
const loadAtStart = loadavg().map((v) => Number(v.toFixed(2)));
const say = (line = "") => console.log(line);
const elapsed = () => `${((Date.now() - started) / 1000).toFixed(0)} s`;

function git(args) {
  try {
    return execFileSync("git", args, { cwd: ROOT, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

let server = null;
let browser = null;
async function cleanUp() {
  if (browser) await browser.close().catch(() => {});
  browser = null;
  if (server) await server.stop();
  server = null;
}
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.on(signal, () => {
    console.error(`\n${signal}: stopping the server`);
    cleanUp().finally(() => process.exit(130));
  });
}

async function main() {
  say(`Building into ${BENCH_CONFIG.distDir} …`);
  buildApp();
  say(`Starting the server on :${BENCH_CONFIG.port} (log: ${BENCH_CONFIG.log}) …`);
  server = await startServer();
  say(`  up after ${(server.startMs / 1000).toFixed(1)} s (migrations, seed, wrangler dev, workerd)`);

  // Our signal handler closes the browser and then stops the server; Playwright's would exit first.
  browser = await launchChromium({ handleSIGINT: false, handleSIGTERM: false });
  const chromiumVersion = browser.version();

  say(`\n[1/6] JavaScript bytes per page (${elapsed()})`);
  const jsBytes = await measureJsBytes({ baseUrl: server.url, browser });
  say(`[1b/6] Inline CSS per page (${elapsed()})`);
  say(await writeCssBytes(await measureCssBytes({ baseUrl: server.url, browser })));

  say(`[2/6] SSR throughput (${elapsed()})`);
  const ssr = await measureSsrThroughput({ baseUrl: server.url, serverPid: server.pid, log: say });
  say(`[2b/6] Signed-in pages against a signed-in no-op (${elapsed()})`);
  const signedIn = await measureSignedInThroughput({ baseUrl: server.url, serverPid: server.pid, log: say });

  say(`[3/6] Mobile load (${elapsed()})`);
  const mobile = await measureMobileLoad({ baseUrl: server.url, browser, log: say });

  say(`[4/6] Command to a live radio (${elapsed()})`);
  const commands = await measureCommandLatency(server.url);
  const commandBudget = {
    name: "a command reaches a live simulated radio, p95 ≤ 1000 ms",
    value: `p50 ${commands.p50.toFixed(0)} ms, p95 ${commands.p95.toFixed(0)} ms (${commands.runs} runs)`,
    pass: commands.p95 <= 1000,
  };

  await cleanUp();

  const scale = process.env.BENCH_SERVER_ONLY !== "1";
  let inventory = [];
  let reports = null;
  if (scale) {
    say(`[5/6] Inventory at 100, 10,000 and 100,000 radios (${elapsed()})`);
    inventory = await measureInventory();
    say(await writeInventoryResults(inventory));

    // In workerd through Vitest with its own generated D1: no server needed, so after the others.
    say(`[6/6] Lists at 100 / 10,000 / 100,000 rows and page cost against a no-op (${elapsed()})`);
    say(await writeListScale(measureListScale()));

    // In-process SQLite with the app's migrations: no server needed (bench/results/reports.md).
    say(`[+] Reports at 1,000 and 100,000 radios with 1,000,000 commands and changes (${elapsed()})`);
    reports = await measureReports();
    say(await writeReportsResults(reports));
  }

  const budgets = [
    ...jsBytes.budgets,
    ...ssr.budgets,
    ...signedIn.budgets,
    commandBudget,
    ...(scale ? inventoryBudgets(inventory) : []).map((c) => ({
      name: `inventory ${c.name}`,
      value: `${c.ratio.toFixed(2)}x`,
      pass: c.ok,
    })),
    ...(reports ? reportsBudgets(reports) : []).map((c) => ({ name: `reports ${c.name}`, value: c.value, pass: c.ok })),
  ];
  const meta = {
    generatedAt: new Date().toISOString(),
    commit: git(["rev-parse", "--short", "HEAD"]),
    // Others edit this tree while the benchmark runs: the build may hold uncommitted work.
    uncommittedChanges: (git(["status", "--porcelain"]) ?? "").split("\n").filter(Boolean).length,
    node: process.versions.node,
    chromium: chromiumVersion,
    cpus: cpus().length,
    cpuModel: cpus()[0]?.model ?? null,
    loadAverageAtStart: loadAtStart,
    loadAverageAtEnd: loadavg().map((v) => Number(v.toFixed(2))),
    server: `node scripts/start.mjs --no-build (wrangler dev + workerd), DIST_DIR=${BENCH_CONFIG.distDir}, PERSIST_TO=${BENCH_CONFIG.persistTo}`,
    durationS: Math.round((Date.now() - started) / 1000),
  };

  const tables = {
    jsBytes: jsBytesTable(jsBytes),
    jsChunks: jsChunksTable(jsBytes),
    ssr: ssrTable(ssr),
    mobile: mobileTable(mobile),
  };
  const ssrLines = ssrSummaryLines(ssr);
  const budgetLines = budgets.map((b) => `${b.pass ? "PASS" : "FAIL"}  ${b.name}: ${b.value}`);

  say(`\n== JavaScript per page (gzip level ${jsBytes.gzipLevel}, each file alone; split attributed via source maps) ==`);
  say(formatTable(tables.jsBytes));
  say("\nChunks:");
  say(formatTable(tables.jsChunks));
  say(`\n== SSR throughput (autocannon, ${ssr.durationS} s × 2 rounds each, interleaved; /proc CPU of the server) ==`);
  say(formatTable(tables.ssr));
  for (const line of ssrLines) say(line);
  say(`\n== Signed-in pages against a signed-in no-op (autocannon, ${signedIn.durationS} s rounds, interleaved) ==`);
  for (const line of signedInLines(signedIn)) say(line);
  say(
    `\n== Mobile load (CPU ×${mobile.profile.cpuSlowdown}, ${mobile.profile.latencyMs} ms latency, ` +
      `${mobile.profile.downloadKbps} kbps down / ${mobile.profile.uploadKbps} kbps up, ` +
      `${mobile.profile.viewport.width}×${mobile.profile.viewport.height}@${mobile.profile.deviceScaleFactor}; median of ${mobile.runsPerPage}) ==`,
  );
  say(formatTable(tables.mobile));
  say("\n== Budgets ==");
  for (const line of budgetLines) say(line);

  await mkdir(RESULTS, { recursive: true });
  await writeFile(
    join(RESULTS, "latest.json"),
    `${JSON.stringify({ meta, jsBytes, ssr, signedIn, mobile, commands, budgets }, null, 2)}\n`,
  );
  await writeFile(join(RESULTS, "latest.md"), markdown({ meta, jsBytes, ssr, signedIn, mobile, tables, ssrLines, budgetLines }));
  say(`\nWrote bench/results/latest.json and bench/results/latest.md (${elapsed()} in all)`);

  const failed = budgets.filter((b) => !b.pass).length;
  if (failed && process.env.BENCH_STRICT === "1") process.exitCode = 1;
}

function markdown({ meta, jsBytes, ssr, signedIn, mobile, tables, ssrLines, budgetLines }) {
  const p = mobile.profile;
  return `# Benchmark results

${meta.generatedAt} · commit ${meta.commit}${meta.uncommittedChanges ? ` (+${meta.uncommittedChanges} uncommitted changes in the tree)` : ""} · ${meta.cpus} × ${meta.cpuModel} · Node ${meta.node} · Chromium ${meta.chromium}.
Server: the production build in workerd through \`wrangler dev\` (\`npm run bench\`, see bench/run.mjs). Full figures: latest.json.

## Budgets

${budgetLines.map((line) => `- ${line}`).join("\n")}

## 1. JavaScript per page

Every script response of each page, each file gzipped alone (node:zlib level ${jsBytes.gzipLevel}). The split is an
estimate: the chunk's minified bytes are credited to their source files through a source map of an identical
in-memory build, each group is gzipped alone, and the chunk's real gzip size is shared in proportion.
"React runtime" = react, react-dom, scheduler; "libraries" = other node_modules (sonner); "our code" = src/**;
"bundler glue" = CommonJS interop, Vite's preload helper and unmapped bytes (counted as ours in the budget).

${markdownTable(tables.jsBytes)}

${markdownTable(tables.jsChunks)}

## 2. SSR throughput

autocannon, ${ssr.connections} connections, ${ssr.durationS} s per round, static/ssr/static/ssr after a 2 s warm-up each, then 5 s
with 1 connection each. CPU per request from /proc: workerd, and wrangler's Node process, which logs
each request (not part of a deployed Worker). autocannon shares the machine's cores.

${markdownTable(tables.ssr)}

${ssrLines.map((line) => `- ${line}`).join("\n")}

### Signed-in pages against a signed-in no-op

The demo owner's session on every request; the no-op is GET /healthz with that session (the session
middleware's one D1 call, then "ok"). autocannon, ${signedIn.connections} connections, ${signedIn.durationS} s per round, the no-op and
each page in turn, twice; a page's ratio is its req/s over the no-op's mean req/s of the same run.

${signedInLines(signedIn)
  .map((line) => `- ${line}`)
  .join("\n")}

## 3. Mobile load

DevTools throttling through CDP: CPU ×${p.cpuSlowdown}, ${p.latencyMs} ms request latency, ${p.downloadKbps} kbps down
(${p.downloadBytesPerS} B/s) and ${p.uploadKbps} kbps up (${p.uploadBytesPerS} B/s), ${p.viewport.width}×${p.viewport.height} at DPR ${p.deviceScaleFactor},
mobile UA, new context (cold cache) per run; FCP/LCP from PerformanceObserver, TBT from long tasks after FCP,
read ${mobile.settleMs} ms after network idle. Median of ${mobile.runsPerPage} runs.

${markdownTable(tables.mobile)}

## Caveats

${compressionCaveat(jsBytes, mobile)}
- DevTools throttling adds latency per request, not per connection, and localhost has no DNS/TLS; Lighthouse's
  default (simulated) throttling would give different absolute numbers.
- Throughput and latency go through wrangler dev's proxy worker and share ${meta.cpus} cores with autocannon and other
  work on this machine (load average ${meta.loadAverageAtStart.join(", ")} at the start; see "other load"): compare ssr
  with static from the same run, not absolute numbers across runs. CPU per request is more stable than req/s.
- workerd's CPU per request includes miniflare's plumbing in front of the Worker (entry and asset-router workers,
  HTTP from wrangler dev's proxy worker), which is why even /healthz costs about ${ssr.loaded.static.workerdMsPerRequest?.toFixed(2) ?? "?"} ms; the ssr − static
  difference removes it. wrangler dev also logs every request line (to .builds/bench-server.log).
- CPU throttling (×${p.cpuSlowdown}) multiplies this machine's speed, shared with other work ("machine busy"): TBT in
  particular varies from run to run; the per-run figures are in latest.json.
`;
}

function compressionCaveat(_jsBytes, mobile) {
  return (
    `- The local server does not compress; the mobile runs load every page through bench/gzip-proxy.mjs (${mobile.compression ?? "gzip"}),\n` +
    "  which compresses every text response as it streams, as Cloudflare's edge does for a deployed Worker."
  );
}

try {
  await main();
} catch (error) {
  console.error(error);
  process.exitCode = 1;
} finally {
  await cleanUp();
}
