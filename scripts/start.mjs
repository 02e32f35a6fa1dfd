// `npm start`: build, migrate and seed the local D1, then serve the built Worker in workerd
// at http://localhost:8787 (PORT overrides). `--no-build` serves the last build.
//
// The built Worker runs in Miniflare (workerd) configured from the config the Cloudflare Vite
// plugin writes beside it (dist/configuration_tool/wrangler.json: bindings, Durable Objects,
// static assets), so requests reach the Worker with nothing in between. `vite preview` (a Node
// layer) and `wrangler dev` (a proxy Worker in front of the user Worker) both answered 500 under
// bursts of concurrent requests (issue 9).
//
// DIRECT_PORT=<port> also serves the Worker alone on that port, as radios reach it deployed:
// no Miniflare entry Worker, asset router or RPC proxy in front of it (each of those forwards
// every WebSocket frame, and the entry Worker's own compatibility date switches on
// permessage-deflate whatever this Worker's flags say), and no static assets. For the
// live-connections benchmark (bench/live-connections.mjs); the pages, with their scripts, still
// work on PORT (bench/direct-port.mjs checks it).
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { convertV4MiniflareOptions, Log, LogLevel, Miniflare } from "miniflare";
import { unstable_getMiniflareWorkerOptions } from "wrangler";
import { migrateLocal, persistDir, seedLocal } from "./local-d1.mjs";

const port = Number(process.env.PORT ?? "8787");
const distDir = process.env.DIST_DIR ?? "dist";
const builtConfig = `${distDir}/configuration_tool/wrangler.json`;
const vite = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url));

if (!process.argv.includes("--no-build")) execFileSync(process.execPath, [vite, "build"], { stdio: "inherit" });
if (!existsSync(builtConfig)) throw new Error(`${builtConfig} is missing: build first (npm run build)`);
migrateLocal();
seedLocal();

const { workerOptions, main } = unstable_getMiniflareWorkerOptions(builtConfig);
const { modulesRules: _rules, ...configured } = workerOptions;
const directPort = process.env.DIRECT_PORT ? Number(process.env.DIRECT_PORT) : null;
// A direct socket on a Worker with static assets goes through its asset router, so the socket
// hangs on a second, empty Worker and names this one's service: PORT keeps the assets, and
// DIRECT_PORT reaches the same Worker (the same Durable Objects) with nothing in front.
const directSocketHolder = directPort && {
  name: "direct-socket",
  modules: true,
  script: "export default { fetch() { return new Response(null, { status: 404 }); } };",
  compatibilityDate: configured.compatibilityDate,
  unsafeDirectSockets: [{ host: "localhost", port: directPort, serviceName: "configuration-tool" }],
};
// The built Worker is plain ES modules: its entry first, then every chunk it may import.
const workerDir = dirname(main);
const chunks = readdirSync(workerDir, { recursive: true })
  .filter((file) => file.endsWith(".js") && join(workerDir, file) !== main)
  .map((file) => ({ type: "ESModule", path: join(workerDir, file) }));
const shared = {
  host: "localhost",
  port,
  resourcePersistencePath: join(persistDir(), "v3"),
  // No request to workers.cloudflare.com for `Request.cf`: these machines are offline.
  cf: false,
  // Warnings and errors only: a line per request (INFO) costs a loopback call to this process.
  log: new Log(LogLevel.WARN),
  // INSPECTOR_PORT=9229 lets DevTools (or bench/profile-ssr.mjs) profile the Worker.
  ...(process.env.INSPECTOR_PORT && { inspectorPort: Number(process.env.INSPECTOR_PORT) }),
};
const worker = {
  ...configured,
  name: "configuration-tool",
  modulesRoot: workerDir,
  modules: [{ type: "ESModule", path: main }, ...chunks],
};
// The same folder `wrangler d1 … --persist-to` writes, so the migrated and seeded D1 is the one served.
const server = new Miniflare(
  convertV4MiniflareOptions(directSocketHolder ? { ...shared, workers: [worker, directSocketHolder] } : { ...shared, ...worker }),
);
const url = await server.ready;
console.log(`Configuration Tool on ${url.href.replace("127.0.0.1", "localhost")}`);
if (directPort) console.log(`the Worker alone (no assets, no proxy Workers) on http://localhost:${directPort}/`);

// Local workerd fires no Cron Triggers (TOOLCHAIN.md): the Worker's scheduled handler runs here
// every minute, as wrangler.toml's cron does when deployed (deployment steps, expired commands,
// the desk, and the retention sweep that moves old rows to the local R2 bucket).
const workerEntry = await server.getWorker();
const everyMinute = setInterval(() => {
  workerEntry.scheduled({ cron: "* * * * *" }).catch((error) => console.error("the scheduled run failed", error));
}, 60_000);

let stopping = false;
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) {
  process.on(signal, async () => {
    if (stopping) return;
    stopping = true;
    clearInterval(everyMinute);
    await server.dispose();
    process.exit(0);
  });
}
