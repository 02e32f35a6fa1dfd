// Where a page's server time goes: a V8 CPU profile of the Worker while it serves one URL many
// times, summed by function (self time), heaviest first. Needs a server started with an
// inspector port, e.g.  INSPECTOR_PORT=9229 PORT=8899 npm start
//
//   PROFILE_URL=http://localhost:8899/accounts PROFILE_COOKIE='__Host-session=…' \
//     INSPECTOR=127.0.0.1:9229 node bench/profile-ssr.mjs
// Knobs: PROFILE_REQUESTS (200), PROFILE_TOP (30). Loopback only.
const inspector = process.env.INSPECTOR ?? "127.0.0.1:9229";
const url = process.env.PROFILE_URL ?? "http://localhost:8787/";
const requests = Number(process.env.PROFILE_REQUESTS ?? 200);
const top = Number(process.env.PROFILE_TOP ?? 30);
if (!/^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?\//.test(url)) throw new Error(`${url}: loopback only`);

const socket = new WebSocket(`ws://${inspector}/core:user:configuration-tool`);
await new Promise((resolve, reject) => {
  socket.addEventListener("open", resolve, { once: true });
  socket.addEventListener("error", reject, { once: true });
});
let nextId = 1;
const waiting = new Map();
socket.addEventListener("message", (event) => {
  const message = JSON.parse(String(event.data));
  waiting.get(message.id)?.(message.result);
  waiting.delete(message.id);
});
function send(method, params = {}) {
  const id = nextId++;
  socket.send(JSON.stringify({ id, method, params }));
  return new Promise((resolve) => waiting.set(id, resolve));
}

const headers = process.env.PROFILE_COOKIE ? { Cookie: process.env.PROFILE_COOKIE } : {};
for (let i = 0; i < 20; i++) await (await fetch(url, { headers })).arrayBuffer(); // warm up
await send("Profiler.enable");
await send("Profiler.setSamplingInterval", { interval: 100 });
await send("Profiler.start");
const started = performance.now();
for (let i = 0; i < requests; i++) await (await fetch(url, { headers })).arrayBuffer();
const wall = performance.now() - started;
const { profile } = await send("Profiler.stop");
socket.close();

// Self time per function: samples × their intervals, attributed to the sampled node.
const byNode = new Map(profile.nodes.map((node) => [node.id, node]));
const selfMs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const node = byNode.get(profile.samples[i]);
  const frame = node.callFrame;
  const key = `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber + 1}`;
  selfMs.set(key, (selfMs.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}
// Inclusive time: each sample counts once for every distinct function on its stack.
const parent = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
const nameOf = (node) => {
  const frame = node.callFrame;
  return `${frame.functionName || "(anonymous)"} ${frame.url.split("/").pop()}:${frame.lineNumber + 1}`;
};
const inclusiveMs = new Map();
for (let i = 0; i < profile.samples.length; i++) {
  const seen = new Set();
  for (let id = profile.samples[i]; id !== undefined; id = parent.get(id)) seen.add(nameOf(byNode.get(id)));
  for (const key of seen) inclusiveMs.set(key, (inclusiveMs.get(key) ?? 0) + (profile.timeDeltas[i] ?? 0) / 1000);
}

const idle = ["(idle)", "(program)", "(garbage collector)"];
const busy = [...selfMs].filter(([key]) => !idle.some((name) => key.startsWith(name)));
const busyMs = busy.reduce((sum, [, ms]) => sum + ms, 0);
console.log(`${requests} × ${url}: ${(wall / requests).toFixed(2)} ms wall, ${(busyMs / requests).toFixed(2)} ms JS per request`);
for (const name of idle) console.log(`  ${name}: ${((selfMs.get(`${name} :0`) ?? 0) / requests).toFixed(2)} ms per request`);
for (const [key, ms] of busy.sort((a, b) => b[1] - a[1]).slice(0, top)) {
  console.log(`${(ms / requests).toFixed(3).padStart(8)} ms  ${((100 * ms) / busyMs).toFixed(1).padStart(5)}%  ${key}`);
}

if (process.env.PROFILE_INCLUSIVE) {
  console.log("\nInclusive (the function and what it calls):");
  const shown = [...inclusiveMs].filter(([key]) => !idle.some((name) => key.startsWith(name)) && !key.startsWith("(root)"));
  for (const [key, ms] of shown.sort((a, b) => b[1] - a[1]).slice(0, top)) {
    console.log(`${(ms / requests).toFixed(3).padStart(8)} ms  ${key}`);
  }
}
