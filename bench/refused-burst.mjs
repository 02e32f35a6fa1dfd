// A burst of concurrent requests whose bodies the Worker refuses without reading them (a
// cross-site form post, a non-JSON API body, a body over the size limit), mixed with plain
// reads. Issue 9: the local server must answer every one of them itself, never 500.
//
//   BENCH_URL=http://localhost:8901 node bench/refused-burst.mjs
// Knobs: BURST_CONNECTIONS (2000 at once), BURST_ROUNDS (3 per scenario), BURST_BODY_KB (64).
// Loopback only: the URL must name localhost or 127.0.0.1.
import autocannon from "autocannon";

const base = (process.env.BENCH_URL ?? "http://localhost:8787").replace(/\/$/, "");
if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?$/.test(base)) throw new Error(`${base}: loopback only`);
const connections = Number(process.env.BURST_CONNECTIONS ?? 2000);
const rounds = Number(process.env.BURST_ROUNDS ?? 3);
const body = "x".repeat(Number(process.env.BURST_BODY_KB ?? 64) * 1024);

const scenarios = [
  // CSRF: another site's form post, refused before its body is read.
  {
    name: "cross-site form post",
    method: "POST",
    path: "/sign-in",
    headers: { Origin: "https://evil.example", "Content-Type": "application/x-www-form-urlencoded" },
    body,
  },
  // The API takes JSON only.
  {
    name: "API post, not JSON",
    method: "POST",
    path: "/api/accounts.add",
    headers: { Origin: base, "Content-Type": "text/plain" },
    body,
  },
  // Over the plain calls' body limit (64 KB): 413 before parsing.
  {
    name: "sign-in, too large",
    method: "POST",
    path: "/api/sign-in",
    headers: { Origin: base, "Content-Type": "application/json" },
    body: "[".repeat(80 * 1024),
  },
  // A signed-out form post of a signed-in page: the sign-in page, the body unread.
  {
    name: "form post, signed out",
    method: "POST",
    path: "/settings/subscriptions/allocate",
    headers: { Origin: base, "Content-Type": "application/x-www-form-urlencoded" },
    body,
  },
  { name: "health", method: "GET", path: "/healthz" },
];

function burst(scenario) {
  return new Promise((resolve, reject) => {
    const counts = {};
    const instance = autocannon(
      {
        url: `${base}${scenario.path}`,
        method: scenario.method,
        headers: scenario.headers,
        body: scenario.body,
        connections,
        amount: connections * rounds,
        timeout: 30,
      },
      (error, result) => (error ? reject(error) : resolve({ counts, result })),
    );
    instance.on("response", (_client, status) => {
      counts[status] = (counts[status] ?? 0) + 1;
    });
  });
}

let serverErrors = 0;
let sent = 0;
for (const scenario of scenarios) {
  const { counts, result } = await burst(scenario);
  const fivexx = Object.entries(counts)
    .filter(([status]) => Number(status) >= 500)
    .reduce((sum, [, n]) => sum + n, 0);
  serverErrors += fivexx;
  sent += result.requests.sent;
  console.log(
    `${scenario.name.padEnd(24)} ${connections} at once × ${rounds}: statuses ${JSON.stringify(counts)}, 5xx ${fivexx}, socket errors ${result.errors}, timeouts ${result.timeouts}`,
  );
}
console.log(`requests sent: ${sent}, responses >= 500: ${serverErrors}`);
process.exit(serverErrors === 0 ? 0 : 1);
