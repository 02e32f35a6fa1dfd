import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { D1Database, D1PreparedStatement } from "@/server/cloudflare";
import { coalescingReads, mayWrite } from "@/server/data/read-coalescing";

/** A statement recording its own round trips, also once bound. */
function recorded(statement: D1PreparedStatement, trips: string[]): D1PreparedStatement {
  return new Proxy(statement, {
    get(inner, key) {
      const value = Reflect.get(inner, key, inner);
      if (key === "bind") return (...values: unknown[]) => recorded(inner.bind(...values), trips);
      if (key === "run" || key === "first" || key === "all") {
        return (...args: unknown[]) => {
          trips.push(String(key));
          return (value as (...a: unknown[]) => unknown).apply(inner, args);
        };
      }
      return typeof value === "function" ? value.bind(inner) : value;
    },
  });
}

/** The test binding, recording each round trip: "batch:<n>" or the method of a lone statement. */
function recording(db: D1Database, trips: string[]): D1Database {
  return new Proxy(db, {
    get(target, property) {
      if (property === "batch") {
        return (statements: unknown[]) => {
          trips.push(`batch:${statements.length}`);
          return target.batch(statements as never);
        };
      }
      if (property === "prepare") return (sql: string) => recorded(target.prepare(sql), trips);
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}

const base = env.DB as D1Database;

describe("reads asked side by side travel as one batch", () => {
  it("answers each caller with its own rows, in one round trip", async () => {
    const trips: string[] = [];
    const db = coalescingReads(recording(base, trips));
    const [one, two, rows, pair] = await Promise.all([
      db.prepare("SELECT ?1 AS n").bind(1).first<{ n: number }>(),
      db.prepare("SELECT ?1 AS n").bind(2).first<number>("n"),
      db.prepare("SELECT 3 AS n UNION ALL SELECT 4").all<{ n: number }>(),
      db.batch<{ n: number }>([db.prepare("SELECT 5 AS n"), db.prepare("SELECT 6 AS n")]),
    ]);
    expect(one).toEqual({ n: 1 });
    expect(two).toBe(2);
    expect(rows.results).toEqual([{ n: 3 }, { n: 4 }]);
    expect(pair.map((result) => result.results)).toEqual([[{ n: 5 }], [{ n: 6 }]]);
    expect(trips).toEqual(["batch:5"]);
  });

  it("gives null for no row, as D1 does", async () => {
    const db = coalescingReads(base);
    const [row, value] = await Promise.all([
      db.prepare("SELECT 1 AS n WHERE 0").first(),
      db.prepare("SELECT 1 AS n WHERE 0").first("n"),
    ]);
    expect(row).toBeNull();
    expect(value).toBeNull();
  });

  it("lets a bad read fail alone: its neighbours still get their rows", async () => {
    const db = coalescingReads(base);
    const [good, bad] = await Promise.allSettled([
      db.prepare("SELECT 7 AS n").first<{ n: number }>(),
      db.prepare("SELECT * FROM no_such_table").first(),
    ]);
    expect(good).toEqual({ status: "fulfilled", value: { n: 7 } });
    expect(bad.status).toBe("rejected");
  });

  it("sends writes at once, alone, and a read after a write sees it", async () => {
    const trips: string[] = [];
    const db = coalescingReads(recording(base, trips));
    await db.prepare("CREATE TABLE IF NOT EXISTS coalescing_probe (n INTEGER)").run();
    await db.prepare("INSERT INTO coalescing_probe (n) VALUES (?1)").bind(42).run();
    const seen = await db.prepare("SELECT n FROM coalescing_probe").first<number>("n");
    expect(seen).toBe(42);
    // A batch holding a write is the caller's transaction: sent as it is, never merged.
    await db.batch([db.prepare("DELETE FROM coalescing_probe"), db.prepare("SELECT count(*) AS n FROM coalescing_probe")]);
    expect(trips).toEqual(["run", "run", "batch:1", "batch:2"]);
  });
});

describe("what counts as a write", () => {
  it("a SELECT or WITH…SELECT reads, even when it names 'update' or \"delete\" as values or columns", () => {
    expect(mayWrite("SELECT 1")).toBe(false);
    expect(mayWrite("  select a.action = 'update', a.action = 'delete' FROM activity_logs a")).toBe(false);
    expect(mayWrite(`WITH parts(label, updates) AS (SELECT 1, 2) SELECT sum(updates) AS "update" FROM parts`)).toBe(false);
  });

  it("INSERT, UPDATE, DELETE, REPLACE and WITH…INSERT write; anything unknown counts as a write", () => {
    for (const query of [
      "INSERT INTO t VALUES (1)",
      "\n  update users SET name = 'x'",
      "DELETE FROM sessions",
      "REPLACE INTO t VALUES (1)",
      "WITH picked AS MATERIALIZED (SELECT 1)\n INSERT INTO commands SELECT * FROM picked",
      "WITH x AS (SELECT 1) UPDATE t SET a = 1",
      "PRAGMA foreign_keys = ON",
      "-- a comment first\nSELECT 1",
    ]) {
      expect(mayWrite(query), query).toBe(true);
    }
  });
});
