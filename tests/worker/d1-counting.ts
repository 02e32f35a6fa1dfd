import type { D1Database } from "@/server/cloudflare";

export type Counted = { calls: number; statements: string[] };

/** The test D1 binding, counting what reaches the database. */
export function counting(db: D1Database, counted: Counted): D1Database {
  const wrapStatement = (statement: object, sql: string): object =>
    new Proxy(statement, {
      get(target, property) {
        const value = Reflect.get(target, property);
        if (property === "bind")
          return (...params: unknown[]) => wrapStatement((value as (...p: unknown[]) => object).apply(target, params), sql);
        if (property === "first" || property === "all" || property === "run" || property === "raw") {
          return (...args: unknown[]) => {
            counted.calls += 1;
            counted.statements.push(sql.replace(/\s+/g, " ").slice(0, 90));
            return (value as (...a: unknown[]) => unknown).apply(target, args);
          };
        }
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (sql: string) => wrapStatement(target.prepare(sql), sql);
      if (property === "batch") {
        return (statements: unknown[]) => {
          counted.calls += 1;
          counted.statements.push(`batch of ${statements.length}`);
          return target.batch(statements as never);
        };
      }
      const value = Reflect.get(target, property);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
