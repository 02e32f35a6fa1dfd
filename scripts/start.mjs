// `npm start`: build, migrate and seed the local D1, then serve the built Worker in workerd
// at http://localhost:8787 (PORT overrides). `--no-build` serves the last build.
//
// The built Worker is served by `wrangler dev` on the config the Cloudflare Vite plugin writes
// beside it (dist/configuration_tool/wrangler.json: bindings, Durable Objects and their
// migrations, static assets), so requests reach workerd directly. `vite preview` put a Node
// layer in front that answered 500 "fetch failed" with a stack trace under concurrency and for
// requests the Worker refused without reading their body (issue 9).
import { execFileSync, spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { migrateLocal, persistDir, seedLocal } from "./local-d1.mjs";

const port = process.env.PORT ?? "8787";
const distDir = process.env.DIST_DIR ?? "dist";
const builtConfig = `${distDir}/configuration_tool/wrangler.json`;
// The CLIs run by this Node: no npx in between, so stopping this script stops the server.
const vite = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url));
const wrangler = fileURLToPath(new URL("../node_modules/wrangler/bin/wrangler.js", import.meta.url));

if (!process.argv.includes("--no-build")) execFileSync(process.execPath, [vite, "build"], { stdio: "inherit" });
if (!existsSync(builtConfig)) throw new Error(`${builtConfig} is missing: build first (npm run build)`);
migrateLocal();
seedLocal();

const server = spawn(
  process.execPath,
  [
    wrangler,
    "dev",
    "--config",
    builtConfig,
    "--port",
    port,
    "--ip",
    "localhost",
    // The same local D1 (and other state) the migrate and seed steps wrote.
    "--persist-to",
    persistDir(),
    "--show-interactive-dev-session=false",
    "--live-reload=false",
  ],
  {
    stdio: ["ignore", "inherit", "inherit"],
    // No request to workers.cloudflare.com for `Request.cf` (offline machines print a stack trace).
    env: { ...process.env, WRANGLER_SEND_METRICS: "false", CLOUDFLARE_CF_FETCH_ENABLED: "false" },
  },
);
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
