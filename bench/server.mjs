// Builds the app for the benchmarks, starts it (`scripts/start.mjs --no-build`: local D1
// migrated and seeded, then `wrangler dev` serving the built Worker in workerd), waits for
// it, and stops it again. Also reads the CPU time of the server's processes from /proc, so
// the SSR benchmark can say what a request costs.
import { execFileSync, spawn } from "node:child_process";
import { createWriteStream, existsSync, readdirSync, readFileSync, readlinkSync } from "node:fs";
import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

export const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** Where the benchmark builds, serves and keeps its local D1: apart from `npm start`'s. */
export const BENCH_CONFIG = {
  port: process.env.BENCH_PORT ?? "8789",
  distDir: ".builds/bench",
  persistTo: ".builds/bench-state",
  log: ".builds/bench-server.log",
};

export function benchUrl() {
  return (process.env.BENCH_URL ?? `http://localhost:${BENCH_CONFIG.port}`).replace(/\/$/, "");
}

/** `DIST_DIR=.builds/bench npx vite build`, quiet unless it fails. */
export function buildApp({ distDir = BENCH_CONFIG.distDir } = {}) {
  try {
    execFileSync("npx", ["vite", "build"], {
      cwd: ROOT,
      env: { ...process.env, DIST_DIR: distDir, VITE_CONFIG_NATIVE_IGNORE_WARNING: "true" },
      stdio: ["ignore", "pipe", "pipe"],
      maxBuffer: 64 * 1024 * 1024,
    });
  } catch (error) {
    process.stderr.write(`${error.stdout ?? ""}${error.stderr ?? ""}`);
    throw new Error(`build into ${distDir} failed`);
  }
}

async function isUp(url) {
  try {
    const response = await fetch(`${url}/healthz`, { signal: AbortSignal.timeout(2000) });
    return response.ok;
  } catch {
    return false;
  }
}

/**
 * Starts `node scripts/start.mjs --no-build` in its own process group (so stop() reaches
 * wrangler and its workerd processes, and nothing else) and resolves once /healthz answers.
 */
export async function startServer({
  port = BENCH_CONFIG.port,
  distDir = BENCH_CONFIG.distDir,
  persistTo = BENCH_CONFIG.persistTo,
  timeoutMs = 120_000,
} = {}) {
  const url = `http://localhost:${port}`;
  if (await isUp(url)) throw new Error(`something already answers on ${url}; stop it or set BENCH_PORT`);
  await mkdir(join(ROOT, ".builds"), { recursive: true });
  const logPath = join(ROOT, BENCH_CONFIG.log);
  const log = createWriteStream(logPath);
  const child = spawn("node", ["scripts/start.mjs", "--no-build"], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DIST_DIR: distDir, PERSIST_TO: persistTo, CI: "true" },
    stdio: ["ignore", "pipe", "pipe"],
    detached: true, // its own process group: stop() signals exactly the processes it started
  });
  child.stdout.pipe(log);
  child.stderr.pipe(log);
  let exited = null;
  const exitPromise = new Promise((resolve) => {
    child.on("exit", (code, signal) => {
      exited = { code, signal };
      resolve(exited);
    });
  });

  let stopped = false;
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    const group = -child.pid;
    const signalGroup = (signal) => {
      try {
        process.kill(group, signal);
        return true;
      } catch {
        return false; // the group is gone
      }
    };
    if (signalGroup("SIGTERM")) {
      const deadline = Date.now() + 8000;
      while (Date.now() < deadline && groupMembers(child.pid).length > 0) await sleep(100);
      if (groupMembers(child.pid).length > 0) signalGroup("SIGKILL");
    }
    await Promise.race([exitPromise, sleep(2000)]);
    log.end();
  };

  const started = Date.now();
  while (!(await isUp(url))) {
    if (exited) {
      log.end();
      throw new Error(`server exited (${JSON.stringify(exited)}) before answering; see ${BENCH_CONFIG.log}:\n${tail(logPath)}`);
    }
    if (Date.now() - started > timeoutMs) {
      await stop();
      throw new Error(`server did not answer ${url}/healthz within ${timeoutMs} ms; see ${BENCH_CONFIG.log}`);
    }
    await sleep(250);
  }
  return { url, pid: child.pid, stop, startMs: Date.now() - started };
}

