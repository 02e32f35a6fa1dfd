import type { RuleConditions } from "@/schema/rules";
import type { Translate } from "@/server/i18n/i18n";

/** Names of the places rules name; an id without one is a place deleted since. */
export type PlaceNames = Map<string, string>;

/** What a rule matches, in words: "Sites: Depot · Tags: night-shift", or "Every device". */
export function conditionsSummary(conditions: RuleConditions, places: PlaceNames, t: Translate): string {
  const named = (ids: string[] | undefined, deleted: string) => ids?.map((id) => places.get(id) ?? String(t(deleted))).join(", ");
  const parts: [string, string | undefined][] = [
    ["rules.summary.sites", named(conditions.siteIds, "rules.form.deletedSite")],
    ["rules.summary.locations", named(conditions.locationIds, "rules.form.deletedLocation")],
    ["rules.summary.models", conditions.models?.join(", ")],
    ["rules.summary.tags", conditions.tags?.join(", ")],
    ["rules.summary.uid", conditions.uidPattern],
  ];
  const said = parts.filter(([, value]) => value).map(([key, value]) => String(t(key, { values: value })));
  return said.length ? said.join(" · ") : String(t("rules.summary.every"));
}
