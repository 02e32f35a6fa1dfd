// `npm start`: build, migrate and seed the local D1, then serve the built Worker in workerd
// at http://localhost:8787 (PORT overrides). `--no-build` serves the last build.
import { execFileSync, spawn } from "node:child_process";
import { migrateLocal, seedLocal } from "./local-d1.mjs";

const port = process.env.PORT ?? "8787";
const run = (cmd, args) => execFileSync(cmd, args, { stdio: "inherit" });

if (!process.argv.includes("--no-build")) run("npx", ["vite", "build"]);
migrateLocal();
seedLocal();

const server = spawn("npx", ["vite", "preview", "--port", port, "--strictPort"], { stdio: "inherit" });
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => server.kill(signal));
server.on("exit", (code) => process.exit(code ?? 0));
