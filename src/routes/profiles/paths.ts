import { isProfileType, type ProfileType } from "@/schema/profiles";
import type { ProfileSort } from "@/server/data/profiles";

/**
 * Where the profile screens live: an account's profiles under /accounts/{accountId}/profiles,
 * organization templates under /devices/profiles/{profileType} (spec §2). What a list shows
 * lives in its URL (?type=&q=&sort=&after=|before=, keyset cursors), so it is all plain links and GET forms.
 */
export const accountProfilesHref = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/profiles`;
export const templatesHref = (type: ProfileType) => `/devices/profiles/${type}`;

export const PAGE_SIZE = 25;
export const SEARCH_MAX_LENGTH = 120;

export type ProfilesQuery = { type: ProfileType | null; q: string; sort: ProfileSort; after: string; before: string };

const sorts: readonly ProfileSort[] = ["name", "-name", "type", "-type", "updated", "-updated"];
const defaults: ProfilesQuery = { type: null, q: "", sort: "name", after: "", before: "" };
const CURSOR_MAX_LENGTH = 1_000;

/** Reads the query leniently: anything unknown is its default rather than an error. */
export function parseProfilesQuery(url: URL): ProfilesQuery {
  const params = url.searchParams;
  const type = params.get("type");
  const sort = params.get("sort") ?? "";
  return {
    type: isProfileType(type) ? type : null,
    q: (params.get("q") ?? "").trim().slice(0, SEARCH_MAX_LENGTH),
    sort: sorts.includes(sort as ProfileSort) ? (sort as ProfileSort) : defaults.sort,
    after: (params.get("after") ?? "").slice(0, CURSOR_MAX_LENGTH),
    before: (params.get("before") ?? "").slice(0, CURSOR_MAX_LENGTH),
  };
}

/**
 * A list URL with the query changed as asked; defaults are left out, and `type` when it is in
 * the path. Any change of type, search or sort starts again from the first page.
 */
export function profilesListHref(base: string, query: ProfilesQuery, changes: Partial<ProfilesQuery> = {}, typeInPath = false) {
  const next = { ...query, after: "", before: "", ...changes };
  const params = new URLSearchParams();
  if (next.type && !typeInPath) params.set("type", next.type);
  if (next.q) params.set("q", next.q);
  if (next.sort !== defaults.sort) params.set("sort", next.sort);
  if (next.after) params.set("after", next.after);
  else if (next.before) params.set("before", next.before);
  const search = params.toString();
  return search ? `${base}?${search}` : base;
}

type SortColumn = "name" | "type" | "updated";
const firstDirection: Record<SortColumn, ProfileSort> = { name: "name", type: "type", updated: "-updated" };

/** A sortable column header's link (back to page 1) and how the column is sorted now. */
export function sortLink(base: string, query: ProfilesQuery, column: SortColumn, typeInPath = false) {
  const sorted = query.sort === column ? "ascending" : query.sort === `-${column}` ? "descending" : undefined;
  const next: ProfileSort =
    sorted === undefined
      ? firstDirection[column]
      : sorted === "ascending"
        ? (`-${column}` as ProfileSort)
        : (column as ProfileSort);
  return { sortHref: profilesListHref(base, query, { sort: next }, typeInPath), sorted } as const;
}

/** The cursor half of profiles.list's input, from the URL. */
export function cursorInput(query: ProfilesQuery): { after?: string; before?: string } {
  return { after: query.after || undefined, before: query.before || undefined };
}

/** A cursor that led nowhere (its rows were deleted meanwhile) while the list still has rows. */
export function lostCursor(query: ProfilesQuery, result: { items: unknown[]; total: { count: number } }): boolean {
  return result.items.length === 0 && Boolean(query.after || query.before) && result.total.count > 0;
}
