import type { AccountSort } from "@/server/data/accounts";

/**
 * What the accounts list shows lives in its URL (?q=&sort=&org=&after=|before=), so the search
 * form is a plain GET form, every page and sort can be linked to, and nothing needs
 * JavaScript. `after`/`before` are keyset cursors (src/server/data/keyset.ts), not page numbers.
 */
export type ListQuery = { q: string; sort: AccountSort; org: string; after: string; before: string };

export const PAGE_SIZE = 25;
export const SEARCH_MAX_LENGTH = 120;
const CURSOR_MAX_LENGTH = 1_000;

const sorts: readonly AccountSort[] = ["name", "-name", "level", "-level", "updated", "-updated"];
export type SortColumn = "name" | "level" | "updated";

/** The first click on a column: names and levels A→Z, last updated newest first. */
const firstDirection: Record<SortColumn, AccountSort> = { name: "name", level: "level", updated: "-updated" };

const defaults: ListQuery = { q: "", sort: "name", org: "", after: "", before: "" };

/** Reads the query leniently: anything unknown falls back to its default rather than failing. */
export function parseListQuery(url: URL): ListQuery {
  const params = url.searchParams;
  const sort = params.get("sort") ?? "";
  return {
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    sort: sorts.includes(sort as AccountSort) ? (sort as AccountSort) : defaults.sort,
    org: (params.get("org") ?? "").slice(0, 64),
    after: (params.get("after") ?? "").slice(0, CURSOR_MAX_LENGTH),
    before: (params.get("before") ?? "").slice(0, CURSOR_MAX_LENGTH),
  };
}

/**
 * /accounts with the query, changed as asked; defaults are left out to keep URLs short. Any
 * change of search, filter or sort starts again from the first page.
 */
export function listHref(query: ListQuery, changes: Partial<ListQuery> = {}): string {
  const next = { ...query, after: "", before: "", ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.org) params.set("org", next.org);
  if (next.sort !== defaults.sort) params.set("sort", next.sort);
  if (next.after) params.set("after", next.after);
  else if (next.before) params.set("before", next.before);
  const search = params.toString();
  return search ? `/accounts?${search}` : "/accounts";
}

/** The header link of a sortable column: where it goes (back to page 1) and how it is sorted now. */
export function sortLink(query: ListQuery, column: SortColumn): { href: string; sorted?: "ascending" | "descending" } {
  const ascending = column as AccountSort;
  const descending = `-${column}` as AccountSort;
  const sorted = query.sort === ascending ? "ascending" : query.sort === descending ? "descending" : undefined;
  const next = sorted === undefined ? firstDirection[column] : sorted === "ascending" ? descending : ascending;
  return { href: listHref(query, { sort: next }), sorted };
}
