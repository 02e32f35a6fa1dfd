import type { GroupFilter } from "@/schema/fleet/target";
import { registryHref } from "../devices/paths";

/** Saved groups live beside an account's inventory: /accounts/{id}/registry/devices/groups (issue 25). */
const enc = encodeURIComponent;

export const groupsHref = (accountId: string) => `${registryHref(accountId, "devices")}/groups`;
export const newGroupHref = (accountId: string) => `${groupsHref(accountId)}/new`;
export const groupHref = (accountId: string, groupId: string) => `${groupsHref(accountId)}/${enc(groupId)}`;
export const deleteGroupHref = (accountId: string, groupId: string) => `${groupHref(accountId, groupId)}/delete`;

/**
 * The inventory filtered the way the group is, when its filters can say it (site, model,
 * firmware, sync: src/routes/devices/list-query.ts); a location or a tag they cannot, so null.
 */
export function groupInventoryHref(accountId: string, filter: GroupFilter): string | null {
  if (filter.locationId !== undefined || filter.tag !== undefined) return null;
  const params = new URLSearchParams();
  if (filter.siteId) params.set("site", filter.siteId);
  if (filter.model) params.set("model", filter.model);
  if (filter.firmware) params.set("firmware", filter.firmware);
  if (filter.sync) params.set("sync", filter.sync);
  const search = params.toString();
  return `${registryHref(accountId, "devices")}${search ? `?${search}` : ""}`;
}
