import { env } from "cloudflare:test";

/**
 * Every row of every table, to prove a refused call changed nothing. Counters of calls
 * (throttles), sessions, the migrations list and any `alsoSkip` table (e.g. a token's own last
 * use) are left out: they move on every request, refused or not.
 */
export async function databaseFingerprint(alsoSkip: readonly string[] = []): Promise<string> {
  const skipped = ["throttles", "sessions", "d1_migrations", ...alsoSkip].map((name) => `'${name}'`).join(", ");
  const tables = await env.DB.prepare(
    `SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT IN (${skipped})`,
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all();
    parts.push(`${name}:${JSON.stringify(rows.results)}`);
  }
  return parts.join("\n");
}
