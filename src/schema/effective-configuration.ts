import { type LevelConfig, mergeLevels, type NetworkLevel, type NetworkPart } from "./network-inheritance";
import { matchesDevice, type RuleConditions } from "./rules";

/**
 * A device's effective configuration (DESIGN.md §7): the network config merged account → site →
 * location, plus the profiles the account's enabled rules match, highest priority first. Each
 * part carries where it comes from, so screens can say it and the device protocol can compute
 * a radio's desired configuration from a frozen revision with the same function.
 *
 * Pure and generic over the config and profile shapes: pages pass read views (no secrets), the
 * protocol passes stored configs and full profiles.
 */
type PartsOf = Partial<Record<NetworkPart, unknown>>;

/** A level that holds network settings: the account, a site or a location. */
export type NetworkHolder<C extends PartsOf> = { id: string; name?: string; networkConfig: C };

/** The least a profile needs: which one it is and its type (one profile of a type applies). */
export type ProfileRef = { id: string; type: string };

export type EffectiveRule<P extends ProfileRef> = {
  id: string;
  name: string;
  priority: number;
  enabled: boolean;
  conditions: RuleConditions;
  /** In the rule's own order. */
  profiles: readonly P[];
};

export type EffectiveDevice = {
  uid: string;
  model: string;
  tags: readonly string[];
  siteId: string | null;
  locationId: string | null;
};

export type EffectiveInputs<C extends PartsOf, P extends ProfileRef> = {
  account: NetworkHolder<C>;
  /** The device's site, when it has one (ignored unless its id is the device's siteId). */
  site?: NetworkHolder<C> | null;
  /** The device's location, when it has one (ignored unless its id is the device's locationId). */
  location?: NetworkHolder<C> | null;
  rules: readonly EffectiveRule<P>[];
  device: EffectiveDevice;
};

/** Where a network part comes from: the level and which account, site or location it is. */
export type NetworkSource = { level: NetworkLevel; id: string; name?: string };

export type RuleSource = { id: string; name: string; priority: number };

export type EffectiveProfile<P extends ProfileRef> = {
  profile: P;
  /** The rule that assigns it. */
  rule: RuleSource;
  /** Its place in that rule's list (0 first). */
  position: number;
  /**
   * The profile of the same type that comes first and so applies instead (a higher-priority
   * rule, or earlier in the same rule); null when this one applies.
   */
  overriddenBy: { profileId: string; ruleId: string } | null;
};

export type EffectiveConfiguration<C extends PartsOf, P extends ProfileRef> = {
  network: { config: C; sources: Partial<Record<NetworkPart, NetworkSource>> };
  /** Every profile the matching rules assign, highest priority first, then in rule order. */
  profiles: EffectiveProfile<P>[];
  /** The rules that match the device, highest priority first (enabled ones only). */
  matchedRules: RuleSource[];
};

export function effectiveConfiguration<C extends PartsOf, P extends ProfileRef>(
  inputs: EffectiveInputs<C, P>,
): EffectiveConfiguration<C, P> {
  return { network: effectiveNetwork(inputs), ...effectiveProfiles(inputs.rules, inputs.device) };
}

/** The network half: the levels that apply to the device, merged, with each part's holder. */
export function effectiveNetwork<C extends PartsOf>({
  account,
  site,
  location,
  device,
}: Pick<EffectiveInputs<C, ProfileRef>, "account" | "site" | "location" | "device">): EffectiveConfiguration<
  C,
  ProfileRef
>["network"] {
  const holders: Partial<Record<NetworkLevel, NetworkHolder<C>>> = { account };
  // A site or location the device is not in must not leak in (a stale or mismatched input).
  const deviceSite = site && device.siteId === site.id ? site : null;
  if (deviceSite) holders.site = deviceSite;
  if (deviceSite && location && device.locationId === location.id) holders.location = location;
  const levels: LevelConfig<C>[] = (["account", "site", "location"] as const).flatMap((level) => {
    const holder = holders[level];
    return holder ? [{ level, config: holder.networkConfig }] : [];
  });
  const merged = mergeLevels(levels);
  const sources: Partial<Record<NetworkPart, NetworkSource>> = {};
  for (const [part, level] of Object.entries(merged.sources) as [NetworkPart, NetworkLevel][]) {
    const holder = holders[level];
    if (!holder) continue;
    sources[part] = { level, id: holder.id, ...(holder.name !== undefined ? { name: holder.name } : {}) };
  }
  return { config: merged.config, sources };
}

/** The profile half: enabled rules that match, by priority (1 first), each profile with its rule. */
export function effectiveProfiles<P extends ProfileRef>(
  rules: readonly EffectiveRule<P>[],
  device: EffectiveDevice,
): Pick<EffectiveConfiguration<PartsOf, P>, "profiles" | "matchedRules"> {
  const matchable = { ...device, tags: [...device.tags] };
  const matched = rules
    .filter((rule) => rule.enabled && matchesDevice(rule.conditions, matchable))
    .sort((a, b) => a.priority - b.priority || a.id.localeCompare(b.id));
  const firstOfType = new Map<string, { profileId: string; ruleId: string }>();
  const profiles: EffectiveProfile<P>[] = [];
  for (const rule of matched) {
    const source: RuleSource = { id: rule.id, name: rule.name, priority: rule.priority };
    rule.profiles.forEach((profile, position) => {
      const first = firstOfType.get(profile.type) ?? null;
      if (!first) firstOfType.set(profile.type, { profileId: profile.id, ruleId: rule.id });
      profiles.push({ profile, rule: source, position, overriddenBy: first });
    });
  }
  return { profiles, matchedRules: matched.map(({ id, name, priority }) => ({ id, name, priority })) };
}
