import type { D1Database } from "@/server/cloudflare";
import type { Db } from "@/server/data/db";

export type Meter = { statements: number; rowsRead: number; rowsWritten: number };
type Meta = { meta?: { rows_read?: number; rows_written?: number } };

/** The D1 binding, counting statements (each statement of a batch) and the rows D1 reports. */
export function metered(db: D1Database, meter: Meter): Db {
  const add = (result: Meta) => {
    meter.statements += 1;
    meter.rowsRead += result.meta?.rows_read ?? 0;
    meter.rowsWritten += result.meta?.rows_written ?? 0;
  };
  const wrap = (statement: object): object =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property === "bind")
          return (...params: unknown[]) => wrap((value as (...p: unknown[]) => object).apply(target, params));
        if (property === "all" || property === "run") {
          return async (...args: unknown[]) => {
            const result = (await (value as (...a: unknown[]) => Promise<Meta>).apply(target, args)) as Meta;
            add(result);
            return result;
          };
        }
        if (property === "first") {
          // first() hides the meta: run all() and hand back its first row.
          return async () => {
            const result = await (Reflect.get(target, "all") as () => Promise<Meta & { results: unknown[] }>).apply(target);
            add(result);
            return result.results[0] ?? null;
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrap(target.prepare(sql));
      if (property === "batch") {
        return async (statements: unknown[]) => {
          const results = (await target.batch(statements as never)) as Meta[];
          for (const result of results) add(result);
          return results;
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  }) as unknown as Db;
}
