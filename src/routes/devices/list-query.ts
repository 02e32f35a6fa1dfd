import { type ContactState, isContactState, isSyncState, type SyncState } from "@/schema/fleet/sync-state";
import type { ListFilterInput } from "@/server/api/device-inputs";
import { type DeviceSort, deviceSorts, type SeenFilter, seenFilters } from "@/server/data/devices";

/** The list's state, all in the URL (bookmarkable, works without JavaScript). */
export type DevicesQuery = {
  q: string;
  account: string;
  site: string;
  model: string;
  firmware: string;
  assignment: "" | "assigned" | "unassigned";
  seen: "" | SeenFilter;
  /** Sync state (one account's list only) and contact (schema/fleet/sync-state.ts). */
  sync: "" | SyncState;
  contact: "" | ContactState;
  status: "active" | "retired";
  sort: DeviceSort;
  after: string;
};

const text = (params: URLSearchParams, name: string, max: number) => (params.get(name) ?? "").trim().slice(0, max);

export function parseDevicesQuery(params: URLSearchParams): DevicesQuery {
  const assignment = params.get("assignment");
  const seen = params.get("seen") ?? "";
  const sort = params.get("sort") ?? "uid";
  return {
    q: text(params, "q", 120),
    account: text(params, "account", 64),
    site: text(params, "site", 64),
    model: text(params, "model", 60),
    firmware: text(params, "firmware", 40),
    assignment: assignment === "assigned" || assignment === "unassigned" ? assignment : "",
    seen: (seenFilters as readonly string[]).includes(seen) ? (seen as SeenFilter) : "",
    sync: isSyncState(params.get("sync")) ? (params.get("sync") as SyncState) : "",
    contact: isContactState(params.get("contact")) ? (params.get("contact") as ContactState) : "",
    status: params.get("status") === "retired" ? "retired" : "active",
    sort: (deviceSorts as readonly string[]).includes(sort) ? (sort as DeviceSort) : "uid",
    after: text(params, "after", 400),
  };
}

/** The procedures' filter for a query. */
export function filterOf(query: DevicesQuery): ListFilterInput {
  return {
    search: query.q,
    status: query.status,
    ...(query.account ? { account: query.account } : {}),
    ...(query.site ? { siteId: query.site } : {}),
    ...(query.model ? { model: query.model } : {}),
    ...(query.firmware ? { firmware: query.firmware } : {}),
    ...(query.assignment ? { assignment: query.assignment } : {}),
    ...(query.seen ? { seen: query.seen } : {}),
    ...(query.sync ? { sync: query.sync } : {}),
    ...(query.contact ? { contact: query.contact } : {}),
  };
}

/** The query string of a state (empty values left out), with some values changed. */
export function queryString(query: DevicesQuery, change: Partial<DevicesQuery> = {}): string {
  const merged = { ...query, ...change };
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(merged)) {
    if (!value) continue;
    if (key === "sort" && value === "uid") continue;
    if (key === "status" && value === "active") continue;
    params.set(key, value);
  }
  const search = params.toString();
  return search ? `?${search}` : "";
}

/** The filter fields as hidden inputs (so a bulk action on "all matching" acts on the same filter). */
export const filterFieldNames = [
  "q",
  "account",
  "site",
  "model",
  "firmware",
  "assignment",
  "seen",
  "sync",
  "contact",
  "status",
] as const;
