/**
 * How network settings are inherited (DESIGN.md §3): the account sets them, a site overrides
 * them, a location overrides its site. The config is merged part by part: a level that sets a
 * part (even to an empty list) replaces that part whole; a part it leaves out comes from the
 * nearest level above that sets it. Pure and free of zod, so pages, procedures and the device
 * protocol share it; works on stored configs (with secrets) and on read views alike.
 */
export const networkParts = ["wifi", "lte", "dnsServers", "ntpServers", "endpoints"] as const;
export type NetworkPart = (typeof networkParts)[number];

/** Where settings are made, from the widest to the narrowest. */
export const networkLevels = ["account", "site", "location"] as const;
export type NetworkLevel = (typeof networkLevels)[number];

type PartsOf = Partial<Record<NetworkPart, unknown>>;

export type LevelConfig<C extends PartsOf> = { level: NetworkLevel; config: C };

/** A merged config and, for each part that some level sets, the level it comes from. */
export type Inherited<C extends PartsOf> = { config: C; sources: Partial<Record<NetworkPart, NetworkLevel>> };

/** Whether a level sets a part itself (an explicit empty list counts: it overrides with "none"). */
export function setsPart(config: PartsOf, part: NetworkPart): boolean {
  return config[part] !== undefined;
}

/** The parts a config sets itself. */
export function partsSet(config: PartsOf): NetworkPart[] {
  return networkParts.filter((part) => setsPart(config, part));
}

/**
 * Merges levels given from the widest (account) to the narrowest (location): for each part the
 * narrowest level that sets it wins, and is reported as its source.
 */
export function mergeLevels<C extends PartsOf>(levels: readonly LevelConfig<C>[]): Inherited<C> {
  const config: PartsOf = {};
  const sources: Partial<Record<NetworkPart, NetworkLevel>> = {};
  for (const { level, config: own } of levels) {
    for (const part of networkParts) {
      if (!setsPart(own, part)) continue;
      config[part] = own[part];
      sources[part] = level;
    }
  }
  return { config: config as C, sources };
}

/** What a level inherits (the merge of the levels above it) and what it ends up with. */
export function inheritanceAt<C extends PartsOf>(
  above: readonly LevelConfig<C>[],
  own: LevelConfig<C>,
): { inherited: Inherited<C>; effective: Inherited<C> } {
  return { inherited: mergeLevels(above), effective: mergeLevels([...above, own]) };
}
