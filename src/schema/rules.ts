import { z } from "zod";
import { LABEL_SOURCE, ruleLimits } from "./rule-limits";

/**
 * Rules (DESIGN.md §3): which devices of an account a rule matches, and its limits. Every
 * condition given must hold (within one, any of its values will do); a rule without
 * conditions matches every device of the account. A device's configuration takes the profiles
 * its matching, enabled rules assign, highest priority first (within a rule, in its order).
 */
export { LABEL_SOURCE, ruleLimits, UID_PATTERN_SOURCE } from "./rule-limits";

const id = z.string().min(1).max(64);
const label = (message: string) =>
  z.string().trim().min(1, message).max(ruleLimits.label, message).regex(new RegExp(LABEL_SOURCE), message);

/** A list as stored: without repeats (compared without case for labels), absent when empty. */
function distinct(values: string[] | undefined, ignoreCase: boolean): string[] | undefined {
  if (!values?.length) return undefined;
  const seen = new Set<string>();
  return values.filter((value) => {
    const key = ignoreCase ? value.toLowerCase() : value;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}

export const ruleConditions = z
  .object({
    siteIds: z.array(id).max(ruleLimits.places, "validation.TooManyPlaces").optional(),
    locationIds: z.array(id).max(ruleLimits.places, "validation.TooManyPlaces").optional(),
    models: z.array(label("validation.ModelInvalid")).max(ruleLimits.models, "validation.TooManyModels").optional(),
    tags: z.array(label("validation.TagInvalid")).max(ruleLimits.tags, "validation.TooManyTags").optional(),
    uidPattern: z
      .string()
      .trim()
      .max(ruleLimits.uidPattern, "validation.UidPatternInvalid")
      .regex(/^[A-Za-z0-9*?_.:-]*$/, "validation.UidPatternInvalid")
      .optional(),
  })
  .transform((c) => {
    const conditions: RuleConditions = {};
    const siteIds = distinct(c.siteIds, false);
    const locationIds = distinct(c.locationIds, false);
    const models = distinct(c.models, true);
    const tags = distinct(c.tags, true);
    if (siteIds) conditions.siteIds = siteIds;
    if (locationIds) conditions.locationIds = locationIds;
    if (models) conditions.models = models;
    if (tags) conditions.tags = tags;
    if (c.uidPattern) conditions.uidPattern = c.uidPattern;
    return conditions;
  });

export type RuleConditions = {
  siteIds?: string[];
  locationIds?: string[];
  models?: string[];
  tags?: string[];
  uidPattern?: string;
};

/** Conditions as stored; anything unreadable is no condition at all, never a crash. */
export function readConditions(json: string): RuleConditions {
  try {
    const parsed = ruleConditions.safeParse(JSON.parse(json));
    return parsed.success ? parsed.data : {};
  } catch {
    return {};
  }
}

/** A uid pattern as a regular expression: * any run of characters, ? exactly one; case-insensitive. */
export function uidMatcher(pattern: string): RegExp {
  const source = [...pattern]
    .map((char) => (char === "*" ? ".*" : char === "?" ? "." : char.replace(/[.\\+^$()[\]{}|-]/g, "\\$&")))
    .join("");
  return new RegExp(`^${source}$`, "i");
}

export type MatchableDevice = { uid: string; siteId: string | null; locationId: string | null; model: string; tags: string[] };

/** Whether a rule's conditions hold for a device (the devices issue lists matches with it). */
export function matchesDevice(conditions: RuleConditions, device: MatchableDevice): boolean {
  const lower = (values: string[]) => values.map((value) => value.toLowerCase());
  if (conditions.siteIds && !(device.siteId && conditions.siteIds.includes(device.siteId))) return false;
  if (conditions.locationIds && !(device.locationId && conditions.locationIds.includes(device.locationId))) return false;
  if (conditions.models && !lower(conditions.models).includes(device.model.toLowerCase())) return false;
  if (conditions.tags && !lower(device.tags).some((tag) => lower(conditions.tags ?? []).includes(tag))) return false;
  if (conditions.uidPattern && !uidMatcher(conditions.uidPattern).test(device.uid)) return false;
  return true;
}
