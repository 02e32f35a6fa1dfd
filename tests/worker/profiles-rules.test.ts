import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { settingsSchemas } from "@/schema/profiles";
import { matchesDevice, uidMatcher } from "@/schema/rules";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Profiles and rules of an account (issue 6): each profile type's limits, who may change
// what, tenants, stale versions, activity entries written in the same batch as the change (and
// none for a refused one), dense priorities through reorders and deletions, and deleting a
// profile that rules use doing exactly what its page says.

type Answer<T = unknown> = {
  result?: { data: T };
  error?: { code: number; message: string; data: { code: string; fieldErrors?: Record<string, string[]> } };
};

async function query<T = unknown>(path: string, input: unknown, cookie: string): Promise<Answer<T>> {
  const response = await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { Cookie: cookie },
  });
  return response.json();
}

async function mutate<T = unknown>(path: string, input: unknown, cookie: string): Promise<Answer<T>> {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  return response.json();
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

const codeOf = (answer: Answer) => answer.error?.data.code ?? "OK";

type Shown = {
  id: string;
  name: string;
  version: number;
  type: string;
  accountId: string | null;
  settings: Record<string, unknown>;
};
type ShownRule = { id: string; name: string; priority: number; version: number; profiles: { id: string; name: string }[] };

const device = {
  brightness: 3,
  backlight: "10",
  volumeMin: 2,
  volumeMax: 12,
  powerSave: "standard",
  gpsIntervalSeconds: 60,
  menuLanguage: "en",
};
const channel = (name: string, mhz = 462.5625) => ({
  name,
  rxMhz: mhz,
  txMhz: mhz,
  bandwidth: "12.5",
  tone: "",
  power: "high",
  scan: true,
});
const channels = { band: "uhf", channels: [channel("Ops 1"), channel("Ops 2", 462.5875)] };

let dealer: string;
let account: string;
let otherAccount: string;
let owner: string;
let configurator: string;
let technician: string;
let viewer: string;
let outsider: string;
let outsiderAccount: string;

async function activity(entityId: string) {
  const { results } = await env.DB.prepare(
    "SELECT action, entity_type, deployable, account_id, diff FROM activity_logs WHERE entity_id = ? ORDER BY created_at, rowid",
  )
    .bind(entityId)
    .all<{ action: string; entity_type: string; deployable: number; account_id: string | null; diff: string }>();
  return results;
}

async function priorities(accountId: string) {
  const { results } = await env.DB.prepare("SELECT name, priority FROM rules WHERE account_id = ? ORDER BY priority")
    .bind(accountId)
    .all<{ name: string; priority: number }>();
  return results;
}

async function addProfile(
  name: string,
  type = "channels",
  settings: unknown = channels,
  accountId = account,
  cookie = configurator,
) {
  return data(await mutate<Shown>("profiles.add", { accountId, name, type, settings }, cookie));
}

async function addRule(name: string, profileIds: string[] = [], accountId = account, conditions: unknown = {}) {
  return data(await mutate<ShownRule>("rules.add", { accountId, name, profileIds, conditions }, configurator));
}

beforeAll(async () => {
  dealer = await createOrganization("Dealer");
  account = await createAccount(dealer, "Harbor fleet");
  otherAccount = await createAccount(dealer, "Second fleet");
  const roles = ["owner", "configurator", "technician", "viewer"] as const;
  const cookies = await Promise.all(roles.map(async (role) => sessionCookie((await createUser({ orgId: dealer, role })).email)));
  [owner, configurator, technician, viewer] = cookies as [string, string, string, string];
  const elsewhere = await createOrganization("Another dealer");
  outsiderAccount = await createAccount(elsewhere, "Not yours");
  outsider = await sessionCookie((await createUser({ orgId: elsewhere, role: "owner" })).email);
});

describe("profile types: schemas and their limits", () => {
  const valid = (type: keyof typeof settingsSchemas, value: unknown) => settingsSchemas[type].safeParse(value);
  const messages = (type: keyof typeof settingsSchemas, value: unknown) =>
    (valid(type, value).error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);

  it("device settings: brightness 1–5, volume 0–15 with min ≤ max, GPS off or 10–3600 s, known choices", () => {
    expect(valid("device", device).success).toBe(true);
    expect(messages("device", { ...device, brightness: 6 })).toEqual(["brightness: validation.BrightnessRange"]);
    expect(messages("device", { ...device, brightness: 2.5 })).toEqual(["brightness: validation.BrightnessRange"]);
    expect(messages("device", { ...device, volumeMin: 9, volumeMax: 4 })).toEqual(["volumeMax: validation.VolumeOrder"]);
    expect(messages("device", { ...device, volumeMax: 16 })).toEqual(["volumeMax: validation.VolumeRange"]);
    expect(valid("device", { ...device, gpsIntervalSeconds: 0 }).success).toBe(true);
    expect(messages("device", { ...device, gpsIntervalSeconds: 5 })).toEqual(["gpsIntervalSeconds: validation.GpsIntervalRange"]);
    expect(messages("device", { ...device, gpsIntervalSeconds: 3601 })).toEqual([
      "gpsIntervalSeconds: validation.GpsIntervalRange",
    ]);
    expect(messages("device", { ...device, backlight: "7" })).toEqual(["backlight: validation.ChooseOne"]);
    expect(messages("device", { ...device, brightness: undefined })).toEqual(["brightness: validation.Required"]);
  });

  it("channels: 1–64 channels, 16-character names, frequencies in the band on a 1.25 kHz raster, standard tones", () => {
    expect(valid("channels", channels).success).toBe(true);
    expect(messages("channels", { band: "uhf", channels: [] })).toEqual(["channels: validation.ChannelsRequired"]);
    const many = Array.from({ length: 65 }, (_, i) => channel(`Ch ${i}`));
    expect(messages("channels", { band: "uhf", channels: many })).toEqual(["channels: validation.TooManyChannels"]);
    expect(valid("channels", { band: "uhf", channels: many.slice(0, 64) }).success).toBe(true);
    expect(messages("channels", { band: "uhf", channels: [channel("A name of 17 char")] })).toEqual([
      "channels.0.name: validation.ShortNameTooLong",
    ]);
    // 151.0 MHz is VHF: refused in a UHF profile, accepted in a VHF one.
    expect(messages("channels", { band: "uhf", channels: [channel("Yard", 151)] })).toEqual([
      "channels.0.rxMhz: validation.FrequencyInvalid",
      "channels.0.txMhz: validation.FrequencyInvalid",
    ]);
    expect(valid("channels", { band: "vhf", channels: [channel("Yard", 151)] }).success).toBe(true);
    expect(messages("channels", { band: "uhf", channels: [channel("Off raster", 462.5631)] })).toContain(
      "channels.0.rxMhz: validation.FrequencyInvalid",
    );
    const toned = (tone: string) => settingsSchemas.channels.safeParse({ band: "uhf", channels: [{ ...channel("T"), tone }] });
    expect(toned("67.0").success).toBe(true);
    expect(toned("d023i").data?.channels[0]?.tone).toBe("D023I");
    expect(toned("68.0").success).toBe(false);
    expect(toned("D029N").success).toBe(false);
    expect(messages("channels", { band: "uhf", channels: [channel("Same"), channel("same", 462.6)] })).toEqual([
      "channels.1.name: validation.ChannelNameTaken",
    ]);
    expect(messages("channels", { band: "uhf", channels: [{ ...channel("Bw"), bandwidth: "20" }] })).toEqual([
      "channels.0.bandwidth: validation.ChooseOne",
    ]);
  });

  it("contacts: IDs 1–16776415, one ID per call type, at most 200", () => {
    const contact = (id: number, callType = "group") => ({ name: `C${id}`, callType, id });
    expect(valid("contacts", { contacts: [contact(1), contact(16_776_415)] }).success).toBe(true);
    expect(messages("contacts", { contacts: [contact(0)] })).toEqual(["contacts.0.id: validation.ContactIdRange"]);
    expect(messages("contacts", { contacts: [contact(16_776_416)] })).toEqual(["contacts.0.id: validation.ContactIdRange"]);
    expect(messages("contacts", { contacts: [contact(9), { ...contact(9), name: "Again" }] })).toEqual([
      "contacts.1.id: validation.ContactIdTaken",
    ]);
    expect(valid("contacts", { contacts: [contact(9), contact(9, "private")] }).success).toBe(true);
    const many = Array.from({ length: 201 }, (_, i) => contact(i + 1));
    expect(messages("contacts", { contacts: many })).toEqual(["contacts: validation.TooManyContacts"]);
  });

  it("buttons: an action from the list; the emergency button only raises the alarm or does nothing", () => {
    const buttons = { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" };
    expect(valid("buttons", buttons).success).toBe(true);
    expect(messages("buttons", { ...buttons, emergency: "scan" })).toEqual(["emergency: validation.ChooseOne"]);
    expect(messages("buttons", { ...buttons, top: "self-destruct" })).toEqual(["top: validation.ChooseOne"]);
  });

  it("rule conditions match devices: every condition given, any value within one; uid patterns with * and ?", () => {
    const radio = { uid: "HX4-2025-0042", siteId: "site_a", locationId: null, model: "HX-400", tags: ["Night"] };
    expect(matchesDevice({}, radio)).toBe(true);
    expect(matchesDevice({ siteIds: ["site_a", "site_b"], tags: ["night"] }, radio)).toBe(true);
    expect(matchesDevice({ siteIds: ["site_a"], models: ["HX-600"] }, radio)).toBe(false);
    expect(matchesDevice({ locationIds: ["loc_gone"] }, radio)).toBe(false);
    expect(uidMatcher("hx4-2025-00??").test(radio.uid)).toBe(true);
    expect(uidMatcher("HX4-2024*").test(radio.uid)).toBe(false);
    expect(uidMatcher("HX4.2025*").test("HX4-2025")).toBe(false);
  });
});

describe("profiles procedures", () => {
  it("adds an account profile with a deployable activity entry in the same batch", async () => {
    const profile = await addProfile("Harbor channels");
    expect(profile).toMatchObject({ name: "Harbor channels", type: "channels", accountId: account, version: 1 });
    expect(profile.settings).toEqual({ band: "uhf", channels: channels.channels });
    const entries = await activity(profile.id);
    expect(entries).toHaveLength(1);
    expect(entries[0]).toMatchObject({ action: "create", entity_type: "profile", deployable: 1, account_id: account });
  });

  it("answers bad settings with field messages and stores nothing", async () => {
    const answer = await mutate(
      "profiles.add",
      { accountId: account, name: "Bad radio", type: "device", settings: { ...device, brightness: 9 } },
      configurator,
    );
    expect(codeOf(answer)).toBe("BAD_REQUEST");
    expect(answer.error?.data.fieldErrors?.settings?.[0]).toBe("Enter a whole number from 1 to 5.");
    const row = await env.DB.prepare("SELECT count(*) AS n FROM profiles WHERE name = 'Bad radio'").first<{ n: number }>();
    expect(row?.n).toBe(0);
  });

  it("keeps names unique per type (case-insensitively) within the account", async () => {
    await addProfile("Shared name", "device", device);
    const again = await mutate(
      "profiles.add",
      { accountId: account, name: "SHARED NAME", type: "device", settings: device },
      configurator,
    );
    expect(codeOf(again)).toBe("BAD_REQUEST");
    expect(again.error?.message).toBe("Another profile of this type already has this name.");
    expect(
      codeOf(
        await mutate(
          "profiles.add",
          {
            accountId: account,
            name: "Shared name",
            type: "buttons",
            settings: { side1: "scan", side2: "none", top: "none", emergency: "none" },
          },
          configurator,
        ),
      ),
    ).toBe("OK");
    expect(
      codeOf(
        await mutate(
          "profiles.add",
          { accountId: otherAccount, name: "Shared name", type: "device", settings: device },
          configurator,
        ),
      ),
    ).toBe("OK");
  });

  it("refuses more than 50 profiles of a type in an account", async () => {
    const full = await createAccount(dealer, "Full fleet");
    const rows = Array.from({ length: 50 }, (_, i) =>
      env.DB.prepare("INSERT INTO profiles (id, org_id, account_id, type, name, settings) VALUES (?, ?, ?, 'device', ?, ?)").bind(
        `prf_full_${i}`,
        dealer,
        full,
        `Radio ${i}`,
        JSON.stringify(device),
      ),
    );
    await env.DB.batch(rows);
    const answer = await mutate(
      "profiles.add",
      { accountId: full, name: "One more", type: "device", settings: device },
      configurator,
    );
    expect(codeOf(answer)).toBe("BAD_REQUEST");
    expect(
      codeOf(
        await mutate("profiles.add", { accountId: full, name: "Other type", type: "channels", settings: channels }, configurator),
      ),
    ).toBe("OK");
  });

  it("saves at the version edited on; a stale save is CONFLICT, changes nothing and logs nothing", async () => {
    const profile = await addProfile("Versioned", "device", device);
    const saved = data(
      await mutate<Shown>(
        "profiles.update",
        { id: profile.id, version: 1, name: "Versioned", type: "device", settings: { ...device, brightness: 5 } },
        configurator,
      ),
    );
    expect(saved.version).toBe(2);
    expect(saved.settings.brightness).toBe(5);
    const stale = await mutate(
      "profiles.update",
      { id: profile.id, version: 1, name: "Overwritten", type: "device", settings: device },
      owner,
    );
    expect(codeOf(stale)).toBe("CONFLICT");
    const details = data(await query<Shown>("profiles.details", { id: profile.id }, viewer));
    expect(details).toMatchObject({ name: "Versioned", version: 2 });
    expect((await activity(profile.id)).map((e) => e.action)).toEqual(["create", "update"]);
    const diff = JSON.parse((await activity(profile.id))[1]?.diff ?? "{}");
    expect(diff.settings.before.brightness).toBe(3);
    expect(diff.settings.after.brightness).toBe(5);
  });

  it("keeps a profile's type", async () => {
    const profile = await addProfile("Typed", "device", device);
    const answer = await mutate(
      "profiles.update",
      { id: profile.id, version: 1, name: "Typed", type: "channels", settings: channels },
      configurator,
    );
    expect(codeOf(answer)).toBe("BAD_REQUEST");
  });

  it("lets readers read, and only edit-configurations write account profiles", async () => {
    const profile = await addProfile("Read me", "device", device);
    expect(codeOf(await query("profiles.details", { id: profile.id }, viewer))).toBe("OK");
    const list = data(
      await query<{ items: Shown[]; total: number }>(
        "profiles.list",
        { accountId: account, type: "device", search: "read" },
        viewer,
      ),
    );
    expect(list.items.map((p) => p.name)).toEqual(["Read me"]);
    for (const cookie of [technician, viewer]) {
      expect(
        codeOf(await mutate("profiles.add", { accountId: account, name: "Nope", type: "device", settings: device }, cookie)),
      ).toBe("FORBIDDEN");
      expect(
        codeOf(
          await mutate("profiles.update", { id: profile.id, version: 1, name: "Nope", type: "device", settings: device }, cookie),
        ),
      ).toBe("FORBIDDEN");
      expect(codeOf(await mutate("profiles.delete", { id: profile.id, version: 1 }, cookie))).toBe("FORBIDDEN");
    }
  });

  it("hides other tenants' profiles and accounts (NOT_FOUND) and changes nothing for them", async () => {
    const profile = await addProfile("Private", "device", device);
    expect(codeOf(await query("profiles.details", { id: profile.id }, outsider))).toBe("NOT_FOUND");
    expect(codeOf(await query("profiles.usage", { id: profile.id }, outsider))).toBe("NOT_FOUND");
    expect(codeOf(await query("profiles.list", { accountId: account }, outsider))).toBe("NOT_FOUND");
    expect(
      codeOf(
        await mutate(
          "profiles.update",
          { id: profile.id, version: 1, name: "Taken over", type: "device", settings: device },
          outsider,
        ),
      ),
    ).toBe("NOT_FOUND");
    expect(codeOf(await mutate("profiles.delete", { id: profile.id, version: 1 }, outsider))).toBe("NOT_FOUND");
    expect(
      codeOf(await mutate("profiles.add", { accountId: account, name: "Planted", type: "device", settings: device }, outsider)),
    ).toBe("NOT_FOUND");
    expect(
      codeOf(
        await mutate("profiles.add", { accountId: outsiderAccount, name: "Theirs", type: "device", settings: device }, owner),
      ),
    ).toBe("NOT_FOUND");
    expect(data(await query<Shown>("profiles.details", { id: profile.id }, owner)).version).toBe(1);
  });

  it("keeps organization templates apart: manage-devices, not deployable, and not editable as account profiles", async () => {
    const template = data(
      await mutate<Shown>(
        "profiles.addTemplate",
        { orgId: dealer, name: "Standard UHF", type: "channels", settings: channels },
        technician,
      ),
    );
    expect(template.accountId).toBeNull();
    expect(await activity(template.id)).toEqual([
      expect.objectContaining({ action: "create", entity_type: "profile-template", deployable: 0, account_id: null }),
    ]);
    expect(
      codeOf(await mutate("profiles.addTemplate", { orgId: dealer, name: "Viewer's", type: "device", settings: device }, viewer)),
    ).toBe("FORBIDDEN");
    expect(
      codeOf(
        await mutate(
          "profiles.update",
          { id: template.id, version: 1, name: "X", type: "channels", settings: channels },
          configurator,
        ),
      ),
    ).toBe("NOT_FOUND");
    const accountProfile = await addProfile("Not a template", "device", device);
    expect(
      codeOf(
        await mutate(
          "profiles.updateTemplate",
          { id: accountProfile.id, version: 1, name: "X", type: "device", settings: device },
          technician,
        ),
      ),
    ).toBe("NOT_FOUND");
    expect(codeOf(await mutate("profiles.deleteTemplate", { id: accountProfile.id, version: 1 }, technician))).toBe("NOT_FOUND");
    const templates = data(await query<{ items: Shown[] }>("profiles.list", { orgId: dealer }, viewer));
    expect(templates.items.map((t) => t.name)).toEqual(["Standard UHF"]);
    expect(codeOf(await query("profiles.list", { orgId: dealer }, outsider))).toBe("NOT_FOUND");
    expect(codeOf(await mutate("profiles.deleteTemplate", { id: template.id, version: 1 }, technician))).toBe("OK");
  });
});

describe("rules procedures", () => {
  let fleet: string;
  let channelsProfile: Shown;
  let deviceProfile: Shown;

  beforeAll(async () => {
    fleet = await createAccount(dealer, "Rules fleet");
    channelsProfile = await addProfile("Rule channels", "channels", channels, fleet);
    deviceProfile = await addProfile("Rule radios", "device", device, fleet);
  });

  it("adds rules last in a dense order, with their profiles in order and an activity entry each", async () => {
    const first = await addRule("Everyone", [channelsProfile.id, deviceProfile.id], fleet);
    const second = await addRule("Night shift", [deviceProfile.id], fleet, { tags: ["night", "Night"], uidPattern: "HX*" });
    expect(first.priority).toBe(1);
    expect(second.priority).toBe(2);
    expect(first.profiles.map((p) => p.name)).toEqual(["Rule channels", "Rule radios"]);
    expect(data(await query<{ conditions: unknown }>("rules.details", { id: second.id }, viewer)).conditions).toEqual({
      tags: ["night"],
      uidPattern: "HX*",
    });
    expect(await activity(first.id)).toEqual([expect.objectContaining({ action: "create", entity_type: "rule", deployable: 1 })]);
  });

  it("refuses profiles, sites and locations of another account, and repeated profiles", async () => {
    const foreign = await addProfile("Foreign", "device", device, otherAccount);
    const answer = await mutate(
      "rules.add",
      { accountId: fleet, name: "Foreign profile", profileIds: [foreign.id] },
      configurator,
    );
    expect(codeOf(answer)).toBe("BAD_REQUEST");
    expect(answer.error?.data.fieldErrors?.profileIds?.[0]).toBe("This profile is not (or no longer) in this account.");
    const repeated = await mutate(
      "rules.add",
      { accountId: fleet, name: "Twice", profileIds: [deviceProfile.id, deviceProfile.id] },
      configurator,
    );
    expect(codeOf(repeated)).toBe("BAD_REQUEST");
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_other', ?, 'Elsewhere')").bind(otherAccount),
      env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_depot', ?, 'Depot')").bind(fleet),
      env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_pier', ?, 'Pier')").bind(fleet),
      env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES ('loc_gate', ?, 'site_pier', 'Gate')").bind(
        fleet,
      ),
    ]);
    const site = await mutate(
      "rules.add",
      { accountId: fleet, name: "Other site", conditions: { siteIds: ["site_other"] } },
      configurator,
    );
    expect(site.error?.message).toBe("A chosen site is not (or no longer) in this account. Untick it.");
    const outside = await mutate(
      "rules.add",
      { accountId: fleet, name: "Gate at depot", conditions: { siteIds: ["site_depot"], locationIds: ["loc_gate"] } },
      configurator,
    );
    expect(codeOf(outside)).toBe("BAD_REQUEST");
    const fine = await mutate<ShownRule>(
      "rules.add",
      { accountId: fleet, name: "Pier gate", conditions: { siteIds: ["site_pier"], locationIds: ["loc_gate"] } },
      configurator,
    );
    expect(codeOf(fine)).toBe("OK");
    // The log names the places, not their ids.
    const logged = JSON.parse((await activity(data(fine).id))[0]?.diff ?? "{}");
    expect(logged.conditions.after).toEqual({ siteIds: ["Pier"], locationIds: ["Gate"] });
    const again = await mutate("rules.add", { accountId: fleet, name: "pier GATE" }, configurator);
    expect(again.error?.message).toBe("Another rule of this account already has this name.");
    expect((await priorities(fleet)).map((r) => r.priority)).toEqual([1, 2, 3]);
  });

  it("moves a rule by one place and refuses a move made on a stale order, logging only the real one", async () => {
    const listed = data(await query<{ items: ShownRule[]; setVersion: number }>("rules.list", { accountId: fleet }, viewer));
    const last = listed.items.at(-1);
    const moved = data(
      await mutate<{ setVersion: number }>(
        "rules.reorder",
        { accountId: fleet, version: listed.setVersion, move: { id: last?.id, direction: "up" } },
        configurator,
      ),
    );
    expect(moved.setVersion).toBe(listed.setVersion + 1);
    expect((await priorities(fleet)).map((r) => `${r.priority}:${r.name}`)).toEqual([
      "1:Everyone",
      "2:Pier gate",
      "3:Night shift",
    ]);
    const stale = await mutate(
      "rules.reorder",
      { accountId: fleet, version: listed.setVersion, move: { id: last?.id, direction: "up" } },
      configurator,
    );
    expect(codeOf(stale)).toBe("CONFLICT");
    expect((await priorities(fleet)).map((r) => r.name)).toEqual(["Everyone", "Pier gate", "Night shift"]);
    expect((await activity(fleet)).filter((e) => e.entity_type === "rule-order")).toHaveLength(1);
    const top = await mutate(
      "rules.reorder",
      { accountId: fleet, version: moved.setVersion, move: { id: listed.items[0]?.id, direction: "up" } },
      configurator,
    );
    expect(top.error?.message).toBe("This rule is already first.");
  });

  it("takes a whole new order, only if it names every rule once; two reorders on one version: one wins", async () => {
    const { items, setVersion } = data(
      await query<{ items: ShownRule[]; setVersion: number }>("rules.list", { accountId: fleet }, viewer),
    );
    const ids = items.map((rule) => rule.id);
    expect(
      codeOf(await mutate("rules.reorder", { accountId: fleet, version: setVersion, order: ids.slice(1) }, configurator)),
    ).toBe("BAD_REQUEST");
    expect(
      codeOf(
        await mutate("rules.reorder", { accountId: fleet, version: setVersion, order: [ids[0], ids[0], ids[1]] }, configurator),
      ),
    ).toBe("BAD_REQUEST");
    const reversed = [...ids].reverse();
    const answers = await Promise.all([
      mutate("rules.reorder", { accountId: fleet, version: setVersion, order: reversed }, configurator),
      mutate("rules.reorder", { accountId: fleet, version: setVersion, move: { id: ids[0], direction: "down" } }, owner),
    ]);
    expect(answers.map(codeOf).sort()).toEqual(["CONFLICT", "OK"]);
    const now = await priorities(fleet);
    expect(now.map((r) => r.priority)).toEqual([1, 2, 3]);
    expect(
      codeOf(await mutate("rules.reorder", { accountId: fleet, version: setVersion + 1, order: reversed }, configurator)),
    ).not.toBe("BAD_REQUEST");
  });

  it("deletes a rule at its version and closes the gap; a stale delete is CONFLICT", async () => {
    const extra = await addRule("Temporary", [], fleet);
    const middle = (await priorities(fleet))[1];
    const { items } = data(await query<{ items: ShownRule[] }>("rules.list", { accountId: fleet }, viewer));
    const target = items.find((rule) => rule.name === middle?.name);
    expect(codeOf(await mutate("rules.delete", { id: target?.id, version: (target?.version ?? 1) + 5 }, configurator))).toBe(
      "CONFLICT",
    );
    expect(codeOf(await mutate("rules.delete", { id: target?.id, version: target?.version }, configurator))).toBe("OK");
    const after = await priorities(fleet);
    expect(after.map((r) => r.priority)).toEqual([1, 2, 3]);
    expect(after.map((r) => r.name)).toContain(extra.name);
    expect(after.map((r) => r.name)).not.toContain(middle?.name);
    expect((await activity(target?.id ?? "")).map((e) => e.action)).toEqual(["create", "delete"]);
  });

  it("updates a rule at its version; a stale update changes neither the rule nor its profiles", async () => {
    const rule = await addRule("Editable", [deviceProfile.id], fleet);
    const saved = data(
      await mutate<ShownRule>(
        "rules.update",
        { id: rule.id, version: 1, name: "Edited", enabled: false, profileIds: [channelsProfile.id, deviceProfile.id] },
        configurator,
      ),
    );
    expect(saved.profiles.map((p) => p.id)).toEqual([channelsProfile.id, deviceProfile.id]);
    const stale = await mutate("rules.update", { id: rule.id, version: 1, name: "Stale", profileIds: [] }, configurator);
    expect(codeOf(stale)).toBe("CONFLICT");
    const now = data(await query<ShownRule & { enabled: boolean }>("rules.details", { id: rule.id }, viewer));
    expect(now).toMatchObject({ name: "Edited", enabled: false, version: 2 });
    expect(now.profiles.map((p) => p.id)).toEqual([channelsProfile.id, deviceProfile.id]);
    expect((await activity(rule.id)).map((e) => e.action)).toEqual(["create", "update"]);
  });

  it("answers technicians and viewers FORBIDDEN for rule changes, and other tenants NOT_FOUND", async () => {
    const { items, setVersion } = data(
      await query<{ items: ShownRule[]; setVersion: number }>("rules.list", { accountId: fleet }, technician),
    );
    const rule = items[0];
    for (const cookie of [technician, viewer]) {
      expect(codeOf(await mutate("rules.add", { accountId: fleet, name: "Nope" }, cookie))).toBe("FORBIDDEN");
      expect(
        codeOf(
          await mutate(
            "rules.reorder",
            { accountId: fleet, version: setVersion, move: { id: rule?.id, direction: "down" } },
            cookie,
          ),
        ),
      ).toBe("FORBIDDEN");
    }
    expect(codeOf(await query("rules.list", { accountId: fleet }, outsider))).toBe("NOT_FOUND");
    expect(codeOf(await query("rules.details", { id: rule?.id }, outsider))).toBe("NOT_FOUND");
    expect(
      codeOf(
        await mutate(
          "rules.reorder",
          { accountId: fleet, version: setVersion, move: { id: rule?.id, direction: "down" } },
          outsider,
        ),
      ),
    ).toBe("NOT_FOUND");
    expect(codeOf(await mutate("rules.delete", { id: rule?.id, version: rule?.version }, outsider))).toBe("NOT_FOUND");
    expect(data(await query<ShownRule>("rules.details", { id: rule?.id }, viewer)).version).toBe(rule?.version);
  });
});

