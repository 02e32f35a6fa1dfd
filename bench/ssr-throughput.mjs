// Benchmark 2: what server rendering the home page costs, against a baseline from the same
// Worker through the same middleware that renders nothing (GET /healthz → "ok").
//
// autocannon (programmatic) drives both URLs against the same server, interleaved
// (static, ssr, static, ssr) after a warm-up, because this machine is shared and noisy.
// Around every round the CPU time of the server's processes is read from /proc, split into
// workerd (the Worker and wrangler dev's proxy worker) and the rest (wrangler's Node
// process, which logs each request). Two estimates of SSR CPU per request:
//   formula:  (1/ssr_rps − 1/static_rps) × 1000 × cores, where cores = the CPU workerd really
//             used per second of wall time during the SSR rounds (workerd runs one thread per
//             isolate, so this tops out near 1 whatever the machine has; cores/rps is CPU
//             seconds per request, so this is the measured figure derived from rates);
//   measured: workerd CPU ms per SSR request − workerd CPU ms per /healthz request.
// The budget takes the larger. Without /proc (a remote server) it assumes one saturated core.
// The rest of the machine's CPU use is recorded too ("other load"), to show how noisy a run was.
//
// Alone: BENCH_URL=http://localhost:8789 node bench/ssr-throughput.mjs
import { pathToFileURL } from "node:url";
import autocannon from "autocannon";
import { formatTable, mean, ms, num, table } from "./report.mjs";
import { benchUrl, machineBusyMs, serverCpu, serverRootPid } from "./server.mjs";

export const SSR_CPU_BUDGET_MS = 2;

const TARGETS = { static: "/healthz", ssr: "/" };

function runAutocannon(options) {
  return new Promise((resolve, reject) => {
    autocannon({ ...options, pipelining: 1 }, (error, result) => (error ? reject(error) : resolve(result)));
  });
}

/** One autocannon round on `path` (TARGETS[kind] by default), with the server's CPU read around it. */
export async function round(baseUrl, kind, { connections, duration, rootPid, path = TARGETS[kind], headers = {} }) {
  const before = rootPid ? serverCpu(rootPid) : null;
  const machineBefore = machineBusyMs();
  const selfBefore = process.cpuUsage();
  const started = performance.now();
  const result = await runAutocannon({ url: `${baseUrl}${path}`, connections, duration, headers });
  const wallMs = performance.now() - started;
  const after = rootPid ? serverCpu(rootPid) : null;
  const selfCpu = process.cpuUsage(selfBefore);
  const machineMs = machineBusyMs() - machineBefore;
  const autocannonMs = (selfCpu.user + selfCpu.system) / 1000;
  const requests = result.requests.total;
  const ok = result["2xx"];
  if (result.errors > 0 || result.non2xx > 0 || ok === 0) {
    throw new Error(`${kind} round: ${ok} ok, ${result.non2xx} non-2xx, ${result.errors} errors, ${result.timeouts} timeouts`);
  }
  const cpu =
    before && after
      ? {
          workerdMs: after.workerdMs - before.workerdMs,
          otherMs: after.otherMs - before.otherMs,
        }
      : null;
  return {
    kind,
    path,
    connections,
    durationS: duration,
    wallMs,
    requests,
    rps: requests / (wallMs / 1000),
    autocannonRps: result.requests.average,
    latencyMs: { mean: result.latency.mean, p50: result.latency.p50, p99: result.latency.p99, max: result.latency.max },
    bytesPerResponse: result.throughput.total / Math.max(1, requests),
    // Everything else the machine did meanwhile (other people's tests): how noisy this round was.
    machineCores: machineMs / wallMs,
    autocannonCores: autocannonMs / wallMs,
    otherLoadCores: cpu ? (machineMs - autocannonMs - cpu.workerdMs - cpu.otherMs) / wallMs : null,
    cpu: cpu && {
      ...cpu,
      workerdCores: cpu.workerdMs / wallMs,
      otherCores: cpu.otherMs / wallMs,
      workerdMsPerRequest: cpu.workerdMs / requests,
      otherMsPerRequest: cpu.otherMs / requests,
    },
  };
}

function summarize(rounds, kind) {
  const mine = rounds.filter((r) => r.kind === kind);
  const avg = (pick) => mean(mine.map(pick).filter((v) => v != null));
  return {
    kind,
    path: TARGETS[kind],
    rounds: mine.length,
    rps: avg((r) => r.rps),
    rpsPerRound: mine.map((r) => r.rps),
    p50: avg((r) => r.latencyMs.p50),
    p99: avg((r) => r.latencyMs.p99),
    meanLatency: avg((r) => r.latencyMs.mean),
    bytesPerResponse: avg((r) => r.bytesPerResponse),
    workerdCores: avg((r) => r.cpu?.workerdCores),
    otherCores: avg((r) => r.cpu?.otherCores),
    workerdMsPerRequest: avg((r) => r.cpu?.workerdMsPerRequest),
    otherMsPerRequest: avg((r) => r.cpu?.otherMsPerRequest),
    autocannonCores: avg((r) => r.autocannonCores),
    otherLoadCores: avg((r) => r.otherLoadCores),
  };
}

