import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { levelConfigFromValues } from "@/routes/accounts/workspace/network-tab";
import { type NetworkConfigView, viewOf } from "@/schema/network-config";
import { inheritanceAt, mergeLevels, partsSet } from "@/schema/network-inheritance";
import { createCaller } from "@/server/api/router";
import { permissionsOf, type Role } from "@/server/auth/roles";
import type { SessionUser } from "@/server/auth/sessions";
import type { D1Database } from "@/server/cloudflare";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Sites and locations: the inheritance of network settings (pure), the procedures (validation,
// permissions, tenants, stale writes, the activity entry in the same batch, write-only secrets,
// deleting a site with its locations) and the screens as a browser without JavaScript meets them.

type Answer = { data?: unknown; code?: string; message?: string; fieldErrors?: Record<string, string[]> };

async function callApi(path: string, input: unknown, cookie: string, type: "query" | "mutation"): Promise<Answer> {
  const response =
    type === "query"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/json" },
        });
  const body = (await response.json()) as {
    result?: { data: unknown };
    error?: { message: string; data?: { code?: string; fieldErrors?: Record<string, string[]> } };
  };
  if (body.error) return { code: body.error.data?.code, message: body.error.message, fieldErrors: body.error.data?.fieldErrors };
  return { data: body.result?.data };
}

const query = (path: string, input: unknown, cookie: string) => callApi(path, input, cookie, "query");
const mutate = (path: string, input: unknown, cookie: string) => callApi(path, input, cookie, "mutation");

async function ok<T>(answer: Promise<Answer>): Promise<T> {
  const { data, code, message } = await answer;
  if (code) throw new Error(`${code}: ${message}`);
  return data as T;
}

type SiteAnswer = { _id: string; name: string; version: number; timezone: string | null; locationCount: number };
type LocationAnswer = { _id: string; siteId: string; name: string; version: number };

async function activity(entityId: string) {
  const { results } = await env.DB.prepare(
    "SELECT action, entity_type, entity_label, diff, deployable FROM activity_logs WHERE entity_id = ? ORDER BY created_at, rowid",
  )
    .bind(entityId)
    .all<{ action: string; entity_type: string; entity_label: string; diff: string; deployable: number }>();
  return results;
}

let dealer: string;
let otherOrg: string;
let accountId: string;
let secondAccount: string;
let theirAccount: string;
const cookies = {} as Record<Role | "outsider", string>;

beforeAll(async () => {
  dealer = await createOrganization("Harbor Dealer");
  otherOrg = await createOrganization("Another Tenant");
  accountId = await createAccount(dealer, "Harbor Fleet");
  secondAccount = await createAccount(dealer, "Second Fleet");
  theirAccount = await createAccount(otherOrg, "Their Fleet");
  for (const role of ["owner", "configurator", "technician", "viewer"] as const) {
    cookies[role] = await sessionCookie((await createUser({ orgId: dealer, role })).email);
  }
  cookies.outsider = await sessionCookie((await createUser({ orgId: otherOrg, role: "owner" })).email);
});