describe("deleting a profile that rules use", () => {
  let fleet: string;
  let used: Shown;
  let ruleA: ShownRule;
  let ruleB: ShownRule;

  beforeAll(async () => {
    fleet = await createAccount(dealer, "Deletion fleet");
    used = await addProfile("Shared radios", "device", device, fleet);
    const other = await addProfile("Other channels", "channels", channels, fleet);
    ruleA = await addRule("Alpha", [other.id, used.id], fleet);
    ruleB = await addRule("Bravo", [used.id], fleet);
  });

  it("lists the rules that use it", async () => {
    const usage = data(await query<{ name: string }[]>("profiles.usage", { id: used.id }, viewer));
    expect(usage.map((rule) => rule.name)).toEqual(["Alpha", "Bravo"]);
  });

  it("does nothing unless the caller names exactly the rules that use it", async () => {
    for (const detachFromRules of [[], [ruleA.id], [ruleA.id, ruleB.id, "rule_other"]]) {
      const answer = await mutate("profiles.delete", { id: used.id, version: used.version, detachFromRules }, configurator);
      expect(codeOf(answer)).toBe("CONFLICT");
      expect(answer.error?.message).toBe("The rules using this profile changed meanwhile. Review them and confirm again.");
    }
    expect(
      codeOf(
        await mutate(
          "profiles.delete",
          { id: used.id, version: used.version + 1, detachFromRules: [ruleA.id, ruleB.id] },
          configurator,
        ),
      ),
    ).toBe("CONFLICT");
    expect(codeOf(await query("profiles.details", { id: used.id }, viewer))).toBe("OK");
    expect(await activity(ruleA.id)).toHaveLength(1);
    expect(await activity(used.id)).toHaveLength(1);
  });

  it("deletes it and takes it out of those rules in one batch, with an entry for each rule and for the profile", async () => {
    const answer = data(
      await mutate<{ detachedFrom: { name: string }[] }>(
        "profiles.delete",
        { id: used.id, version: used.version, detachFromRules: [ruleB.id, ruleA.id] },
        configurator,
      ),
    );
    expect(answer.detachedFrom.map((rule) => rule.name)).toEqual(["Alpha", "Bravo"]);
    expect(codeOf(await query("profiles.details", { id: used.id }, viewer))).toBe("NOT_FOUND");
    const left = await env.DB.prepare("SELECT count(*) AS n FROM rule_profiles WHERE profile_id = ?")
      .bind(used.id)
      .first<{ n: number }>();
    expect(left?.n).toBe(0);
    const alpha = data(await query<ShownRule>("rules.details", { id: ruleA.id }, viewer));
    expect(alpha.profiles.map((p) => p.name)).toEqual(["Other channels"]);
    expect(alpha.version).toBe(ruleA.version + 1);
    expect(data(await query<ShownRule>("rules.details", { id: ruleB.id }, viewer)).profiles).toEqual([]);
    const alphaLog = await activity(ruleA.id);
    expect(alphaLog.map((e) => e.action)).toEqual(["create", "update"]);
    expect(JSON.parse(alphaLog[1]?.diff ?? "{}")).toEqual({
      profiles: { before: ["Other channels", "Shared radios"], after: ["Other channels"] },
    });
    expect((await activity(used.id)).map((e) => `${e.action}:${e.deployable}`)).toEqual(["create:1", "delete:1"]);
  });

  it("deleting the account takes its profiles and rules with it", async () => {
    const doomed = await createAccount(dealer, "Doomed fleet");
    const profile = await addProfile("Doomed radios", "device", device, doomed);
    await addRule("Doomed rule", [profile.id], doomed);
    expect(codeOf(await mutate("accounts.delete", { id: doomed, version: 1, confirmName: "Doomed fleet" }, owner))).toBe("OK");
    const rows = await env.DB.prepare(
      "SELECT (SELECT count(*) FROM profiles WHERE account_id = ?1) + (SELECT count(*) FROM rules WHERE account_id = ?1) AS n",
    )
      .bind(doomed)
      .first<{ n: number }>();
    expect(rows?.n).toBe(0);
  });
});

