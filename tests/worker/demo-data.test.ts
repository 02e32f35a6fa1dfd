import { describe, expect, it } from "vitest";
import { networkConfigInput } from "@/schema/network-config";
import { isProfileType, settingsSchemas } from "@/schema/profiles";
import { ruleConditions } from "@/schema/rules";
import readme from "../../README.md?raw";
import { accounts, fleets, radios } from "../../scripts/demo-data.mjs";
import { workspaces } from "../../scripts/demo-workspaces.mjs";

// The living demo (issue 9, §5): what `npm start` seeds must be what the app itself would
// accept, or the demo's screens would show defaults instead of it.

describe("the demo workspaces", () => {
  it("give the transit authority and the school district sites, locations, network settings, profiles and rules", () => {
    const byAccount = new Map(workspaces.map((w) => [w.accountId, w]));
    for (const id of ["acc_metro_bus", "acc_lakeside_north"]) {
      const workspace = byAccount.get(id);
      expect(workspace?.sites.length).toBeGreaterThanOrEqual(4);
      expect(workspace?.sites.flatMap((site) => site.locations).length).toBeGreaterThanOrEqual(6);
      expect(workspace?.profiles.map((p) => p.type).sort()).toEqual(["buttons", "channels", "contacts", "device"]);
      expect(workspace?.rules.length).toBeGreaterThanOrEqual(2);
    }
  });

  it("hold only settings the app's own schemas accept", () => {
    const problems: string[] = [];
    const check = (where: string, parsed: { success: boolean; error?: unknown }) => {
      if (!parsed.success) problems.push(`${where}: ${JSON.stringify(parsed.error)}`);
    };
    for (const w of workspaces) {
      check(`${w.accountId} network`, networkConfigInput.safeParse(w.network));
      for (const site of w.sites) {
        check(`${site.id} network`, networkConfigInput.safeParse(site.network ?? {}));
        for (const location of site.locations)
          check(`${location.id} network`, networkConfigInput.safeParse(location.network ?? {}));
      }
      const profileIds = new Set(w.profiles.map((p) => p.id));
      for (const profile of w.profiles) {
        if (!isProfileType(profile.type)) problems.push(`${profile.id}: type ${profile.type}`);
        else check(profile.id, settingsSchemas[profile.type].safeParse(profile.settings));
      }
      const places = new Set(w.sites.flatMap((site) => [site.id, ...site.locations.map((l) => l.id)]));
      for (const rule of w.rules) {
        check(rule.id, ruleConditions.safeParse(rule.conditions));
        for (const id of [
          ...((rule.conditions.siteIds as string[]) ?? []),
          ...((rule.conditions.locationIds as string[]) ?? []),
        ]) {
          if (!places.has(id)) problems.push(`${rule.id}: unknown place ${id}`);
        }
        for (const id of rule.profileIds) if (!profileIds.has(id)) problems.push(`${rule.id}: unknown profile ${id}`);
      }
    }
    expect(problems).toEqual([]);
  });
});

describe("README's demo radios", () => {
  // README's table of radios per demo account says what the seed creates, so they cannot drift.
  const rows = new Map(
    [...readme.matchAll(/^\| ([^|]+?) +\| +(\d+) \| (.+?) +\|$/gm)].map((m) => [m[1], { count: Number(m[2]), uids: m[3] ?? "" }]),
  );

  it.each(fleets.map((fleet) => [fleet.accountId, fleet] as const))("gives %s's count and uids as seeded", (_, fleet) => {
    const name = accounts.find((account) => account.id === fleet.accountId)?.name ?? "";
    const simulated = radios.filter((radio) => radio.accountId === fleet.accountId);
    const row = rows.get(name);
    expect(row?.count, name).toBe(fleet.count + simulated.length);
    const last = `${fleet.prefix}-${String(fleet.count).padStart(4, "0")}`;
    expect(row?.uids).toContain(`\`${fleet.prefix}-0001\` … \`${last}\``);
    for (const radio of [simulated[0], simulated.at(-1)]) if (radio) expect(row?.uids).toContain(radio.uid);
  });

  it("lists no account the seed gives no fleet", () => {
    const named = new Set(fleets.map((fleet) => accounts.find((account) => account.id === fleet.accountId)?.name));
    expect([...rows.keys()].filter((name) => accounts.some((a) => a.name === name) && !named.has(name))).toEqual([]);
    expect(rows.size).toBeGreaterThanOrEqual(fleets.length);
  });
});