describe("network inheritance (pure)", () => {
  const account: NetworkConfigView = {
    wifi: [{ id: "w1", ssid: "Fleet", security: "wpa2-personal", priority: 1, hasPassphrase: true }],
    dnsServers: ["1.1.1.1"],
    ntpServers: ["pool.ntp.org"],
  };

  it("takes each part from the narrowest level that sets it, and says which", () => {
    const site = { wifi: [{ id: "w2", ssid: "Depot", security: "open" as const, priority: 5, hasPassphrase: false }] };
    const location = { dnsServers: ["10.0.0.53"] };
    const merged = mergeLevels<NetworkConfigView>([
      { level: "account", config: account },
      { level: "site", config: site },
      { level: "location", config: location },
    ]);
    expect(merged.config).toEqual({ wifi: site.wifi, dnsServers: ["10.0.0.53"], ntpServers: ["pool.ntp.org"] });
    expect(merged.sources).toEqual({ wifi: "site", dnsServers: "location", ntpServers: "account" });
  });

  it("replaces a part whole rather than merging lists, and an empty list overrides with none", () => {
    const merged = mergeLevels<NetworkConfigView>([
      { level: "account", config: account },
      { level: "site", config: { wifi: [], dnsServers: ["9.9.9.9"] } },
    ]);
    expect(merged.config.wifi).toEqual([]);
    expect(merged.sources.wifi).toBe("site");
    expect(merged.config.dnsServers).toEqual(["9.9.9.9"]);
  });

  it("reports nothing for a part no level sets, and a level that sets nothing inherits all", () => {
    const { inherited, effective } = inheritanceAt<NetworkConfigView>([{ level: "account", config: account }], {
      level: "site",
      config: {},
    });
    expect(effective).toEqual(inherited);
    expect(effective.sources.lte).toBeUndefined();
    expect(effective.sources.endpoints).toBeUndefined();
    expect(partsSet({})).toEqual([]);
  });

  it("separates what a level inherits from what it ends up with", () => {
    const { inherited, effective } = inheritanceAt<NetworkConfigView>(
      [
        { level: "account", config: account },
        { level: "site", config: { ntpServers: ["time.site"] } },
      ],
      { level: "location", config: { ntpServers: ["time.here"], lte: { apn: "fleet.apn", hasPassword: false } } },
    );
    expect(inherited.sources).toEqual({ wifi: "account", dnsServers: "account", ntpServers: "site" });
    expect(inherited.config.ntpServers).toEqual(["time.site"]);
    expect(effective.sources).toEqual({ wifi: "account", lte: "location", dnsServers: "account", ntpServers: "location" });
  });

  it("reads the form: only ticked parts are stored, a ticked empty part overrides with none", () => {
    const posted = levelConfigFromValues(
      {
        version: "1",
        "override.dnsServers": "on",
        dnsServers: "10.0.0.1\n10.0.0.2",
        ntpServers: "ignored.example",
        "override.wifi": "on",
        "wifi.0.id": "",
        "wifi.0.ssid": "",
        "wifi.0.passphrase": "",
        "override.endpoints": "on",
      },
      () => "wifi_new",
    );
    expect(posted.config).toEqual({ dnsServers: ["10.0.0.1", "10.0.0.2"], wifi: [], endpoints: [] });
  });
});

