import type { D1Database, D1PreparedStatement } from "../cloudflare";

/**
 * The thin layer every data module uses: bind, run, and map snake_case rows to the typed
 * records the rest of the app sees. One module per aggregate (organizations.ts, accounts.ts …)
 * holds that aggregate's SQL; nothing else writes SQL.
 */
export type Db = D1Database;

export type Bindable = string | number | null;

export async function all<Row>(db: Db, sql: string, ...params: Bindable[]): Promise<Row[]> {
  const { results } = await db
    .prepare(sql)
    .bind(...params)
    .all<Row>();
  return results;
}

export async function first<Row>(db: Db, sql: string, ...params: Bindable[]): Promise<Row | null> {
  return db
    .prepare(sql)
    .bind(...params)
    .first<Row>();
}

export function statement(db: Db, sql: string, ...params: Bindable[]): D1PreparedStatement {
  return db.prepare(sql).bind(...params);
}

/**
 * `json_object('name', name, …)` over the output names of a select list ("d.id, r.number AS
 * revision_number" → id, revision_number), for a subquery that hands a set of rows back as
 * one JSON value: a single statement can then read a row and the rows that belong to it.
 */
export function jsonObjectOf(selectList: string): string {
  const names = selectList.split(",").map((item) => {
    const expression = item.trim();
    const alias = /\sAS\s+(\w+)$/i.exec(expression);
    return alias?.[1] ?? expression.replace(/^\w+\./, "");
  });
  return `json_object(${names.map((name) => `'${name}', ${name}`).join(", ")})`;
}

/** Runs statements as one D1 batch: all of them or none (DESIGN.md §5). */
export async function batch(db: Db, statements: D1PreparedStatement[]): Promise<void> {
  if (statements.length) await db.batch(statements);
}

/** A new id: random, URL-safe, sortable enough for humans to tell apart. */
export function newId(prefix: string): string {
  return `${prefix}_${crypto.randomUUID().replaceAll("-", "").slice(0, 20)}`;
}

export function now(): string {
  return new Date().toISOString();
}
