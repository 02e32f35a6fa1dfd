// Command latency (issue 13): how long from "send" (the API call returns) until a live
// simulated radio holds the command. The radio is a demo radio with a WebSocket to
// /device/v1/connect, as /simulator keeps; on "command-queued" it checks in and finds the
// command there, then reports it succeeded (so its queue stays empty). Budget: p95 ≤ 1 s.
//
//   BENCH_URL=http://localhost:8789 node bench/commands-latency.mjs   (against a running server)
// Knobs: COMMAND_RUNS (40), COMMAND_RADIO (HD-0003), demo password and seed (local only).
import { pathToFileURL } from "node:url";

const DEMO_PASSWORD = "radios-demo-2025";
const ACCOUNT = "acc_harbor_demo";

function percentile(values, p) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

async function signIn(base) {
  const response = await fetch(`${base}/api/sign-in`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: base },
    body: JSON.stringify({ username: "technician@example.com", password: DEMO_PASSWORD }),
  });
  const cookie = response.headers.getSetCookie().find((c) => c.startsWith("__Host-session="));
  if (!cookie) throw new Error(`sign-in failed: ${response.status}`);
  return cookie.split(";")[0];
}

export async function measureCommandLatency(
  base,
  { runs = Number(process.env.COMMAND_RUNS ?? 40), uid = process.env.COMMAND_RADIO ?? "HD-0003" } = {},
) {
  const secret = `demo-secret-${uid.toLowerCase()}`;
  const auth = `Bearer ${uid}:${secret}`;
  const cookie = await signIn(base);
  const device = (path, body) =>
    fetch(`${base}/device/v1${path}`, {
      method: "POST",
      headers: { Authorization: auth, "Content-Type": "application/json" },
      body: JSON.stringify(body),
    }).then((r) => r.json());
  // Empty the radio's queue first (earlier runs or tests may have left commands).
  for (const command of (await device("/check-in", {})).commands ?? [])
    await device(`/commands/${command.id}/status`, { state: "succeeded" });

  const url = new URL("/device/v1/connect", base);
  url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
  const token = Buffer.from(`${uid}:${secret}`).toString("base64url");
  const socket = new WebSocket(url, ["device-v1", `auth.${token}`]);
  await new Promise((resolve, reject) => {
    socket.addEventListener("open", resolve, { once: true });
    socket.addEventListener("error", () => reject(new Error("the live connection failed")), { once: true });
  });
  let wake = null;
  socket.addEventListener("message", (event) => {
    const message = JSON.parse(String(event.data));
    if (message.type === "command-queued" && wake) wake();
  });

  const latencies = [];
  for (let i = 0; i < runs; i++) {
    const woken = new Promise((resolve) => {
      wake = resolve;
    });
    const started = performance.now();
    const response = await fetch(`${base}/api/commands.send`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Origin: base, Cookie: cookie },
      body: JSON.stringify({ uid, accountId: ACCOUNT, type: "ping" }),
    });
    const sent = (await response.json()).result?.data;
    if (!sent) throw new Error(`send failed: ${response.status}`);
    await Promise.race([woken, new Promise((_, reject) => setTimeout(() => reject(new Error("no push within 10 s")), 10_000))]);
    const checkIn = await device("/check-in", {});
    const got = (checkIn.commands ?? []).find((c) => c.id === sent.id);
    if (!got) throw new Error("the check-in after the push did not hand over the command");
    latencies.push(performance.now() - started);
    await device(`/commands/${sent.id}/status`, { state: "succeeded", result: {} });
  }
  socket.close();
  return { runs, p50: percentile(latencies, 50), p95: percentile(latencies, 95), max: Math.max(...latencies) };
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  const base = (process.env.BENCH_URL ?? "http://localhost:8789").replace(/\/$/, "");
  const result = await measureCommandLatency(base);
  const ok = result.p95 <= 1000;
  console.log(
    `command → live radio (send, push, check-in): p50 ${result.p50.toFixed(0)} ms, p95 ${result.p95.toFixed(0)} ms, max ${result.max.toFixed(0)} ms over ${result.runs} runs — budget p95 ≤ 1000 ms ${ok ? "met" : "MISSED"}`,
  );
}
