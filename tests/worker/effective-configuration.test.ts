import { describe, expect, it } from "vitest";
import { type EffectiveRule, effectiveConfiguration } from "@/schema/effective-configuration";
import { desiredConfig, type RevisionContent } from "@/schema/fleet/desired-config";

type Config = { dnsServers?: string[]; ntpServers?: string[]; lte?: { apn: string } };
type Profile = { id: string; type: string; name: string };

const account = { id: "acc", name: "Metro", networkConfig: { dnsServers: ["a.dns"], ntpServers: ["a.ntp"] } as Config };
const site = { id: "site1", name: "Depot", networkConfig: { ntpServers: ["s.ntp"], lte: { apn: "depot" } } as Config };
const location = { id: "loc1", name: "Garage", networkConfig: { ntpServers: [] } as Config };
const device = { uid: "MTA-0001", model: "XR-7", tags: ["Bus"], siteId: "site1", locationId: "loc1" };

const p = (id: string, type: string): Profile => ({ id, type, name: id });
const rule = (id: string, priority: number, profiles: Profile[], more: Partial<EffectiveRule<Profile>> = {}) => ({
  id,
  name: `rule ${id}`,
  priority,
  enabled: true,
  conditions: {},
  profiles,
  ...more,
});

describe("effective configuration", () => {
  it("merges the network account → site → location and names the holder of each part", () => {
    const result = effectiveConfiguration({ account, site, location, rules: [], device });
    expect(result.network.config).toEqual({ dnsServers: ["a.dns"], ntpServers: [], lte: { apn: "depot" } });
    expect(result.network.sources).toEqual({
      dnsServers: { level: "account", id: "acc", name: "Metro" },
      lte: { level: "site", id: "site1", name: "Depot" },
      ntpServers: { level: "location", id: "loc1", name: "Garage" },
    });
  });

  it("ignores a site or location the device is not in", () => {
    const elsewhere = { ...device, siteId: "site2", locationId: null };
    const result = effectiveConfiguration({ account, site, location, rules: [], device: elsewhere });
    expect(result.network.config).toEqual(account.networkConfig);
    expect(Object.values(result.network.sources).map((s) => s.level)).toEqual(["account", "account"]);
    // A location without its site does not apply either.
    const noSite = effectiveConfiguration({ account, location, rules: [], device });
    expect(noSite.network.sources.ntpServers?.level).toBe("account");
  });

  it("an unassigned place takes the account's settings only", () => {
    const result = effectiveConfiguration({
      account,
      rules: [],
      device: { ...device, siteId: null, locationId: null },
    });
    expect(result.network.config).toEqual(account.networkConfig);
  });

  it("lists the profiles of matching enabled rules, highest priority first, each with its rule", () => {
    const rules = [
      rule("low", 3, [p("channels-b", "channels")]),
      rule("off", 1, [p("device-x", "device")], { enabled: false }),
      rule("high", 2, [p("channels-a", "channels"), p("buttons-a", "buttons")], { conditions: { tags: ["bus"] } }),
      rule("other-model", 0, [p("device-y", "device")], { conditions: { models: ["XR-9"] } }),
    ];
    const result = effectiveConfiguration({ account, site, location, rules, device });
    expect(result.matchedRules.map((r) => r.id)).toEqual(["high", "low"]);
    expect(
      result.profiles.map((e) => [e.profile.id, e.rule.id, e.rule.priority, e.position, e.overriddenBy?.profileId ?? null]),
    ).toEqual([
      ["channels-a", "high", 2, 0, null],
      ["buttons-a", "high", 2, 1, null],
      ["channels-b", "low", 3, 0, "channels-a"],
    ]);
  });

  it("matches rules on site, location, model, tags (without case) and uid pattern", () => {
    const rules = [
      rule("site", 1, [p("a", "device")], { conditions: { siteIds: ["site1"] } }),
      rule("loc", 2, [p("b", "channels")], { conditions: { locationIds: ["loc2"] } }),
      rule("model", 3, [p("c", "contacts")], { conditions: { models: ["xr-7"] } }),
      rule("uid", 4, [p("d", "buttons")], { conditions: { uidPattern: "MTA-00??" } }),
      rule("tag", 5, [p("e", "buttons")], { conditions: { tags: ["truck"] } }),
    ];
    const result = effectiveConfiguration({ account, site, location, rules, device });
    expect(result.matchedRules.map((r) => r.id)).toEqual(["site", "model", "uid"]);
  });

  it("no rules, no profiles", () => {
    const result = effectiveConfiguration({ account, rules: [], device });
    expect(result.profiles).toEqual([]);
    expect(result.matchedRules).toEqual([]);
  });
});

describe("the device protocol's desired configuration", () => {
  it("is the device page's effective configuration of the frozen revision (one computation)", () => {
    const rules = [
      rule("high", 1, [p("channels-a", "channels"), p("buttons-a", "buttons")], { conditions: { tags: ["bus"] } }),
      rule("low", 2, [p("channels-b", "channels"), p("device-z", "device")]),
      rule("off", 3, [p("device-x", "device")], { enabled: false }),
    ];
    const content: RevisionContent = {
      network: {
        account: account.networkConfig,
        sites: { site1: site.networkConfig },
        locations: { loc1: location.networkConfig },
      },
      profiles: Object.fromEntries(
        rules
          .flatMap((r) => r.profiles)
          .map((profile) => [profile.id, { type: profile.type, name: profile.name, settings: { of: profile.id } }]),
      ),
      rules: rules.map((r) => ({
        id: r.id,
        name: r.name,
        enabled: r.enabled,
        conditions: r.conditions,
        profileIds: r.profiles.map((x) => x.id),
      })),
    };
    const desired = desiredConfig(content, device);
    const effective = effectiveConfiguration({ account, site, location, rules, device });
    expect(desired.network).toEqual(effective.network.config);
    expect(desired.networkSources).toEqual({ dnsServers: "account", lte: "site", ntpServers: "location" });
    // One profile of each type: the first that applies on the page (not overridden) is the radio's.
    const applied = effective.profiles.filter((entry) => !entry.overriddenBy);
    expect(Object.fromEntries(applied.map((entry) => [entry.profile.type, entry.profile.id]))).toEqual(
      Object.fromEntries(Object.entries(desired.profiles).map(([type, profile]) => [type, profile.id])),
    );
    expect(desired.profiles.channels).toEqual({
      id: "channels-a",
      name: "channels-a",
      rule: "rule high",
      settings: { of: "channels-a" },
    });
    expect(desired.profiles.device?.id).toBe("device-z");
    // A radio outside the site takes the account's network only, on both sides.
    const elsewhere = { ...device, siteId: "site2", locationId: null };
    expect(desiredConfig(content, elsewhere).network).toEqual(account.networkConfig);
  });
});
