import { type Bindable, type Db, statement } from "./db";
import { ftsQuery, ftsRowids } from "./fts";
import { COUNT_CAP, type Cursor, cappedCount, keysetWhere, order, type Page, pageOf, type Total, totalOf } from "./keyset";
import { searchedPage } from "./searched-page";

/**
 * One page of rows named within a scope (an account's sites, locations …): by name or by last
 * update, searched by name through the table's FTS5 index, paged by cursor, counted up to
 * COUNT_CAP — the pattern every list of the app follows (DESIGN.md §8). A table opts in with
 * an index on (scope…, name COLLATE NOCASE), one on (scope…, updated_at) — SQLite appends the
 * rowid to both — and a `<table>_fts` table (migration 0010). Rows and count go in one batch,
 * or for a search in one statement (`searchedPage`).
 */
export type NamedSort = "name" | "-name" | "updated" | "-updated";

export const namedSorts = ["name", "-name", "updated", "-updated"] as const;

const orders = {
  name: order("asc", ["name COLLATE NOCASE", "rowid"]),
  "-name": order("desc", ["name COLLATE NOCASE", "rowid"]),
  updated: order("asc", ["updated_at", "rowid"]),
  "-updated": order("desc", ["updated_at", "rowid"]),
};

/** Both orders have two keys: a cursor of any other length is not one of ours. */
export const NAMED_SORT_ARITY = 2;

type Keyed = { sort_name: string; sort_updated: string; sort_rowid: number };

export async function listNamed<Row, Item>(
  db: Db,
  {
    table,
    columns,
    scope,
    search,
    sort,
    limit,
    cursor,
    toItem,
  }: {
    table: "sites" | "locations";
    columns: string;
    /** The WHERE fragment that picks the scope (`account_id = ?`) and its parameters. */
    scope: { where: string; params: Bindable[] };
    search: string;
    sort: NamedSort;
    limit: number;
    cursor: Cursor | null;
    toItem: (row: Row) => Item;
  },
): Promise<Page<Item> & { total: Total }> {
  const query = ftsQuery(search);
  if (search.trim() && !query) return { items: [], next: null, previous: null, total: totalOf(0) };
  const page = keysetWhere(orders[sort], cursor, limit);
  const keyOf =
    sort === "name" || sort === "-name"
      ? (row: Keyed) => [row.sort_name, row.sort_rowid]
      : (row: Keyed) => [row.sort_updated, row.sort_rowid];
  const finish = (rows: (Row & Keyed)[], total: number | undefined) => ({
    ...pageOf(rows, page, keyOf, toItem),
    total: totalOf(total),
  });
  if (query) {
    const found = await searchedPage<Row & Keyed>(db, {
      table,
      columns,
      filter: scope.where,
      params: scope.params,
      query,
      keys: [],
      page,
    });
    if (found) return finish(found.rows, found.total);
  }
  const filters = [scope.where];
  const params = [...scope.params];
  if (query) {
    const matches = ftsRowids(table, query);
    filters.push(`rowid IN (${matches.sql})`);
    params.push(...matches.params);
  }
  const where = filters.join(" AND ");
  const pageStatement = statement(
    db,
    `SELECT ${columns}, name AS sort_name, updated_at AS sort_updated, rowid AS sort_rowid FROM ${table}
     WHERE ${where} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`,
    ...params,
    ...page.params,
    page.limit,
  );
  // A search that got here matched more than COUNT_CAP rows: its count is known.
  if (query) return finish((await pageStatement.all<Row & Keyed>()).results, COUNT_CAP + 1);
  const [rows, counted] = await db.batch<(Row & Keyed) | { total: number }>([
    pageStatement,
    statement(db, cappedCount(`SELECT 1 FROM ${table} WHERE ${where}`), ...params),
  ]);
  return finish((rows?.results ?? []) as (Row & Keyed)[], (counted?.results[0] as { total: number } | undefined)?.total);
}
