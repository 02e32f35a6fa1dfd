/**
 * What a sites or locations list shows lives in its URL (?q=&sort=&page=&site=), so the search
 * form is a plain GET form, every page and sort can be linked to, and nothing needs JavaScript.
 */
export type WorkspaceSort = "name" | "-name" | "updated" | "-updated";
export type WorkspaceListQuery = { q: string; sort: WorkspaceSort; page: number; site: string };
export type SortColumn = "name" | "updated";

export const PAGE_SIZE = 25;
export const SEARCH_MAX_LENGTH = 120;
const MAX_PAGE = 100_000;
const sorts: readonly WorkspaceSort[] = ["name", "-name", "updated", "-updated"];
const defaults: WorkspaceListQuery = { q: "", sort: "name", page: 1, site: "" };
/** The first click on a column: names A→Z, last updated newest first. */
const firstDirection: Record<SortColumn, WorkspaceSort> = { name: "name", updated: "-updated" };

/** Reads the query leniently: anything unknown falls back to its default rather than failing. */
export function parseWorkspaceQuery(url: URL): WorkspaceListQuery {
  const params = url.searchParams;
  const sort = params.get("sort") ?? "";
  const page = Number.parseInt(params.get("page") ?? "", 10);
  return {
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    sort: sorts.includes(sort as WorkspaceSort) ? (sort as WorkspaceSort) : defaults.sort,
    page: Number.isFinite(page) && page >= 1 ? Math.min(page, MAX_PAGE) : 1,
    site: (params.get("site") ?? "").slice(0, 64),
  };
}

/** `base` with the query, changed as asked; defaults are left out to keep URLs short. */
export function queryHref(base: string, query: WorkspaceListQuery, changes: Partial<WorkspaceListQuery> = {}): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.q) params.set("q", next.q);
  if (next.site) params.set("site", next.site);
  if (next.sort !== defaults.sort) params.set("sort", next.sort);
  if (next.page !== 1) params.set("page", String(next.page));
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
  return { sortHref: queryHref(base, query, { sort: next, page: 1 }), sorted };
}

export function pageCount(total: number): number {
  return Math.max(1, Math.ceil(total / PAGE_SIZE));
}
