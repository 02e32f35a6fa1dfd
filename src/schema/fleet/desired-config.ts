import { mergeLevels, type NetworkLevel, type NetworkPart } from "@/schema/network-inheritance";
import { type MatchableDevice, matchesDevice, type RuleConditions } from "@/schema/rules";

/**
 * A radio's desired configuration (DESIGN.md §7), computed from a frozen revision and the
 * radio's own attributes when the radio asks: network config merged account → site →
 * location, plus the profiles the revision's enabled rules match, highest priority first (for
 * each profile type the first match wins). Pure: the device protocol, the confirm page's diff
 * and the simulator share it. Every part names where it comes from.
 */
export type RevisionContent = {
  network: {
    account: Record<string, unknown>;
    sites: Record<string, Record<string, unknown>>;
    locations: Record<string, Record<string, unknown>>;
  };
  profiles: Record<string, { type: string; name: string; settings: unknown }>;
  /** In priority order (1 first). */
  rules: { id: string; name: string; enabled: boolean; conditions: RuleConditions; profileIds: string[] }[];
};

export type DesiredConfig = {
  network: Record<string, unknown>;
  networkSources: Partial<Record<NetworkPart, NetworkLevel>>;
  profiles: Record<string, { id: string; name: string; rule: string; settings: unknown }>;
};

export function desiredConfig(content: RevisionContent, device: MatchableDevice): DesiredConfig {
  const levels: { level: NetworkLevel; config: Record<string, unknown> }[] = [
    { level: "account", config: content.network.account },
  ];
  const site = device.siteId ? content.network.sites[device.siteId] : undefined;
  if (site) levels.push({ level: "site", config: site });
  const location = device.locationId ? content.network.locations[device.locationId] : undefined;
  if (site && location) levels.push({ level: "location", config: location });
  const merged = mergeLevels(levels);
  const profiles: DesiredConfig["profiles"] = {};
  for (const rule of content.rules) {
    if (!rule.enabled || !matchesDevice(rule.conditions, device)) continue;
    for (const id of rule.profileIds) {
      const profile = content.profiles[id];
      if (profile && !profiles[profile.type])
        profiles[profile.type] = { id, name: profile.name, rule: rule.name, settings: profile.settings };
    }
  }
  return { network: merged.config, networkSources: merged.sources, profiles };
}

/** The attributes a check-in uses, as one short string for the config's ETag. */
export function attributesKey(device: MatchableDevice): string {
  return [
    device.siteId ?? "",
    device.locationId ?? "",
    device.model.toLowerCase(),
    [...device.tags]
      .map((t) => t.toLowerCase())
      .sort()
      .join(","),
  ].join("|");
}

/** FNV-1a 32-bit, hex: a cheap, stable fingerprint for ETags (not a security boundary). */
export function fingerprint(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193);
  }
  return (hash >>> 0).toString(16).padStart(8, "0");
}

const SECRET_KEYS = /pass|psk|secret|key/i;

/** A config fit to show people: secrets (Wi-Fi passphrases, keys) masked. */
export function withoutSecrets(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutSecrets);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [
        key,
        SECRET_KEYS.test(key) && typeof inner === "string" ? "••••" : withoutSecrets(inner),
      ]),
    );
  }
  return value;
}

/** Flat "path: value" lines of a config, for a readable before/after diff. */
export function flatten(value: unknown, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === "object") {
    for (const [key, inner] of Object.entries(value)) Object.assign(out, flatten(inner, prefix ? `${prefix}.${key}` : key));
  } else if (prefix) {
    out[prefix] = JSON.stringify(value);
  }
  return out;
}

export type ConfigDiffLine = { path: string; before?: string; after?: string };

export function configDiff(before: unknown, after: unknown): ConfigDiffLine[] {
  const a = flatten(withoutSecrets(before));
  const b = flatten(withoutSecrets(after));
  const paths = [...new Set([...Object.keys(a), ...Object.keys(b)])].sort();
  return paths.filter((path) => a[path] !== b[path]).map((path) => ({ path, before: a[path], after: b[path] }));
}
