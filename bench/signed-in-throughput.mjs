// Benchmark: what the main signed-in pages cost the server, against a signed-in no-op of the
// same server (issue 10: "signed-in /accounts throughput against a signed-in no-op request
// (session lookup only), same server ≥ 0.5×").
//
// The no-op is GET /healthz with the session cookie: the session middleware reads the session
// (one D1 call) and the route answers "ok", so it is exactly "session lookup only". Both send
// the cookies a browser holds after its first signed-in page: the session and its hint. The pages
// are /accounts, the demo account's home, its sites list and its activity log, as the demo
// owner. autocannon drives each in turn, interleaved with the no-op (noop, pages…, noop,
// pages…) because this machine is shared and noisy; a page's ratio is its req/s over the mean
// req/s of the no-op rounds of the same run.
//
// Alone: BENCH_URL=http://localhost:8789 node bench/signed-in-throughput.mjs
import { pathToFileURL } from "node:url";
import { mean, num } from "./report.mjs";
import { benchUrl, serverRootPid } from "./server.mjs";
import { round } from "./ssr-throughput.mjs";

export const SIGNED_IN_RATIO_BUDGET = 0.5;

const OWNER = "owner@example.com";
const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_demo";

const NOOP = { name: "signed-in no-op (GET /healthz with the session)", path: "/healthz" };
export const SIGNED_IN_PAGES = [
  // The shell alone (no page data): what every signed-in page pays before its own work.
  { name: "welcome (the shell alone)", path: "/welcome" },
  { name: "accounts list", path: "/accounts", budget: true },
  { name: "account home", path: `/accounts/${ACCOUNT}` },
  { name: "sites list", path: `/accounts/${ACCOUNT}/sites` },
  { name: "activity log", path: `/accounts/${ACCOUNT}/activity-logs` },
];

const pairsOf = (response) => response.headers.getSetCookie().map((cookie) => cookie.split(";")[0]);

/**
 * The demo owner's cookies as a browser holds them after one JSON sign-in and its first page:
 * the session, and the session hint (src/server/auth/session-hint.ts) with which pages read the
 * session and their data in one D1 round trip.
 */
async function browserCookies(baseUrl) {
  const response = await fetch(`${baseUrl}/api/sign-in`, {
    method: "POST",
    headers: { "content-type": "application/json", origin: new URL(baseUrl).origin },
    body: JSON.stringify({ username: OWNER, password: DEMO_PASSWORD }),
  });
  const body = await response.json();
  if (!body.ok) throw new Error(`the demo owner could not sign in: ${JSON.stringify(body)}`);
  const jar = new Map(pairsOf(response).map((pair) => [pair.split("=")[0], pair]));
  const firstPage = await fetch(`${baseUrl}/welcome`, { headers: { cookie: [...jar.values()].join("; ") } });
  await firstPage.text();
  for (const pair of pairsOf(firstPage)) jar.set(pair.split("=")[0], pair);
  if (!jar.has("__Host-who")) throw new Error("neither signing in nor the first page left a session hint");
  return [...jar.values()].join("; ");
}

/** The page answers 200 for the cookie (not the sign-in form, not an error): else the figures mean nothing. */
async function assertSignedIn(baseUrl, path, cookie) {
  const response = await fetch(`${baseUrl}${path}`, { headers: { cookie }, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200 || html.includes("data-sign-in")) {
    throw new Error(`${path} answered ${response.status}${html.includes("data-sign-in") ? " with the sign-in form" : ""}`);
  }
}

export async function measureSignedInThroughput({
  baseUrl = benchUrl(),
  serverPid,
  connections = Number(process.env.BENCH_CONNECTIONS ?? 10),
  duration = Number(process.env.BENCH_SIGNED_IN_DURATION_S ?? 6),
  rounds = 2,
  log = () => {},
} = {}) {
  const rootPid = serverRootPid(baseUrl, serverPid);
  const cookie = await browserCookies(baseUrl);
  const headers = { cookie };
  for (const page of SIGNED_IN_PAGES) await assertSignedIn(baseUrl, page.path, cookie);
  const options = { connections, rootPid, headers };
  log("  warm-up 2 s each");
  for (const target of [NOOP, ...SIGNED_IN_PAGES])
    await round(baseUrl, target.name, { ...options, duration: 2, path: target.path });
  const measured = [];
  for (let i = 0; i < rounds; i++) {
    for (const target of [NOOP, ...SIGNED_IN_PAGES]) {
      log(`  ${target.name}: ${duration} s, ${connections} connections`);
      measured.push(await round(baseUrl, target.name, { ...options, duration, path: target.path }));
    }
  }
  const rpsOf = (name) => measured.filter((r) => r.kind === name).map((r) => r.rps);
  // workerd CPU per request (from /proc, null for a remote server): the pages' own cost, less noisy than req/s.
  const cpuOf = (name) => {
    const values = measured.filter((r) => r.kind === name && r.cpu).map((r) => r.cpu.workerdMsPerRequest);
    return values.length ? mean(values) : null;
  };
  const noopRps = mean(rpsOf(NOOP.name));
  const pages = SIGNED_IN_PAGES.map((page) => {
    const rps = rpsOf(page.name);
    return { ...page, rps: mean(rps), rpsPerRound: rps, ratio: mean(rps) / noopRps, workerdMsPerRequest: cpuOf(page.name) };
  });
  return {
    connections,
    durationS: duration,
    noop: { ...NOOP, rps: noopRps, rpsPerRound: rpsOf(NOOP.name), workerdMsPerRequest: cpuOf(NOOP.name) },
    pages,
    rounds: measured,
    budgets: pages
      .filter((page) => page.budget)
      .map((page) => ({
        name: `signed-in ${page.path} throughput ≥ ${SIGNED_IN_RATIO_BUDGET}× a signed-in no-op`,
        value: `${num(page.ratio, 2)}× (${num(page.rps, 0)} vs ${num(noopRps, 0)} req/s)`,
        pass: page.ratio >= SIGNED_IN_RATIO_BUDGET,
      })),
  };
}

export function signedInLines(result) {
  const perRound = (values) => values.map((v) => num(v, 0)).join(", ");
  const cpu = (target) =>
    target.workerdMsPerRequest == null ? "" : `, workerd ${num(target.workerdMsPerRequest, 2)} ms CPU/request`;
  return [
    `${result.noop.name}: ${num(result.noop.rps, 0)} req/s (rounds: ${perRound(result.noop.rpsPerRound)})${cpu(result.noop)}`,
    ...result.pages.map(
      (page) =>
        `${page.name} ${page.path}: ${num(page.rps, 0)} req/s (rounds: ${perRound(page.rpsPerRound)}) = ${num(page.ratio, 2)}× the no-op${cpu(page)}`,
    ),
  ];
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const result = await measureSignedInThroughput({ log: console.log });
  for (const line of signedInLines(result)) console.log(line);
  for (const b of result.budgets) console.log(`${b.pass ? "PASS" : "FAIL"}  ${b.name}: ${b.value}`);
}
