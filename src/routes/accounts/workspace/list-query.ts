/**
 * What a sites or locations list shows lives in its URL (?q=&sort=&site=&after=|before=), so
 * the search form is a plain GET form, every page and sort can be linked to, and nothing needs
 * JavaScript. `after`/`before` are keyset cursors (src/server/data/keyset.ts).
 */
export type WorkspaceSort = "name" | "-name" | "updated" | "-updated";
export type WorkspaceListQuery = { q: string; sort: WorkspaceSort; site: string; after: string; before: string };
export type SortColumn = "name" | "updated";

export const PAGE_SIZE = 25;
export const SEARCH_MAX_LENGTH = 120;
const CURSOR_MAX_LENGTH = 1_000;
const sorts: readonly WorkspaceSort[] = ["name", "-name", "updated", "-updated"];
const defaults: WorkspaceListQuery = { q: "", sort: "name", site: "", after: "", before: "" };
/** The first click on a column: names A→Z, last updated newest first. */
const firstDirection: Record<SortColumn, WorkspaceSort> = { name: "name", updated: "-updated" };

/** Reads the query leniently: anything unknown falls back to its default rather than failing. */
export function parseWorkspaceQuery(url: URL): WorkspaceListQuery {
  const params = url.searchParams;
  const sort = params.get("sort") ?? "";
  return {
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    sort: sorts.includes(sort as WorkspaceSort) ? (sort as WorkspaceSort) : defaults.sort,
    site: (params.get("site") ?? "").slice(0, 64),
    after: (params.get("after") ?? "").slice(0, CURSOR_MAX_LENGTH),
    before: (params.get("before") ?? "").slice(0, CURSOR_MAX_LENGTH),
  };
}

/**
 * `base` with the query, changed as asked; defaults are left out to keep URLs short. Any
 * change of search, filter or sort starts again from the first page.
 */
export function queryHref(base: string, query: WorkspaceListQuery, changes: Partial<WorkspaceListQuery> = {}): string {
  const next = { ...query, after: "", before: "", ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.site) params.set("site", next.site);
  if (next.sort !== defaults.sort) params.set("sort", next.sort);
  if (next.after) params.set("after", next.after);
  else if (next.before) params.set("before", next.before);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

/** The header link of a sortable column: where it goes (back to page 1) and how it is sorted now. */
export function sortLink(
  base: string,
  query: WorkspaceListQuery,
  column: SortColumn,
): { sortHref: string; sorted?: "ascending" | "descending" } {
  const ascending = column as WorkspaceSort;
  const descending = `-${column}` as WorkspaceSort;
  const sorted = query.sort === ascending ? "ascending" : query.sort === descending ? "descending" : undefined;
  const next = sorted === undefined ? firstDirection[column] : sorted === "ascending" ? descending : ascending;
  return { sortHref: queryHref(base, query, { sort: next }), sorted };
}

/** The cursor half of a list procedure's input, from the URL. */
export function cursorInput(query: WorkspaceListQuery): { after?: string; before?: string } {
  return { after: query.after || undefined, before: query.before || undefined };
}

/** A cursor that led nowhere (its rows were deleted meanwhile) while the list still has rows. */
export function lostCursor(query: WorkspaceListQuery, result: { items: unknown[]; total: { count: number } }): boolean {
  return result.items.length === 0 && Boolean(query.after || query.before) && result.total.count > 0;
}
