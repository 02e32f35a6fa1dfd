import type { GroupFilter } from "@/schema/fleet/target";
import { usePage } from "@/server/render/page-context";

/** An account's places as the inventory offers them (devices.places): a site, or a site › location. */
export type Place = { siteId: string; locationId: string | null; label: string };

/** A group's conditions in words ("Site: North garage · Firmware: 1.0"), or "every radio". */
export function ConditionWords({ filter, places }: { filter: GroupFilter; places: Place[] }) {
  const { t } = usePage();
  const deleted = String(t("radioGroups.deletedPlace"));
  const placeName = (siteId: string, locationId: string | null) =>
    places.find((p) => p.siteId === siteId && p.locationId === locationId)?.label ?? deleted;
  const locationName = (locationId: string) => places.find((p) => p.locationId === locationId)?.label ?? deleted;
  const words: string[] = [];
  const say = (key: keyof GroupFilter, value: string) => words.push(String(t(`radioGroups.condition.${key}`, { value })));
  if (filter.siteId !== undefined && filter.locationId === undefined) say("siteId", placeName(filter.siteId, null));
  if (filter.locationId !== undefined) say("locationId", locationName(filter.locationId));
  if (filter.model !== undefined) say("model", filter.model);
  if (filter.firmware !== undefined) say("firmware", filter.firmware);
  if (filter.tag !== undefined) say("tag", filter.tag);
  if (filter.sync !== undefined) say("sync", String(t(`fleetStates.sync.${filter.sync}`)));
  return <>{words.length > 0 ? words.join(" · ") : t("radioGroups.everyRadio")}</>;
}