describe("sites and locations procedures", () => {
  it("adds a site, answers field errors for bad input and refuses a duplicate name whatever its case", async () => {
    const site = await ok<SiteAnswer>(
      mutate("sites.add", { accountId, name: "North Depot", address: "1 Quay St", timezone: null }, cookies.configurator),
    );
    expect(site).toMatchObject({ name: "North Depot", timezone: null, version: 1, locationCount: 0 });

    const bad = await mutate(
      "sites.add",
      { accountId, name: " ", address: "x".repeat(301), timezone: "Mars/Base" },
      cookies.owner,
    );
    expect(bad.code).toBe("BAD_REQUEST");
    expect(bad.fieldErrors?.name).toEqual(["Enter a site name."]);
    expect(bad.fieldErrors?.address).toEqual(["The address must be 300 characters or fewer."]);
    expect(bad.fieldErrors?.timezone).toEqual(["Choose a time zone from the list."]);

    const duplicate = await mutate("sites.add", { accountId, name: "north DEPOT" }, cookies.owner);
    expect(duplicate).toMatchObject({ code: "CONFLICT", message: "Another site of this account already has this name." });
    // The same name in another account is fine.
    await ok(mutate("sites.add", { accountId: secondAccount, name: "North Depot" }, cookies.owner));
  });

  it("names locations uniquely per site, not per account", async () => {
    const a = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Site A" }, cookies.owner));
    const b = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Site B" }, cookies.owner));
    await ok(mutate("locations.add", { accountId, siteId: a._id, name: "Workshop" }, cookies.owner));
    await ok(mutate("locations.add", { accountId, siteId: b._id, name: "Workshop" }, cookies.owner));
    const duplicate = await mutate("locations.add", { accountId, siteId: a._id, name: "WORKSHOP" }, cookies.owner);
    expect(duplicate).toMatchObject({ code: "CONFLICT", message: "Another location of this site already has this name." });
    const list = await ok<{ items: LocationAnswer[]; total: number }>(
      query("locations.list", { accountId, siteId: a._id }, cookies.viewer),
    );
    expect(list.items.map((l) => l.name)).toEqual(["Workshop"]);
  });

  it("moves a location to another site of the account, where its name must be free too", async () => {
    const from = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Move From" }, cookies.owner));
    const to = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Move To" }, cookies.owner));
    const room = await ok<LocationAnswer>(
      mutate("locations.add", { accountId, siteId: from._id, name: "Radio room" }, cookies.owner),
    );
    await ok(mutate("locations.add", { accountId, siteId: to._id, name: "radio ROOM" }, cookies.owner));
    const clash = await mutate(
      "locations.update",
      { accountId, id: room._id, version: 1, siteId: to._id, name: "Radio room", description: "" },
      cookies.configurator,
    );
    expect(clash.code).toBe("CONFLICT");
    const moved = await ok<LocationAnswer>(
      mutate(
        "locations.update",
        { accountId, id: room._id, version: 1, siteId: to._id, name: "Radio room 2", description: "Moved" },
        cookies.configurator,
      ),
    );
    expect(moved).toMatchObject({ siteId: to._id, version: 2 });
    const [, update] = await activity(room._id);
    expect(JSON.parse(update?.diff ?? "{}")).toMatchObject({ site: { before: "Move From", after: "Move To" } });
  });

  it("lets anyone in the account's tree read sites, and only the right flags write or read network settings", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Flags Site" }, cookies.configurator));
    expect((await query("sites.list", { accountId }, cookies.viewer)).code).toBeUndefined();
    // Network settings are edit-network-config's to read as well as to write (issue 9).
    expect((await query("sites.networkConfig", { accountId, id: site._id }, cookies.technician)).code).toBe("FORBIDDEN");
    expect((await query("sites.networkConfig", { accountId, id: site._id }, cookies.viewer)).code).toBe("FORBIDDEN");
    expect((await query("locations.effectiveNetworkConfig", { accountId, siteId: site._id }, cookies.viewer)).code).toBe(
      "FORBIDDEN",
    );
    expect((await query("sites.networkConfig", { accountId, id: site._id }, cookies.configurator)).code).toBeUndefined();
    expect((await mutate("sites.add", { accountId, name: "Nope" }, cookies.viewer)).code).toBe("FORBIDDEN");
    expect((await mutate("sites.add", { accountId, name: "Nope" }, cookies.technician)).code).toBe("FORBIDDEN");
    const network = { accountId, id: site._id, version: 1, config: { dnsServers: ["9.9.9.9"] } };
    expect((await mutate("sites.updateNetworkConfig", network, cookies.technician)).code).toBe("FORBIDDEN");
    expect((await mutate("sites.updateNetworkConfig", network, cookies.configurator)).code).toBeUndefined();
  });

  it("keeps tenants apart: another organization's ids, and another account's sites and locations, are not found", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Tenant Site" }, cookies.owner));
    const location = await ok<LocationAnswer>(
      mutate("locations.add", { accountId, siteId: site._id, name: "Tenant Room" }, cookies.owner),
    );
    expect((await query("sites.list", { accountId }, cookies.outsider)).code).toBe("NOT_FOUND");
    expect((await query("sites.details", { accountId, id: site._id }, cookies.outsider)).code).toBe("NOT_FOUND");
    expect((await query("sites.list", { accountId: theirAccount }, cookies.owner)).code).toBe("NOT_FOUND");
    // The right account in the URL but the id of another account's row: not found, nothing changed.
    expect((await query("locations.details", { accountId: secondAccount, id: location._id }, cookies.owner)).code).toBe(
      "NOT_FOUND",
    );
    expect(
      (await mutate("locations.delete", { accountId: secondAccount, id: location._id, version: 1 }, cookies.owner)).code,
    ).toBe("NOT_FOUND");
    expect((await mutate("sites.delete", { accountId: secondAccount, id: site._id, version: 1 }, cookies.owner)).code).toBe(
      "NOT_FOUND",
    );
    const moved = await mutate("locations.add", { accountId: secondAccount, siteId: site._id, name: "Sneaky" }, cookies.owner);
    expect(moved.code).toBe("NOT_FOUND");
    const other = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Tenant Other Site" }, cookies.owner));
    const mismatch = await query(
      "locations.effectiveNetworkConfig",
      { accountId, siteId: other._id, locationId: location._id },
      cookies.owner,
    );
    expect(mismatch.code).toBe("NOT_FOUND");
    expect((await activity(location._id)).map((entry) => entry.action)).toEqual(["create"]);
  });

  it("refuses a stale save with CONFLICT, and writes no activity entry for it", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Stale Site" }, cookies.owner));
    const saved = await ok<SiteAnswer>(
      mutate(
        "sites.update",
        { accountId, id: site._id, version: 1, name: "Stale Site", address: "Pier 4", timezone: "America/Chicago" },
        cookies.owner,
      ),
    );
    expect(saved.version).toBe(2);
    const stale = await mutate(
      "sites.update",
      { accountId, id: site._id, version: 1, name: "Lost Edit", address: "", timezone: null },
      cookies.configurator,
    );
    expect(stale.code).toBe("CONFLICT");
    const staleNetwork = await mutate(
      "sites.updateNetworkConfig",
      { accountId, id: site._id, version: 1, config: { dnsServers: ["8.8.8.8"] } },
      cookies.configurator,
    );
    expect(staleNetwork.code).toBe("CONFLICT");
    const entries = await activity(site._id);
    expect(entries.map((e) => [e.action, e.entity_type, e.deployable])).toEqual([
      ["create", "site", 1],
      ["update", "site", 1],
    ]);
    expect(JSON.parse(entries[1]?.diff ?? "{}")).toEqual({
      address: { before: "", after: "Pier 4" },
      timezone: { before: null, after: "America/Chicago" },
    });
  });

  it("sends the change and its activity entry to D1 in one batch", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Batch Site" }, cookies.owner));
    const batches: string[][] = [];
    const caller = createCaller(callerContext(recordingBatches(env.DB, batches), "configurator"));
    await caller.sites.update({ accountId, id: site._id, version: 1, name: "Batch Site", address: "Dock 2", timezone: null });
    await caller.sites.updateNetworkConfig({ accountId, id: site._id, version: 2, config: { ntpServers: ["time.dock"] } });
    const location = await caller.locations.add({ accountId, siteId: site._id, name: "Dock office", description: "" });
    await caller.locations.updateNetworkConfig({ accountId, id: location._id, version: 1, config: { dnsServers: ["10.1.1.1"] } });
    expect(batches).toHaveLength(4);
    for (const statements of batches) {
      expect(statements).toHaveLength(2);
      expect(statements[0]).toMatch(/^(UPDATE|INSERT INTO) (sites|locations)/);
      expect(statements[1]).toMatch(/^INSERT INTO activity_logs/);
    }
  });

  it("keeps secrets write-only: never read back, never logged, kept when left blank", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Secret Site" }, cookies.owner));
    const secret = "harbor-secret-passphrase";
    const wifi = { id: "wifi_depot", ssid: "Depot", security: "wpa2-personal", passphrase: secret, priority: 3 };
    await ok(
      mutate(
        "sites.updateNetworkConfig",
        { accountId, id: site._id, version: 1, config: { wifi: [wifi], lte: { apn: "fleet", password: "lte-secret-1" } } },
        cookies.configurator,
      ),
    );
    // Saved again with the passphrase left blank: kept.
    await ok(
      mutate(
        "sites.updateNetworkConfig",
        { accountId, id: site._id, version: 2, config: { wifi: [{ ...wifi, passphrase: "" }], lte: { apn: "fleet" } } },
        cookies.configurator,
      ),
    );
    const read = await ok<{ config: unknown }>(query("sites.networkConfig", { accountId, id: site._id }, cookies.owner));
    const text = JSON.stringify(read);
    expect(text).not.toContain(secret);
    expect(text).not.toContain("lte-secret-1");
    expect(read.config).toMatchObject({
      wifi: [{ ssid: "Depot", hasPassphrase: true }],
      lte: { apn: "fleet", hasPassword: true },
    });
    const stored = await env.DB.prepare("SELECT network_config FROM sites WHERE id = ?")
      .bind(site._id)
      .first<{ network_config: string }>();
    expect(stored?.network_config).toContain(secret);
    expect(JSON.stringify(await activity(site._id))).not.toContain(secret);
    const effective = await ok(query("locations.effectiveNetworkConfig", { accountId, siteId: site._id }, cookies.configurator));
    expect(JSON.stringify(effective)).not.toContain(secret);
    const page = await (
      await request(`/accounts/${accountId}/sites/${site._id}/network`, { headers: { Cookie: cookies.owner } })
    ).text();
    expect(page).not.toContain(secret);
    expect(page).toContain("Set — leave blank to keep it.");
    // A WPA network without a passphrase, typed or kept, is refused on its field.
    const missing = await mutate(
      "sites.updateNetworkConfig",
      { accountId, id: site._id, version: 3, config: { wifi: [{ ...wifi, id: "wifi_new", passphrase: "" }] } },
      cookies.configurator,
    );
    expect(missing.code).toBe("BAD_REQUEST");
  });

  it("merges account → site → location, with each part's source", async () => {
    const account = await ok<{ version: number }>(query("accounts.details", { id: accountId }, cookies.owner));
    await ok(
      mutate(
        "accounts.updateNetworkConfig",
        { id: accountId, version: account.version, config: { dnsServers: ["1.1.1.1"], ntpServers: ["pool.ntp.org"] } },
        cookies.owner,
      ),
    );
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Merge Site" }, cookies.owner));
    const location = await ok<LocationAnswer>(
      mutate("locations.add", { accountId, siteId: site._id, name: "Merge Room" }, cookies.owner),
    );
    await ok(
      mutate(
        "sites.updateNetworkConfig",
        {
          accountId,
          id: site._id,
          version: 1,
          config: { wifi: [{ id: "w_site", ssid: "Site Wi-Fi", security: "open", priority: 2 }] },
        },
        cookies.owner,
      ),
    );
    await ok(
      mutate(
        "locations.updateNetworkConfig",
        { accountId, id: location._id, version: 1, config: { dnsServers: ["10.9.9.9"] } },
        cookies.owner,
      ),
    );
    const effective = await ok<{ config: Record<string, unknown>; sources: Record<string, string> }>(
      query("locations.effectiveNetworkConfig", { accountId, locationId: location._id }, cookies.configurator),
    );
    expect(effective.sources).toEqual({ wifi: "site", dnsServers: "location", ntpServers: "account" });
    expect(effective.config.dnsServers).toEqual(["10.9.9.9"]);
    const tab = await ok<{ inherited: { sources: Record<string, string> }; effective: { sources: Record<string, string> } }>(
      query("locations.networkConfig", { accountId, id: location._id }, cookies.owner),
    );
    expect(tab.inherited.sources).toEqual({ wifi: "site", dnsServers: "account", ntpServers: "account" });
    expect(tab.effective.sources.dnsServers).toBe("location");
    // Back to inheriting: the location stores nothing for DNS any more.
    await ok(mutate("locations.updateNetworkConfig", { accountId, id: location._id, version: 2, config: {} }, cookies.owner));
    const again = await ok<{ sources: Record<string, string> }>(
      query("locations.effectiveNetworkConfig", { accountId, locationId: location._id }, cookies.configurator),
    );
    expect(again.sources.dnsServers).toBe("account");
  });

  it("deletes a site with its locations in one batch, one activity entry per removed row, nothing left behind", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Doomed Site" }, cookies.owner));
    const rooms: LocationAnswer[] = [];
    for (const name of ["Room 1", "Room 2", "Room 3"]) {
      rooms.push(await ok<LocationAnswer>(mutate("locations.add", { accountId, siteId: site._id, name }, cookies.owner)));
    }
    expect((await ok<SiteAnswer>(query("sites.details", { accountId, id: site._id }, cookies.owner))).locationCount).toBe(3);

    const stale = await mutate("sites.delete", { accountId, id: site._id, version: 7 }, cookies.configurator);
    expect(stale.code).toBe("CONFLICT");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM locations WHERE site_id = ?")
      .bind(site._id)
      .first<{ n: number }>();
    expect(left?.n).toBe(3);
    expect((await activity(rooms[0]?._id ?? "")).map((e) => e.action)).toEqual(["create"]);

    const done = await ok<{ deletedLocations: number }>(
      mutate("sites.delete", { accountId, id: site._id, version: 1 }, cookies.configurator),
    );
    expect(done.deletedLocations).toBe(3);
    const rows = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM sites WHERE id = ?1) AS sites, (SELECT count(*) FROM locations WHERE site_id = ?1) AS locations",
    )
      .bind(site._id)
      .first<{ sites: number; locations: number }>();
    expect(rows).toEqual({ sites: 0, locations: 0 });
    for (const room of rooms) {
      expect((await activity(room._id)).map((e) => [e.action, e.entity_type, e.deployable])).toEqual([
        ["create", "location", 1],
        ["delete", "location", 1],
      ]);
    }
    expect((await activity(site._id)).map((e) => e.action)).toEqual(["create", "delete"]);
  });

  it("deleting a site or location that still has radios unassigns them in the same batch; a stale one moves none", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Radio Yard" }, cookies.owner));
    const bay = await ok<LocationAnswer>(mutate("locations.add", { accountId, siteId: site._id, name: "Bay" }, cookies.owner));
    const shed = await ok<LocationAnswer>(mutate("locations.add", { accountId, siteId: site._id, name: "Shed" }, cookies.owner));
    await giveSeats(dealer, accountId, 3);
    const [atBay, atShed, atSite] = await registerRadios(dealer, accountId, "YARD", 3);
    const place = (uid: string | undefined, locationId: string | null) =>
      env.DB.prepare("UPDATE devices SET site_id = ?, location_id = ? WHERE uid = ?").bind(site._id, locationId, uid ?? "");
    await env.DB.batch([place(atBay, bay._id), place(atShed, shed._id), place(atSite, null)]);
    const placeOf = async (uid: string | undefined) =>
      env.DB.prepare("SELECT site_id AS site, location_id AS location FROM devices WHERE uid = ?")
        .bind(uid ?? "")
        .first<{ site: string | null; location: string | null }>();

    // A stale location deletion: CONFLICT, and its radio keeps its place.
    expect((await mutate("locations.delete", { accountId, id: bay._id, version: 9 }, cookies.configurator)).code).toBe(
      "CONFLICT",
    );
    expect(await placeOf(atBay)).toEqual({ site: site._id, location: bay._id });
    // The location goes; its radio stays at the site without a location.
    await ok(mutate("locations.delete", { accountId, id: bay._id, version: 1 }, cookies.configurator));
    expect(await placeOf(atBay)).toEqual({ site: site._id, location: null });

    // A stale site deletion moves no radio either.
    expect((await mutate("sites.delete", { accountId, id: site._id, version: 9 }, cookies.configurator)).code).toBe("CONFLICT");
    expect(await placeOf(atShed)).toEqual({ site: site._id, location: shed._id });
    // The site goes with its remaining location; every radio there is unassigned from both, still in the account.
    const done = await ok<{ deletedLocations: number }>(
      mutate("sites.delete", { accountId, id: site._id, version: 1 }, cookies.configurator),
    );
    expect(done.deletedLocations).toBe(1);
    for (const uid of [atBay, atShed, atSite]) expect(await placeOf(uid)).toEqual({ site: null, location: null });
    const inAccount = await env.DB.prepare("SELECT count(*) AS n FROM devices WHERE account_id = ? AND uid LIKE 'YARD-%'")
      .bind(accountId)
      .first<{ n: number }>();
    expect(inAccount?.n).toBe(3);
  });

  it("never lets a location point at a missing site or another account's site", async () => {
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Keyed Site" }, cookies.owner));
    const insert = (site: string, account: string) =>
      env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'x')")
        .bind(`loc_fk_${crypto.randomUUID().slice(0, 8)}`, account, site)
        .run();
    await expect(insert("site_missing", accountId)).rejects.toThrow(/FOREIGN KEY/);
    await expect(insert(site._id, secondAccount)).rejects.toThrow(/FOREIGN KEY/);
  });

  it("lets the account be deleted with its sites and locations", async () => {
    const doomed = await createAccount(dealer, "Doomed Fleet");
    const site = await ok<SiteAnswer>(mutate("sites.add", { accountId: doomed, name: "Gone Site" }, cookies.owner));
    await ok(mutate("locations.add", { accountId: doomed, siteId: site._id, name: "Gone Room" }, cookies.owner));
    await ok(mutate("accounts.delete", { id: doomed, version: 1, confirmName: "Doomed Fleet" }, cookies.owner));
    const left = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM sites WHERE account_id = ?1) + (SELECT count(*) FROM locations WHERE account_id = ?1) AS n",
    )
      .bind(doomed)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
  });
});

