import type { Bindable } from "./db";

/**
 * Keyset (cursor) paging (DESIGN.md §8): a page starts after (or ends before) the sort key of
 * a row the reader has seen, so the database seeks into an index instead of counting past an
 * OFFSET, and page 4,000 costs what page 1 does. A list describes its orders once:
 *
 *   const orders = { name: keys("desc?", ["s.name", "s.rowid"]) … }
 *   const page = keysetWhere(orders[sort], cursor)            // WHERE … and ORDER BY … LIMIT ?
 *   const rows = await all(db, `… AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`, …page.params, page.limit)
 *   return pageOf(rows, page, (row) => [row.name, row.rowid])
 *
 * Every key of an order runs the same direction, so one row-value comparison `(a, b) > (?, ?)`
 * is an index range; the last key must be unique (a rowid). Cursors are opaque URL-safe text
 * (base64url of the key values), safe to put in links: a page works without JavaScript.
 */

export type Order = { columns: readonly string[]; descending: boolean };

export function order(direction: "asc" | "desc", columns: readonly string[]): Order {
  return { columns, descending: direction === "desc" };
}

/** Where a page starts: after the row with these key values, or before it (for "Previous"). */
export type Cursor = { direction: "after" | "before"; values: Bindable[] };

export type PageRequest = { where: string; orderBy: string; params: Bindable[]; limit: number; cursor: Cursor | null };

const MAX_CURSOR_LENGTH = 1_000;

export function encodeCursor(values: Bindable[]): string {
  const bytes = new TextEncoder().encode(JSON.stringify(values));
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** The key values in a cursor, or null for anything that is not one of ours with `arity` keys. */
export function decodeCursor(text: string | null | undefined, arity: number): Bindable[] | null {
  if (!text || text.length > MAX_CURSOR_LENGTH || !/^[\w-]+$/.test(text)) return null;
  try {
    const binary = atob(text.replaceAll("-", "+").replaceAll("_", "/"));
    const values: unknown = JSON.parse(
      new TextDecoder("utf-8", { fatal: true }).decode(Uint8Array.from(binary, (c) => c.charCodeAt(0))),
    );
    if (!Array.isArray(values) || values.length !== arity) return null;
    const ok = values.every((v) => v === null || typeof v === "string" || (typeof v === "number" && Number.isFinite(v)));
    return ok ? (values as Bindable[]) : null;
  } catch {
    return null;
  }
}

/** A cursor from the two URL parameters a list page uses (`after` wins when both are given). */
export function cursorFrom(after: string | null | undefined, before: string | null | undefined, arity: number): Cursor | null {
  const afterValues = decodeCursor(after, arity);
  if (afterValues) return { direction: "after", values: afterValues };
  const beforeValues = decodeCursor(before, arity);
  return beforeValues ? { direction: "before", values: beforeValues } : null;
}

/**
 * The WHERE fragment, ORDER BY and parameters of one page. It asks for one row more than
 * `limit`, which tells whether there is a page beyond. A "before" page is read backwards
 * (the index scanned the other way) and put back in order by `pageOf`.
 */
export function keysetWhere(sortOrder: Order, cursor: Cursor | null, limit: number): PageRequest {
  const backwards = cursor?.direction === "before";
  const descending = sortOrder.descending !== backwards;
  const orderBy = sortOrder.columns.map((column) => `${column} ${descending ? "DESC" : "ASC"}`).join(", ");
  if (!cursor) return { where: "1", orderBy, params: [], limit: limit + 1, cursor };
  const tuple = `(${sortOrder.columns.join(", ")})`;
  const marks = `(${sortOrder.columns.map(() => "?").join(", ")})`;
  const comparison = `${tuple} ${descending ? "<" : ">"} ${marks}`;
  const [leading] = sortOrder.columns;
  if (sortOrder.columns.length === 1 || leading === undefined) {
    return { where: comparison, orderBy, params: cursor.values, limit: limit + 1, cursor };
  }
  // The leading key's own bound, implied by the row value: SQLite seeks an index only with
  // the row value's columns all in it, and a rowid tie-breaker is not one, so without this
  // `(name, rowid) > (?, ?)` scans the scope from its start (issue 10: templates' deep page).
  const bound = `${leading} ${descending ? "<=" : ">="} ?`;
  return {
    where: `${bound} AND ${comparison}`,
    orderBy,
    params: [cursor.values[0] ?? null, ...cursor.values],
    limit: limit + 1,
    cursor,
  };
}

export type Page<Item> = { items: Item[]; next: string | null; previous: string | null };

/** The rows of a page in reading order, with the cursors of the pages before and after it. */
export function pageOf<Row, Item>(
  rows: Row[],
  request: PageRequest,
  keyOf: (row: Row) => Bindable[],
  toItem: (row: Row) => Item,
): Page<Item> {
  const limit = request.limit - 1;
  const more = rows.length > limit;
  const shown = rows.slice(0, limit);
  const backwards = request.cursor?.direction === "before";
  if (backwards) shown.reverse();
  const first = shown[0];
  const last = shown.at(-1);
  // Going forwards there is a page before whenever we started after a row; going backwards,
  // whenever the extra row came back. The page after works the other way round.
  const hasPrevious = backwards ? more : request.cursor !== null;
  const hasNext = backwards ? true : more;
  return {
    items: shown.map(toItem),
    next: hasNext && last ? encodeCursor(keyOf(last)) : null,
    previous: hasPrevious && first ? encodeCursor(keyOf(first)) : null,
  };
}

/** Counting stops here: past it a list says "more than N" rather than count every row. */
export const COUNT_CAP = 1_000;

/** `SELECT count(*)` over at most COUNT_CAP + 1 rows of `selectOne` (a `SELECT 1 FROM …`). */
export function cappedCount(selectOne: string): string {
  return `SELECT count(*) AS total FROM (${selectOne} LIMIT ${COUNT_CAP + 1})`;
}

/** What the pager says about a capped count. */
export type Total = { count: number; more: boolean };

export function totalOf(counted: number | undefined): Total {
  const count = counted ?? 0;
  return count > COUNT_CAP ? { count: COUNT_CAP, more: true } : { count, more: false };
}
