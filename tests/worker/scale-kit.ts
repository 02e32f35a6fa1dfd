import { env } from "cloudflare:test";
import type { D1Database } from "@/server/cloudflare";

/*
 * What the scale tests share: a D1 binding that remembers its statements (to explain their
 * plans afterwards) and the median time of repeated runs.
 */

export type Recorded = { sql: string; params: unknown[] };

/** A D1 binding that remembers the statements it prepares, to explain them afterwards. */
export function recording(db: D1Database, seen: Recorded[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property !== "prepare") return Reflect.get(target, property);
      return (sql: string) =>
        new Proxy(target.prepare(sql), {
          get(inner, name) {
            if (name !== "bind") return Reflect.get(inner, name);
            return (...params: unknown[]) => {
              seen.push({ sql, params });
              return inner.bind(...params);
            };
          },
        });
    },
  });
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/** The median time (ms) of `runs` runs, after one that warms the statement cache and pages. */
export async function timed(run: () => Promise<unknown>, runs: number): Promise<number> {
  await run();
  const times: number[] = [];
  for (let n = 0; n < runs; n += 1) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

/** SQLite's plan for a recorded statement, one line a step. */
export async function plan(recorded: Recorded): Promise<string[]> {
  const { results } = await env.DB.prepare(`EXPLAIN QUERY PLAN ${recorded.sql}`)
    .bind(...(recorded.params as (string | number)[]))
    .all<{ detail: string }>();
  return results.map((row) => row.detail);
}
