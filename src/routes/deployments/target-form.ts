import type { Target } from "@/schema/fleet/target";

/**
 * The confirm form's target fields as a target (schema/fleet/target.ts): a saved group, a place
 * ("site" or "site/location"), a model, a firmware and a tag, each narrowing; all empty: every
 * radio (no target sent). The procedure checks every id against the account.
 */
export const targetFields = ["targetGroup", "targetPlace", "targetModel", "targetFirmware", "targetTag"] as const;

/** The target's own field names, as a refusal names them. */
export const targetConditionFields = ["groupId", "siteId", "locationId", "model", "firmware", "tag"] as const;

export const targetDefaults: Record<string, string> = Object.fromEntries(targetFields.map((field) => [field, ""]));

export function targetOfFields(values: Record<string, string>): { target?: Target } {
  const text = (name: string) => (values[name] ?? "").trim();
  const [siteId = "", locationId = ""] = text("targetPlace").split("/");
  const filter: Record<string, string> = {};
  if (text("targetGroup")) filter.groupId = text("targetGroup");
  if (siteId) filter.siteId = siteId;
  if (locationId) filter.locationId = locationId;
  if (text("targetModel")) filter.model = text("targetModel");
  if (text("targetFirmware")) filter.firmware = text("targetFirmware");
  if (text("targetTag")) filter.tag = text("targetTag");
  return Object.keys(filter).length === 0 ? {} : { target: { kind: "filter", filter } };
}
