import type { D1Database, D1PreparedStatement, D1Result } from "../cloudflare";

/**
 * Reads asked for at the same moment go to D1 as one batch (DESIGN.md §8: few round trips per
 * page). A page's load runs its procedures side by side (`Promise.all`); each reads on its own,
 * and each read used to be a round trip of its own. Here `first()`, `all()` and read-only
 * `batch()` calls wait for the rest of the current turn of the event loop, then everything
 * asked for in that turn is sent as one `db.batch` and its results handed back to each caller.
 *
 * Writes and `raw()` go through at once, untouched. A read-only batch runs as one transaction:
 * the reads of a turn see one state of the database. When the combined batch fails, each read
 * is asked again alone, so every caller gets its own answer or its own error.
 */

/**
 * Whether a statement may write. It only reads if it starts with SELECT, or with WITH and no
 * `)` closing a common table expression is followed by INSERT, UPDATE, DELETE or REPLACE: a
 * word inside a read ('update' as a value, "delete" as a column name) does not make it a write.
 * Anything else (PRAGMA, a leading comment) counts as a write: when in doubt, a write.
 */
export function mayWrite(query: string): boolean {
  const start = query.trimStart().slice(0, 6).toUpperCase();
  if (start === "SELECT") return false;
  if (/^WITH\s/.test(start)) return /\)\s*(INSERT|UPDATE|DELETE|REPLACE)\b/i.test(query);
  return true;
}

type Waiting = {
  statements: D1PreparedStatement[];
  resolve: (results: D1Result[]) => void;
  reject: (error: unknown) => void;
};

/** On a read statement of ours: the binding's own statement under it (a batch takes only those). */
const UNDERLYING = Symbol("the binding's statement");
type Tagged = D1PreparedStatement & { [UNDERLYING]?: D1PreparedStatement };

async function runAlone(db: D1Database, waiting: Waiting): Promise<void> {
  try {
    waiting.resolve(await db.batch(waiting.statements));
  } catch (error) {
    waiting.reject(error);
  }
}

/** The database `db`, with the reads of each turn of the event loop sent together. */
export function coalescingReads(db: D1Database): D1Database {
  let queue: Waiting[] = [];

  async function flush(): Promise<void> {
    const group = queue;
    queue = [];
    if (group.length === 1) return runAlone(db, group[0] as Waiting);
    try {
      const results = await db.batch(group.flatMap((waiting) => waiting.statements));
      let at = 0;
      for (const waiting of group) {
        waiting.resolve(results.slice(at, at + waiting.statements.length));
        at += waiting.statements.length;
      }
    } catch {
      // One bad read must not fail its neighbours: each asks again alone.
      await Promise.all(group.map((waiting) => runAlone(db, waiting)));
    }
  }

  function enqueue(statements: D1PreparedStatement[]): Promise<D1Result[]> {
    return new Promise((resolve, reject) => {
      if (queue.length === 0) setTimeout(() => void flush(), 0);
      queue.push({ statements, resolve, reject });
    });
  }

  function readStatement(statement: D1PreparedStatement): D1PreparedStatement {
    return new Proxy(statement, {
      get(target, property) {
        if (property === UNDERLYING) return target;
        if (property === "bind") return (...values: unknown[]) => readStatement(target.bind(...values));
        if (property === "all") return () => enqueue([target]).then(([result]) => result);
        if (property === "first") {
          return async (column?: string) => {
            const [result] = await enqueue([target]);
            const row = (result?.results[0] ?? null) as Record<string, unknown> | null;
            return column === undefined ? row : (row?.[column] ?? null);
          };
        }
        const value = Reflect.get(target, property, target);
        return typeof value === "function" ? value.bind(target) : value;
      },
    });
  }

  return new Proxy(db, {
    get(target, property) {
      if (property === "prepare") {
        return (query: string) => {
          const statement = target.prepare(query);
          return mayWrite(query) ? statement : readStatement(statement);
        };
      }
      if (property === "batch") {
        return (statements: Tagged[]) => {
          const reads = statements.length > 0 && statements.every((statement) => statement[UNDERLYING] !== undefined);
          const originals = statements.map((statement) => statement[UNDERLYING] ?? statement);
          return reads ? enqueue(originals) : target.batch(originals);
        };
      }
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
