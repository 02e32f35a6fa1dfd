import type { D1Database, D1PreparedStatement } from "../cloudflare";

/**
 * Local D1 is a SQLite file that local tools (`npm run demo:invite`, `demo:radio`,
 * `wrangler d1 execute --local`) may write while the server runs; SQLite then answers
 * SQLITE_BUSY and a request would fail with a 500. Deployed D1 has a single writer and never
 * does. Retrying a busy statement or batch a few times keeps such a moment invisible.
 */
const ATTEMPTS = 6;
const ORIGINAL = Symbol("original statement");

function isBusy(error: unknown): boolean {
  const text = error instanceof Error ? `${error.message} ${String(error.cause ?? "")}` : String(error);
  return /SQLITE_BUSY|database is locked/.test(text);
}

async function retrying<T>(run: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || attempt >= ATTEMPTS) throw error;
      await new Promise((resolve) => setTimeout(resolve, 25 * attempt));
    }
  }
}

type Statement = D1PreparedStatement & { [ORIGINAL]?: D1PreparedStatement };

function retryingStatement(statement: D1PreparedStatement): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property) {
      if (property === ORIGINAL) return target;
      if (property === "bind") return (...values: unknown[]) => retryingStatement(target.bind(...values));
      if (property === "first" || property === "run" || property === "all" || property === "raw") {
        const method = target[property] as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => retrying(() => method.apply(target, args));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The database, with every statement and batch retried while SQLite says it is busy. */
export function retryWhenBusy(db: D1Database): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") return (query: string) => retryingStatement(target.prepare(query));
      if (property === "batch") {
        return (statements: Statement[]) =>
          retrying(() => target.batch(statements.map((statement) => statement[ORIGINAL] ?? statement)));
      }
      if (property === "exec") return (query: string) => retrying(() => target.exec(query));
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
