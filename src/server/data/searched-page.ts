import { type Bindable, type Db, statement } from "./db";
import { COUNT_CAP, type PageRequest } from "./keyset";

/**
 * A search's page and count in one statement (DESIGN.md §8), for a table with `name` and
 * `updated_at` and a `<table>_fts` index. The rows of the scope that match are read once from
 * the index, at most COUNT_CAP + 1 of them, with their sort keys (`name`, `updated_at`, the
 * rowid and `keys`): their number is the count, the page is the first of them in the sort's
 * order, and only the page's rows are read whole. So the cost follows the number of matches,
 * capped, not the size of the table nor where the matches fall in the sort's order. Null when
 * more than COUNT_CAP match: the caller then reads the page in the sort's index order.
 *
 * `filter` (the scope, unqualified columns of `table`) and `columns` (the page's select list,
 * which may name `table`) are fixed text from the data modules, never input.
 */
export async function searchedPage<Found>(
  db: Db,
  {
    table,
    columns,
    filter,
    params,
    query,
    keys,
    page,
  }: {
    table: "sites" | "locations" | "profiles";
    columns: string;
    filter: string;
    params: Bindable[];
    query: string;
    keys: string[];
    page: PageRequest;
  },
): Promise<{ rows: Found[]; total: number } | null> {
  const gathered = ["rowid", "name", "updated_at", ...keys].map((key) => `${table}.${key} AS ${key}`).join(", ");
  const { results } = await statement(
    db,
    `WITH m AS MATERIALIZED (
       SELECT ${gathered} FROM ${table}_fts CROSS JOIN ${table} ON ${table}.rowid = ${table}_fts.rowid
       WHERE ${table}_fts MATCH ? AND ${filter} LIMIT ${COUNT_CAP + 1})
     SELECT c.total, ${columns}, p.sort_name, p.sort_updated, p.sort_rowid
     FROM (SELECT count(*) AS total FROM m) c
     LEFT JOIN (SELECT rowid AS sort_rowid, name AS sort_name, updated_at AS sort_updated,
                       row_number() OVER (ORDER BY ${page.orderBy}) AS sort_rank
                FROM m WHERE ${page.where} ORDER BY ${page.orderBy} LIMIT ?) p ON 1
     LEFT JOIN ${table} ON ${table}.rowid = p.sort_rowid
     ORDER BY p.sort_rank`,
    query,
    ...params,
    ...page.params,
    page.limit,
  ).all<Found & { total: number; sort_rowid: number | null }>();
  const total = results[0]?.total ?? 0;
  if (total > COUNT_CAP) return null;
  // With no row on the page, the count comes back alone, on a row of nulls.
  return { rows: results.filter((row) => row.sort_rowid !== null), total };
}
