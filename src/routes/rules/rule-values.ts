import type { RuleConditions } from "@/schema/rules";

/**
 * A rule between what is stored, its form and a post. Checkboxes carry the place in their
 * name (`site.<id>`, `location.<id>`), profile slots their position (`profile.<n>`): names
 * never repeat, so posts read the same with and without JavaScript.
 */
export type RuleFormModel = {
  name: string;
  enabled: boolean;
  version?: string;
  siteIds: string[];
  locationIds: string[];
  models: string;
  tags: string;
  uidPattern: string;
  /** The profile of each slot, in order ("" for an empty slot). */
  profileIds: string[];
};

export const MAX_SLOTS = 8;

export function modelFromRule(rule: {
  name: string;
  enabled: boolean;
  version: number;
  conditions: RuleConditions;
  profiles: { id: string }[];
}): RuleFormModel {
  return {
    name: rule.name,
    enabled: rule.enabled,
    version: String(rule.version),
    siteIds: rule.conditions.siteIds ?? [],
    locationIds: rule.conditions.locationIds ?? [],
    models: (rule.conditions.models ?? []).join(", "),
    tags: (rule.conditions.tags ?? []).join(", "),
    uidPattern: rule.conditions.uidPattern ?? "",
    profileIds: rule.profiles.map((profile) => profile.id),
  };
}

export const emptyRule: RuleFormModel = {
  name: "",
  enabled: true,
  siteIds: [],
  locationIds: [],
  models: "",
  tags: "",
  uidPattern: "",
  profileIds: [],
};

function checked(posted: Record<string, string>, prefix: string): string[] {
  return Object.keys(posted)
    .filter((key) => key.startsWith(prefix) && posted[key] !== "")
    .map((key) => key.slice(prefix.length));
}

function slotNumbers(posted: Record<string, string>): number[] {
  return Object.keys(posted)
    .map((key) => /^profile\.(\d+)$/.exec(key)?.[1])
    .filter((n): n is string => n !== undefined)
    .map(Number)
    .sort((a, b) => a - b)
    .slice(0, MAX_SLOTS + 2);
}

/** The form as posted, to show it again with what was typed. */
export function modelFromPost(posted: Record<string, string>): RuleFormModel {
  return {
    name: posted.name ?? "",
    enabled: posted.enabled !== undefined,
    version: posted.version,
    siteIds: checked(posted, "site."),
    locationIds: checked(posted, "location."),
    models: posted.models ?? "",
    tags: posted.tags ?? "",
    uidPattern: posted.uidPattern ?? "",
    profileIds: slotNumbers(posted).map((n) => posted[`profile.${n}`] ?? ""),
  };
}

/** Slots to show: the chosen ones and an empty one (or one more, for "Add another" without JavaScript). */
export function withEmptySlot(model: RuleFormModel, extra = 0): RuleFormModel {
  const filled = model.profileIds.filter(Boolean);
  const slots = Math.min(MAX_SLOTS, Math.max(filled.length + 1 + extra, 1));
  return { ...model, profileIds: [...filled, ...Array<string>(slots - filled.length).fill("")] };
}

/** A comma- or line-separated list as typed, without blanks. */
export function listOf(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

/** What the post asks to store, and which slot each chosen profile came from. */
export function ruleInputFromPost(posted: Record<string, string>) {
  const model = modelFromPost(posted);
  const slots = slotNumbers(posted);
  const slotMap: number[] = [];
  const profileIds: string[] = [];
  slots.forEach((n) => {
    const profileId = posted[`profile.${n}`] ?? "";
    if (!profileId) return;
    slotMap.push(n);
    profileIds.push(profileId);
  });
  const conditions: RuleConditions = {
    siteIds: model.siteIds,
    locationIds: model.locationIds,
    models: listOf(model.models),
    tags: listOf(model.tags),
    uidPattern: model.uidPattern,
  };
  return { input: { name: model.name, enabled: model.enabled, conditions, profileIds }, slotMap };
}

/** The form field an issue of rules.add/update's input is about. */
export function fieldOfIssue(path: readonly PropertyKey[], slotMap: number[]): string {
  const [root, part] = path;
  if (root === "name") return "name";
  if (root === "profileIds") {
    const slot = typeof part === "number" ? slotMap[part] : undefined;
    return slot === undefined ? "profiles" : `profile.${slot}`;
  }
  if (root === "conditions") {
    if (part === "siteIds") return "sites";
    if (part === "locationIds") return "locations";
    if (part === "models" || part === "tags" || part === "uidPattern") return part;
  }
  return "form";
}