describe("screens", () => {
  let fleet: string;

  beforeAll(async () => {
    fleet = await createAccount(dealer, "Screens fleet");
  });

  it("protects the rule and profile screens by permission", async () => {
    const page = await request(`/accounts/${fleet}/rules/add`, { headers: { Cookie: technician } });
    expect(page.status).toBe(403);
    expect(await page.text()).toContain("This route is protected.");
    expect((await request(`/accounts/${fleet}/profiles`, { headers: { Cookie: viewer } })).status).toBe(403);
    expect((await request("/devices/profiles/channels", { headers: { Cookie: viewer } })).status).toBe(403);
    expect((await request("/devices/profiles/channels", { headers: { Cookie: technician } })).status).toBe(200);
    expect((await request(`/accounts/${outsiderAccount}/rules`, { headers: { Cookie: owner } })).status).toBe(404);
  });

  it("sends /devices/profiles to the device settings templates", async () => {
    const response = await request("/devices/profiles", { headers: { Cookie: technician }, redirect: "manual" });
    expect(response.status).toBe(302);
    expect(response.headers.get("location")).toBe("/devices/profiles/device");
    expect((await request("/devices/profiles/radios", { headers: { Cookie: technician } })).status).toBe(404);
  });

  it("adds a channels profile without JavaScript: another row on request, errors with what was typed, then saved", async () => {
    const path = `/accounts/${fleet}/profiles/add?type=channels`;
    const row = {
      "channels.0.name": "Dock",
      "channels.0.rxMhz": "462.5625",
      "channels.0.txMhz": "467.5625",
      "channels.0.bandwidth": "12.5",
      "channels.0.tone": "67.0",
      "channels.0.power": "high",
      "channels.0.scan": "on",
    };
    const more = await postForm(
      path,
      { type: "channels", name: "Dock plan", band: "uhf", ...row, intent: "addRow" },
      { Cookie: configurator },
    );
    expect(more.status).toBe(200);
    const moreHtml = await more.text();
    expect(moreHtml).toContain("Channel 2");
    expect(moreHtml).toContain('value="Dock plan"');
    const bad = await postForm(path, { type: "channels", name: "Dock plan", band: "vhf", ...row }, { Cookie: configurator });
    expect(bad.status).toBe(400);
    const badHtml = await bad.text();
    expect(badHtml).toContain("Enter a frequency in MHz within the profile&#x27;s band");
    expect(badHtml).toContain('value="467.5625"');
    const saved = await postForm(
      path,
      { type: "channels", name: "Dock plan", band: "uhf", ...row, "channels.1.name": "", "channels.1.rxMhz": "" },
      { Cookie: configurator },
    );
    expect(saved.status).toBe(303);
    expect(saved.headers.get("location")).toBe(`/accounts/${fleet}/profiles?type=channels`);
    const list = await (await request(`/accounts/${fleet}/profiles?type=channels`, { headers: { Cookie: configurator } })).text();
    expect(list).toContain("Dock plan");
  });

  it("moves rules with the no-JavaScript buttons, and refuses a stale move with the current order", async () => {
    await addRule("First", [], fleet);
    const second = await addRule("Second", [], fleet);
    const { setVersion } = data(await query<{ setVersion: number }>("rules.list", { accountId: fleet }, viewer));
    const move = (version: number) =>
      postForm(
        `/accounts/${fleet}/rules`,
        { intent: "move", ruleId: second.id, direction: "up", version: String(version), page: "1" },
        { Cookie: configurator },
      );
    const moved = await move(setVersion);
    expect(moved.status).toBe(303);
    expect((await priorities(fleet)).map((r) => r.name)).toEqual(["Second", "First"]);
    const stale = await move(setVersion);
    expect(stale.status).toBe(303);
    expect((await priorities(fleet)).map((r) => r.name)).toEqual(["Second", "First"]);
    const page = await request(`/accounts/${fleet}/rules`, {
      headers: { Cookie: `${configurator}; ${stale.headers.get("set-cookie")?.split(";")[0]}` },
    });
    expect(await page.text()).toContain("Someone else changed the order of the rules meanwhile.");
  });

  it("starts an account profile from an organization template, as a copy", async () => {
    const template = data(
      await mutate<Shown>(
        "profiles.addTemplate",
        { orgId: dealer, name: "Port template", type: "channels", settings: { band: "uhf", channels: [channel("Port ops")] } },
        configurator,
      ),
    );
    const list = await (await request("/devices/profiles/channels", { headers: { Cookie: configurator } })).text();
    expect(list).toContain("Port template");
    const html = await (
      await request(`/accounts/${fleet}/profiles/add?type=channels&template=${template.id}`, {
        headers: { Cookie: configurator },
      })
    ).text();
    expect(html).toContain(`<option value="${template.id}" selected="">Port template</option>`);
    expect(html).toContain('value="Port ops"');
    // Another type's form does not offer it, and an unknown template starts from the defaults.
    const device = await (
      await request(`/accounts/${fleet}/profiles/add?type=device&template=${template.id}`, { headers: { Cookie: configurator } })
    ).text();
    expect(device).not.toContain("Port template");
  });

  it("says on the delete page which rules use the profile and what deleting does", async () => {
    const profile = await addProfile("Shown radios", "device", device, fleet);
    await addRule("Uses it", [profile.id], fleet);
    const html = await (
      await request(`/accounts/${fleet}/profiles/delete/${profile.id}`, { headers: { Cookie: configurator } })
    ).text();
    expect(html).toContain("1 rule assigns this profile:");
    expect(html).toContain("Uses it");
    expect(html).toContain("Deleting the profile also removes it from this rule.");
    expect(html).toContain("Afterwards these rules assign no profile at all: Uses it.");
    expect(html).toContain("Delete and remove from 1 rule");
  });
});
