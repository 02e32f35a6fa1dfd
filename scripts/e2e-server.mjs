// The browser tests' server (playwright.config.ts starts it): a fresh throwaway local D1,
// then `npm start`'s build, migrate, seed and serve, built apart from `npm start` and on
// its own port, so it never touches the demo database or the demo build.
import { spawn } from "node:child_process";
import { rmSync } from "node:fs";

const port = process.env.PORT ?? "8788";
const distDir = process.env.DIST_DIR ?? ".builds/e2e";
const persistTo = process.env.PERSIST_TO ?? ".builds/e2e-state";

rmSync(persistTo, { recursive: true, force: true });

const server = spawn(process.execPath, ["scripts/start.mjs"], {
  stdio: ["ignore", "inherit", "inherit"],
  env: { ...process.env, PORT: port, DIST_DIR: distDir, PERSIST_TO: persistTo },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
