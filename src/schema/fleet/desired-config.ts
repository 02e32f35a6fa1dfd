import { effectiveConfiguration } from "@/schema/effective-configuration";
import type { NetworkLevel, NetworkPart } from "@/schema/network-inheritance";
import type { MatchableDevice, RuleConditions } from "@/schema/rules";

/**
 * A radio's desired configuration (DESIGN.md §7), computed from a frozen revision and the
 * radio's own attributes when the radio asks: network config merged account → site →
 * location, plus the profiles the revision's enabled rules match, highest priority first (for
 * each profile type the first match wins). Pure: the device protocol, the confirm page's diff
 * and the simulator share it, and it is effectiveConfiguration (the device page's) underneath.
 * Every part names where it comes from.
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
  // The same computation as the device page (effectiveConfiguration), fed from the frozen
  // revision: the page and the protocol cannot disagree on what a radio should run.
  const holder = (id: string, config: Record<string, unknown> | undefined) => (config ? { id, networkConfig: config } : null);
  const effective = effectiveConfiguration({
    account: { id: "account", networkConfig: content.network.account },
    site: device.siteId ? holder(device.siteId, content.network.sites[device.siteId]) : null,
    location: device.locationId ? holder(device.locationId, content.network.locations[device.locationId]) : null,
    rules: content.rules.map((rule, index) => ({
      id: rule.id,
      name: rule.name,
      // The revision keeps rules in priority order (1 first).
      priority: index + 1,
      enabled: rule.enabled,
      conditions: rule.conditions,
      profiles: rule.profileIds.flatMap((id) => {
        const profile = content.profiles[id];
        return profile ? [{ id, ...profile }] : [];
      }),
    })),
    device,
  });
  const networkSources: DesiredConfig["networkSources"] = {};
  for (const [part, source] of Object.entries(effective.network.sources) as [NetworkPart, { level: NetworkLevel }][]) {
    networkSources[part] = source.level;
  }
  const profiles: DesiredConfig["profiles"] = {};
  for (const entry of effective.profiles) {
    if (entry.overriddenBy) continue;
    profiles[entry.profile.type] = {
      id: entry.profile.id,
      name: entry.profile.name,
      rule: entry.rule.name,
      settings: entry.profile.settings,
    };
  }
  return { network: effective.network.config, networkSources, profiles };
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
