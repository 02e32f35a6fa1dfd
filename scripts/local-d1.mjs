// Migrates and seeds the LOCAL D1 database. It never touches a deployed database: every
// wrangler call here carries --local (and the throwaway --persist-to of the tests, if set).
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { seedStatements } from "./seed-sql.mjs";

const DATABASE = "configuration-tool";

/** Where the local D1 lives: the tests' throwaway folder, or wrangler's default. */
export function persistDir() {
  return process.env.PERSIST_TO ?? ".wrangler/state";
}

function wrangler(args) {
  execFileSync("npx", ["wrangler", ...args, "--local", "--persist-to", persistDir()], {
    stdio: ["ignore", "inherit", "inherit"],
    env: { ...process.env, CI: "true" }, // no interactive confirmation
  });
}

export function migrateLocal() {
  wrangler(["d1", "migrations", "apply", DATABASE]);
}

export function seedLocal() {
  const dir = mkdtempSync(join(tmpdir(), "seed-"));
  const file = join(dir, "seed.sql");
  try {
    writeFileSync(file, `${seedStatements().join("\n")}\n`);
    wrangler(["d1", "execute", DATABASE, "--file", file]);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  migrateLocal();
  seedLocal();
}