export async function measureSsrThroughput({
  baseUrl = benchUrl(),
  serverPid,
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
  duration = Number(process.env.BENCH_DURATION_S ?? 10),
  warmup = 2,
  singleDuration = 5,
  log = () => {},
} = {}) {
  const rootPid = serverRootPid(baseUrl, serverPid);
  const options = { connections, duration, rootPid };
  log(`  warm-up ${warmup} s each`);
  await round(baseUrl, "static", { ...options, duration: warmup });
  await round(baseUrl, "ssr", { ...options, duration: warmup });
  const loaded = [];
  for (const kind of ["static", "ssr", "static", "ssr"]) {
    log(`  ${kind} ${TARGETS[kind]}: ${duration} s, ${connections} connections`);
    loaded.push(await round(baseUrl, kind, options));
  }
  const single = [];
  for (const kind of ["static", "ssr"]) {
    log(`  ${kind} ${TARGETS[kind]}: ${singleDuration} s, 1 connection`);
    single.push(await round(baseUrl, kind, { ...options, connections: 1, duration: singleDuration }));
  }

  const s = summarize(loaded, "static");
  const r = summarize(loaded, "ssr");
  // cores / rps = CPU seconds per request, so the formula with the cores workerd really used
  // is the measured figure computed from rates; /proc gives it per round directly.
  const ssrCores = r.workerdCores;
  const formulaMs = ssrCores != null ? (1 / r.rps - 1 / s.rps) * 1000 * ssrCores : null;
  const measuredMs = r.workerdMsPerRequest != null ? r.workerdMsPerRequest - s.workerdMsPerRequest : null;
  // Without /proc figures (a server on another machine) assume workerd's one thread was saturated.
  const formulaAssumingOneCore = (1 / r.rps - 1 / s.rps) * 1000;
  const budgetFigure = measuredMs != null ? Math.max(measuredMs, formulaMs) : formulaAssumingOneCore;
  return {
    connections,
    durationS: duration,
    cpuMeasured: rootPid != null,
    loaded: { static: s, ssr: r, ratio: r.rps / s.rps },
    single: { static: summarize(single, "static"), ssr: summarize(single, "ssr") },
    rounds: [...loaded, ...single],
    ssrCpuMs: { formula: formulaMs, formulaAssumingOneCore, measuredWorkerd: measuredMs, coresUsedByWorkerd: ssrCores },
    budgets: [
      {
        name: `SSR of the home page < ${SSR_CPU_BUDGET_MS} ms CPU per request`,
        value:
          measuredMs != null
            ? `${ms(budgetFigure, 3)} (larger of: workerd CPU measured ${ms(measuredMs, 3)}, formula ${ms(formulaMs, 3)})`
            : `${ms(budgetFigure, 3)} (formula, assuming workerd saturated one core)`,
        pass: budgetFigure < SSR_CPU_BUDGET_MS,
      },
    ],
  };
}

export function ssrTable(result) {
  const row = (label, x, conns) => [
    label,
    conns,
    num(x.rps, 0),
    ms(x.p50, 0),
    ms(x.p99, 0),
    ms(x.meanLatency, 2),
    num(x.bytesPerResponse, 0),
    x.workerdMsPerRequest == null ? "-" : ms(x.workerdMsPerRequest, 3),
    x.otherMsPerRequest == null ? "-" : ms(x.otherMsPerRequest, 3),
    x.workerdCores == null ? "-" : num(x.workerdCores, 2),
    x.otherLoadCores == null ? "-" : num(Math.max(0, x.otherLoadCores), 2),
  ];
  const { loaded, single, connections } = result;
  return table(
    [
      "run",
      "conns",
      "req/s",
      "p50",
      "p99",
      "mean",
      "bytes/resp",
      "workerd CPU/req",
      "vite-node CPU/req",
      "workerd cores",
      "other load (cores)",
    ],
    [
      row("static GET /healthz", loaded.static, connections),
      row("ssr GET /", loaded.ssr, connections),
      row("static GET /healthz", single.static, 1),
      row("ssr GET /", single.ssr, 1),
    ],
  );
}

export function ssrSummaryLines(result) {
  const { loaded, single, ssrCpuMs } = result;
  return [
    `ratio ssr/static req/s (${result.connections} conns): ${num(loaded.ratio, 3)}  (static per round: ${loaded.static.rpsPerRound.map((v) => num(v)).join(", ")}; ssr: ${loaded.ssr.rpsPerRound.map((v) => num(v)).join(", ")})`,
    `single connection: ssr − static latency: p50 ${ms(single.ssr.p50 - single.static.p50, 0)}, mean ${ms(single.ssr.meanLatency - single.static.meanLatency, 2)}`,
    `SSR CPU per request, formula (1/ssr − 1/static) × 1000 × ${num(ssrCpuMs.coresUsedByWorkerd, 2)} cores (workerd's measured use): ${ms(ssrCpuMs.formula, 3)}` +
      `  (× 1 core, valid only if workerd were saturated: ${ms(ssrCpuMs.formulaAssumingOneCore, 3)})`,
    `SSR CPU per request, measured from workerd's /proc CPU time: ${ms(ssrCpuMs.measuredWorkerd, 3)}`,
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureSsrThroughput({ log: console.log });
  console.log(formatTable(ssrTable(result)));
  for (const line of ssrSummaryLines(result)) console.log(line);
  for (const b of result.budgets) console.log(`${b.pass ? "PASS" : "FAIL"}  ${b.name}: ${b.value}`);
}
