import { isCalendarDay } from "@/schema/zoned-date";

/** The activity log's filters as the URL carries them (?type=&actor=&from=&to=), all optional. */
export type ActivityFilters = { type: string; actor: string; from: string; to: string };

export const ACTOR_MAX_LENGTH = 120;

/** What the URL asked for, what of it applies, and a message per field that could not. */
export type ParsedFilters = {
  /** As typed, to show in the form again. */
  values: ActivityFilters;
  /** What the list is filtered by (only what is valid). */
  applied: ActivityFilters;
  /** Field → translation key. */
  errors: Record<string, string>;
  cursor: string;
};

export function parseActivityFilters(url: URL): ParsedFilters {
  const get = (name: string) => (url.searchParams.get(name) ?? "").trim();
  const values = { type: get("type"), actor: get("actor").slice(0, ACTOR_MAX_LENGTH), from: get("from"), to: get("to") };
  const errors: Record<string, string> = {};
  const applied = { ...values };
  // A type that is no type filters nothing (the select cannot send one; a hand-made URL can).
  if (!/^[a-z][a-z-]{0,39}$/.test(applied.type)) applied.type = "";
  for (const field of ["from", "to"] as const) {
    if (applied[field] && !isCalendarDay(applied[field])) {
      errors[field] = "validation.DateInvalid";
      applied[field] = "";
    }
  }
  if (applied.from && applied.to && applied.to < applied.from) {
    errors.to = "validation.EndBeforeStart";
    applied.from = "";
    applied.to = "";
  }
  return { values, applied, errors, cursor: get("cursor").slice(0, 300) };
}

/** The procedure's filter fields for what applies. */
export function procedureFilter(filters: ActivityFilters) {
  return {
    entityType: filters.type || undefined,
    actor: filters.actor || undefined,
    from: filters.from || undefined,
    to: filters.to || undefined,
  };
}

export function isFiltered(filters: ActivityFilters): boolean {
  return Object.values(filters).some((value) => value !== "");
}

/** A query string (with "?") for these filters and, optionally, a cursor; empty values left out. */
export function filtersQuery(filters: ActivityFilters, cursor = ""): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries({ ...filters, cursor })) if (value) params.set(name, value);
  const query = params.toString();
  return query ? `?${query}` : "";
}
