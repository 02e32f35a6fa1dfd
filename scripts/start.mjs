// `npm start`: build, migrate and seed the local D1, then serve the built Worker in workerd
// at http://localhost:8787 (PORT overrides). `--no-build` serves the last build.
import { execFileSync, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import { migrateLocal, seedLocal } from "./local-d1.mjs";

const port = process.env.PORT ?? "8787";
// Vite's own CLI, run by this Node: no npx in between, so stopping this script stops the server.
const vite = fileURLToPath(new URL("../node_modules/vite/bin/vite.js", import.meta.url));

if (!process.argv.includes("--no-build")) execFileSync(process.execPath, [vite, "build"], { stdio: "inherit" });
migrateLocal();
seedLocal();

const server = spawn(process.execPath, [vite, "preview", "--port", port, "--strictPort"], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM", "SIGHUP"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));