function tail(path, lines = 30) {
  try {
    return readFileSync(path, "utf8").split("\n").slice(-lines).join("\n");
  } catch {
    return "";
  }
}

export const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

// ---- /proc: which processes serve the benchmark, and how much CPU they used ----

const CLOCK_TICKS_PER_S = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** pid, ppid, process group, command name and CPU time (user+system, ms) of every process. */
function readProcesses() {
  const processes = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const close = stat.lastIndexOf(")");
      const comm = stat.slice(stat.indexOf("(") + 1, close);
      const fields = stat.slice(close + 2).split(" ");
      // fields[0] is field 3 (state): ppid = 4, pgrp = 5, utime = 14, stime = 15
      processes.push({
        pid: Number(entry),
        ppid: Number(fields[1]),
        pgrp: Number(fields[2]),
        comm,
        cpuMs: ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S,
      });
    } catch {
      // the process ended while we looked
    }
  }
  return processes;
}

function groupMembers(pgid) {
  return readProcesses().filter((p) => p.pgrp === pgid);
}

/** The process and all its descendants. */
export function processTree(rootPid) {
  const all = readProcesses();
  const byParent = new Map();
  for (const p of all) byParent.set(p.ppid, [...(byParent.get(p.ppid) ?? []), p]);
  const root = all.find((p) => p.pid === rootPid);
  if (!root) return [];
  const tree = [root];
  for (let i = 0; i < tree.length; i++) tree.push(...(byParent.get(tree[i].pid) ?? []));
  return tree;
}

/** The pid listening on a local TCP port (for a server this process did not start), or null. */
export function findListeningPid(port) {
  const hex = Number(port).toString(16).toUpperCase().padStart(4, "0");
  const inodes = new Set();
  for (const file of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    if (!existsSync(file)) continue;
    for (const line of readFileSync(file, "utf8").split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      if (cols.length < 10) continue;
      if (cols[1].endsWith(`:${hex}`) && cols[3] === "0A") inodes.add(cols[9]);
    }
  }
  if (inodes.size === 0) return null;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      for (const fd of readdirSync(`/proc/${entry}/fd`)) {
        const target = readlinkSync(`/proc/${entry}/fd/${fd}`);
        const match = /^socket:\[(\d+)\]$/.exec(target);
        if (match && inodes.has(match[1])) return Number(entry);
      }
    } catch {
      // not ours to read, or gone
    }
  }
  return null;
}

/**
 * CPU time so far of the server's processes, split into workerd (the Worker itself) and the
 * rest (wrangler's Node process and npx).
 */
export function serverCpu(rootPid) {
  const tree = processTree(rootPid);
  const sum = (list) => list.reduce((total, p) => total + p.cpuMs, 0);
  const workerd = tree.filter((p) => p.comm.startsWith("workerd"));
  const other = tree.filter((p) => !p.comm.startsWith("workerd"));
  return {
    workerdMs: sum(workerd),
    otherMs: sum(other),
    processes: tree.map((p) => p.comm),
  };
}

/** The root pid of the server to observe: the one we started, or whoever listens on BENCH_URL's port. */
export function serverRootPid(url, startedPid) {
  if (startedPid) return startedPid;
  const { hostname, port } = new URL(url);
  if (!["localhost", "127.0.0.1", "[::1]"].includes(hostname)) return null;
  return findListeningPid(port || "80");
}

/** Busy CPU time of the whole machine so far (all cores, ms), from /proc/stat. */
export function machineBusyMs() {
  const fields = readFileSync("/proc/stat", "utf8").split("\n")[0].trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal …: busy = all but idle and iowait
  const busy = fields.slice(0, 8).reduce((a, b) => a + b, 0) - fields[3] - fields[4];
  return (busy * 1000) / CLOCK_TICKS_PER_S;
}