describe("sites and locations screens (without JavaScript)", () => {
  let siteId: string;
  let locationId: string;

  const get = (path: string, cookie: string) => request(path, { headers: { Cookie: cookie }, redirect: "manual" });
  const post = (path: string, cookie: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
    postForm(path, fields, { Cookie: cookie, ...headers });
  const base = () => `/accounts/${accountId}`;

  it("adds a site from the form and opens its General tab with a flash", async () => {
    const bad = await post(`${base()}/sites/add`, cookies.configurator, { name: "", address: "Typed address", timezone: "" });
    expect(bad.status).toBe(400);
    const html = await bad.text();
    // GOV.UK: "Error: " before the title, a summary that takes the focus and links to the field.
    expect(html).toMatch(/<title>Error: Add site · /);
    expect(html).toMatch(/<div data-error-summary="" tabindex="-1" autofocus=""/);
    expect(html).toContain('<a href="#field-name" class="font-semibold text-red-800 underline">Enter a site name.</a>');
    expect(html).toContain('id="field-name"');
    expect(html).toContain('value="Typed address"');

    const response = await post(`${base()}/sites/add`, cookies.configurator, {
      name: "Screen Site",
      address: "9 Harbor Rd",
      timezone: "",
    });
    expect(response.status).toBe(303);
    const location = response.headers.get("Location") ?? "";
    expect(location).toMatch(new RegExp(`^/accounts/${accountId}/sites/site_[^/]+/general$`));
    siteId = location.split("/")[4] ?? "";
    const page = await (await get(location, cookies.configurator)).text();
    expect(page).toContain("Screen Site");
    expect(page).toContain("Same as the account (UTC)");
  });

  it("opens a site on its first tab the user may see", async () => {
    const response = await get(`${base()}/sites/${siteId}`, cookies.configurator);
    expect(response.status).toBe(302);
    expect(response.headers.get("Location")).toBe(`${base()}/sites/${siteId}/general`);
  });

  it("names the site and the tab in each tab page's <title>, in the reader's language", async () => {
    const titleOf = async (path: string, cookie = cookies.owner) =>
      /<title>([^<]*)<\/title>/.exec(await (await get(path, cookie)).text())?.[1] ?? "";
    expect(await titleOf(`${base()}/sites/${siteId}/general`)).toBe("Screen Site — General · Site · Configuration Tool");
    expect(await titleOf(`${base()}/sites/${siteId}/network`)).toBe("Screen Site — Network · Site · Configuration Tool");
    expect(await titleOf(`${base()}/sites/${siteId}/locations`)).toBe("Screen Site — Locations · Site · Configuration Tool");
    expect(await titleOf(`${base()}/sites/${siteId}/network`, `${cookies.owner}; lang=pt-BR`)).toBe(
      "Screen Site — Rede · Site · Configuration Tool",
    );
  });

  it("lists sites with search, sort and page in the URL", async () => {
    const page = await (await get(`${base()}/sites?q=screen`, cookies.configurator)).text();
    expect(page).toContain("1 site matches “screen”");
    expect(page).toContain(`href="${base()}/sites/${siteId}"`);
    const sorted = await (await get(`${base()}/sites?sort=-name`, cookies.configurator)).text();
    expect(sorted).toContain('aria-sort="descending"');
  });

  it("keeps what was typed on a stale save and offers to load the current version", async () => {
    await post(`${base()}/sites/${siteId}/general`, cookies.owner, {
      version: "1",
      name: "Screen Site",
      address: "New",
      timezone: "",
    });
    const stale = await post(`${base()}/sites/${siteId}/general`, cookies.configurator, {
      version: "1",
      name: "My typed name",
      address: "My typed address",
      timezone: "",
    });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("Someone else changed this while you were editing.");
    expect(html).toContain('value="My typed name"');
    expect(html).toContain("Load the current version");
  });

  it("answers an island's post as JSON", async () => {
    const response = await post(
      `${base()}/locations/add`,
      cookies.configurator,
      { from: "site", siteId, name: "Screen Room", description: "Ground floor" },
      { Accept: "application/json" },
    );
    const body = (await response.json()) as { ok: boolean; redirect: string };
    expect(body.ok).toBe(true);
    expect(body.redirect).toMatch(new RegExp(`^/accounts/${accountId}/sites/${siteId}/locations/loc_[^/]+/general$`));
    locationId = body.redirect.split("/")[6] ?? "";
  });

  it("saves the ticked network parts only, and shows inherited parts with their source", async () => {
    const href = `${base()}/sites/${siteId}/locations/${locationId}/network`;
    const response = await post(href, cookies.configurator, {
      version: "1",
      "override.dnsServers": "on",
      dnsServers: "10.0.0.53",
      ntpServers: "typed-but-not-ticked.example",
      "wifi.0.id": "",
      "wifi.0.ssid": "",
      "wifi.0.security": "wpa2-personal",
      "wifi.0.passphrase": "",
      "wifi.0.priority": "",
    });
    expect(response.status).toBe(303);
    const stored = await env.DB.prepare("SELECT network_config FROM locations WHERE id = ?")
      .bind(locationId)
      .first<{ network_config: string }>();
    expect(JSON.parse(stored?.network_config ?? "{}")).toEqual({ dnsServers: ["10.0.0.53"] });
    const html = await (await get(href, cookies.configurator)).text();
    expect(html).toMatch(/data-part="dnsServers"[\s\S]*?10\.0\.0\.53[\s\S]*?data-source="location"/);
    expect(html).toMatch(/data-part="ntpServers"[\s\S]*?pool\.ntp\.org[\s\S]*?data-source="account"/);
    expect(html).toContain("Inherited from the account:");
    expect(html).toContain("Override “DNS servers” for this location");
  });

  it("shows another site's location as not found under this site", async () => {
    const other = await ok<SiteAnswer>(mutate("sites.add", { accountId, name: "Elsewhere" }, cookies.owner));
    const response = await get(`${base()}/sites/${other._id}/locations/${locationId}/general`, cookies.configurator);
    expect(response.status).toBe(404);
  });

  it("protects the tabs by permission and hides Sites from a technician", async () => {
    const general = await get(`${base()}/sites/${siteId}/general`, cookies.technician);
    expect(general.status).toBe(403);
    expect(await general.text()).toContain("This route is protected.");
    expect((await get(`${base()}/sites/${siteId}`, cookies.technician)).status).toBe(403);
    const home = await (await get(base(), cookies.technician)).text();
    expect(home).not.toContain(`href="${base()}/sites"`);
    const forged = await post(`${base()}/sites/${siteId}/delete`, cookies.technician, { version: "3" });
    expect(forged.status).toBe(403);
  });

  it("says on the delete page which locations go with the site, then deletes them", async () => {
    const page = await (await get(`${base()}/sites/${siteId}/delete`, cookies.configurator)).text();
    expect(page).toContain("and its 1 location, with their network settings:");
    expect(page).toContain("Screen Room");
    const current = await ok<SiteAnswer>(query("sites.details", { accountId, id: siteId }, cookies.owner));
    const response = await post(`${base()}/sites/${siteId}/delete`, cookies.configurator, { version: String(current.version) });
    expect(response.status).toBe(303);
    expect(response.headers.get("Location")).toBe(`${base()}/sites`);
    expect((await get(`${base()}/sites/${siteId}/general`, cookies.configurator)).status).toBe(404);
  });
});

/** The procedures' context for a user of `role` in the dealer organization, over `db`. */
function callerContext(db: D1Database, role: Role) {
  const user: SessionUser = {
    id: "usr_batch",
    sessionId: "ses_batch",
    email: "batch@example.com",
    name: "Batch",
    orgId: dealer,
    role,
    language: "en",
    permissions: permissionsOf(role),
  };
  return { env, db, user, language: "en" as const, origin: ORIGIN, t: translatorFor("en", defaultSettings.brandNamespace) };
}

/** A D1 binding that records the SQL of every statement of every batch it runs. */
function recordingBatches(db: D1Database, batches: string[][]): D1Database {
  const sqlOf = new WeakMap<object, string>();
  return new Proxy(db, {
    get(target, property) {
      if (property === "batch") {
        return (statements: object[]) => {
          batches.push(statements.map((s) => (sqlOf.get(s) ?? "").replace(/\s+/g, " ").trim()));
          return target.batch(statements as Parameters<D1Database["batch"]>[0]);
        };
      }
      if (property !== "prepare") return Reflect.get(target, property);
      return (sql: string) => {
        const prepared = target.prepare(sql);
        return new Proxy(prepared, {
          get(inner, name) {
            if (name !== "bind") return Reflect.get(inner, name);
            return (...params: unknown[]) => {
              const bound = inner.bind(...params);
              sqlOf.set(bound, sql);
              return bound;
            };
          },
        });
      };
    },
  });
}

// viewOf is what reads return; a stored secret never survives it.
it("viewOf drops secrets", () => {
  const view = viewOf({ wifi: [{ id: "a", ssid: "s", security: "wpa2-personal", passphrase: "p4ssphrase", priority: 0 }] });
  expect(JSON.stringify(view)).not.toContain("p4ssphrase");
});
