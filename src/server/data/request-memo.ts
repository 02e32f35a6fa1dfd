import type { D1Database, D1PreparedStatement } from "../cloudflare";
import { mayWrite } from "./read-coalescing";

/**
 * A per-request memo of reads (DESIGN.md §8: few D1 round trips per page). A page's load and
 * its header each call procedures, and every procedure re-checks its account's tenancy: the
 * same row read up to five times in one request. `requestScoped` gives the request its own
 * database handle with an empty memo; `memoized` answers a repeated read from it.
 *
 * It is never stale within the request: any statement that writes (INSERT, UPDATE, DELETE,
 * REPLACE, alone or in a batch) empties the memo before it runs and again after it finished,
 * so a read after a write reads the database. Across requests nothing is shared.
 */

const ORIGINAL = Symbol("statement before the write watch");

type Memo = Map<string, Promise<unknown>>;
type Watched = D1PreparedStatement & { [ORIGINAL]?: D1PreparedStatement };

const memos = new WeakMap<D1Database, Memo>();

async function clearing<T>(memo: Memo, run: () => Promise<T>): Promise<T> {
  memo.clear();
  try {
    return await run();
  } finally {
    memo.clear();
  }
}

function watchedStatement(statement: D1PreparedStatement, memo: Memo): D1PreparedStatement {
  return new Proxy(statement, {
    get(target, property) {
      if (property === ORIGINAL) return target;
      if (property === "bind") return (...values: unknown[]) => watchedStatement(target.bind(...values), memo);
      if (property === "first" || property === "run" || property === "all" || property === "raw") {
        const method = target[property] as (...args: unknown[]) => Promise<unknown>;
        return (...args: unknown[]) => clearing(memo, () => method.apply(target, args));
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

/** The database for one request: reads pass through untouched, writes empty its memo. */
export function requestScoped(db: D1Database): D1Database {
  const memo: Memo = new Map();
  const scoped = new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          const statement = target.prepare(query);
          return mayWrite(query) ? watchedStatement(statement, memo) : statement;
        };
      }
      if (property === "batch") {
        return (statements: Watched[]) => {
          const unwrapped = statements.map((statement) => statement[ORIGINAL] ?? statement);
          const writes = statements.some((statement) => statement[ORIGINAL] !== undefined);
          return writes ? clearing(memo, () => target.batch(unwrapped)) : target.batch(unwrapped);
        };
      }
      if (property === "exec") return (query: string) => clearing(memo, () => target.exec(query));
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  memos.set(scoped, memo);
  return scoped;
}

/**
 * `read()` once per request and key, when `db` is a request's (`requestScoped`); otherwise
 * (scripts, tests over the bare binding) simply `read()`. A failed read is not kept.
 */
export function memoized<T>(db: D1Database, key: string, read: () => Promise<T>): Promise<T> {
  const memo = memos.get(db);
  if (!memo) return read();
  const known = memo.get(key) as Promise<T> | undefined;
  if (known) return known;
  const reading = read();
  memo.set(key, reading);
  reading.catch(() => {
    if (memo.get(key) === reading) memo.delete(key);
  });
  return reading;
}
