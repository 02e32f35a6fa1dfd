import { env } from "cloudflare:test";
import { TRPCError } from "@trpc/server";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/router";
import { sha256Hex } from "@/server/auth/crypto";
import { permissionsOf, type Role } from "@/server/auth/roles";
import type { SessionUser } from "@/server/auth/sessions";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization } from "./fixtures";
import { ORIGIN } from "./helpers";

// The device inventory's procedures: registering (secret shown once, stored hashed), tenancy
// (another tenant's uid is NOT_FOUND; a uid taken elsewhere is refused in the same words),
// seats (never over-used, even under many concurrent assignments), bulk actions, the CSV import
// (dry run, all or nothing) and the activity entries.

let org: string;
let otherOrg: string;
let account: string;
let account2: string;
let otherAccount: string;
let site: string;
let location: string;

function caller(role: Role, orgId = org, language: "en" | "es-MX" = "en") {
  const user: SessionUser = {
    id: `usr_${role}`,
    sessionId: "ses_devices",
    email: `${role}@devices.test`,
    name: role,
    orgId,
    role,
    language,
    permissions: permissionsOf(role),
  };
  return createCaller({
    env,
    db: env.DB,
    user,
    language,
    origin: ORIGIN,
    t: translatorFor(language, defaultSettings.brandNamespace),
  });
}

async function refusal(promise: Promise<unknown>): Promise<{ code: string; message: string }> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof TRPCError) return { code: error.code, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
}

async function allocate(accountId: string, seats: number) {
  const sub = `sub_${crypto.randomUUID().slice(0, 8)}`;
  const orgId = (await env.DB.prepare("SELECT org_id FROM accounts WHERE id = ?").bind(accountId).first<{ org_id: string }>())
    ?.org_id;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES (?, ?, 'Plan', 1000, '2026-01-01')",
    ).bind(sub, orgId),
    env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES (?, ?, ?, ?)").bind(
      `alc_${crypto.randomUUID().slice(0, 8)}`,
      sub,
      accountId,
      seats,
    ),
  ]);
}

const radio = (uid: string, more: Record<string, unknown> = {}) => ({ uid, brand: "Northwind", model: "XR-7", ...more });

beforeAll(async () => {
  org = await createOrganization("Devices dealer");
  otherOrg = await createOrganization("Devices outsider");
  account = await createAccount(org, "Fleet A");
  account2 = await createAccount(org, "Fleet B");
  otherAccount = await createAccount(otherOrg, "Outsider fleet");
  await allocate(account, 3);
  await allocate(account2, 50);
  await allocate(otherAccount, 5);
  site = `site_${crypto.randomUUID().slice(0, 8)}`;
  location = `loc_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Depot')").bind(site, account2),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Garage')").bind(
      location,
      account2,
      site,
    ),
  ]);
});

describe("registering a radio", () => {
  it("shows the secret once and stores only its SHA-256", async () => {
    const { device, secret } = await caller("technician").devices.add(
      radio("REG-0001", { name: "Bus 1", tags: ["Bus", "bus", "Night"] }),
    );
    expect(secret).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(device.tags).toEqual(["Bus", "Night"]);
    const row = await env.DB.prepare("SELECT secret_hash FROM devices WHERE uid = 'REG-0001'").first<{ secret_hash: string }>();
    expect(row?.secret_hash).toBe(await sha256Hex(secret));
    const details = await caller("viewer")
      .devices.details({ uid: "REG-0001" })
      .catch((e) => e);
    // Unassigned radios are the organization's inventory: a viewer (no manage-devices) may not open them.
    expect((details as TRPCError).code).toBe("FORBIDDEN");
    const tags = await env.DB.prepare("SELECT tag FROM device_tags WHERE uid = 'REG-0001' ORDER BY tag").all<{ tag: string }>();
    expect(tags.results.map((r) => r.tag)).toEqual(["bus", "night"]);
  });

  it("refuses bad uids, other brands and a viewer", async () => {
    expect((await refusal(caller("technician").devices.add(radio("bad uid!")))).code).toBe("BAD_REQUEST");
    expect((await refusal(caller("technician").devices.add(radio("X".repeat(65))))).code).toBe("BAD_REQUEST");
    expect((await refusal(caller("technician").devices.add(radio("BRAND-1", { brand: "Acme" })))).code).toBe("BAD_REQUEST");
    expect((await refusal(caller("viewer").devices.add(radio("VIEW-1")))).code).toBe("FORBIDDEN");
  });

  it("answers a uid taken by another tenant exactly like one taken here", async () => {
    await caller("owner", otherOrg).devices.add(radio("TAKEN-ELSEWHERE"));
    await caller("owner").devices.add(radio("TAKEN-HERE"));
    const elsewhere = await refusal(caller("owner").devices.add(radio("TAKEN-ELSEWHERE")));
    const here = await refusal(caller("owner").devices.add(radio("TAKEN-HERE")));
    expect(elsewhere).toEqual(here);
    expect(elsewhere.code).toBe("CONFLICT");
  });

  it("another tenant's uid is NOT_FOUND for every read and write", async () => {
    await caller("owner", otherOrg).devices.add(radio("OUT-0001", { accountId: otherAccount }));
    const me = caller("owner");
    const answers = await Promise.all([
      refusal(me.devices.details({ uid: "OUT-0001" })),
      refusal(me.devices.effectiveConfiguration({ uid: "OUT-0001" })),
      refusal(me.devices.update({ uid: "OUT-0001", version: 1, name: "x", model: "XR-7", tags: [], notes: "" })),
      refusal(me.devices.assign({ uid: "OUT-0001", version: 1, accountId: null })),
      refusal(me.devices.retire({ uid: "OUT-0001", version: 1 })),
      refusal(me.devices.rotateSecret({ uid: "OUT-0001", version: 1 })),
      refusal(me.devices.details({ uid: "NO-SUCH-UID" })),
    ]);
    expect(answers.map((a) => a.code)).toEqual(Array(7).fill("NOT_FOUND"));
    // Not found and another tenant's answer the same words.
    expect(new Set(answers.map((a) => a.message)).size).toBe(1);
    // Nor can a radio be assigned to another tenant's account.
    await me.devices.add(radio("MINE-0001"));
    expect((await refusal(me.devices.assign({ uid: "MINE-0001", version: 1, accountId: otherAccount }))).code).toBe("NOT_FOUND");
  });
});

describe("seats", () => {
  it("never over-uses seats under many concurrent assignments, and says how many are free", async () => {
    const me = caller("owner");
    const uids = Array.from({ length: 12 }, (_, i) => `SEAT-${String(i).padStart(3, "0")}`);
    for (const uid of uids) await me.devices.add(radio(uid));
    const results = await Promise.allSettled(uids.map((uid) => me.devices.assign({ uid, version: 1, accountId: account })));
    const fulfilled = results.filter((r) => r.status === "fulfilled");
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === "rejected");
    expect(fulfilled).toHaveLength(3);
    expect(refused.map((r) => (r.reason as TRPCError).code)).toEqual(Array(9).fill("PRECONDITION_FAILED"));
    expect((refused[0]?.reason as TRPCError | undefined)?.message).toMatch(/no free seats|0/i);
    const row = await env.DB.prepare("SELECT devices_in_use FROM accounts WHERE id = ?")
      .bind(account)
      .first<{ devices_in_use: number }>();
    expect(row?.devices_in_use).toBe(3);
    expect(await me.devices.seats({ accountId: account })).toEqual({ allocated: 3, inUse: 3, free: 0 });
  });

  it("bulk assignment past the free seats is refused whole, naming how many are free", async () => {
    const me = caller("owner");
    const uids = ["BULK-1", "BULK-2", "BULK-3", "BULK-4"];
    for (const uid of uids) await me.devices.add(radio(uid, { tags: ["bulk"] }));
    const small = await createAccount(org, "Small fleet");
    await allocate(small, 2);
    const refused = await refusal(me.devices.bulkAssign({ selection: { uids }, target: { accountId: small } }));
    expect(refused.code).toBe("PRECONDITION_FAILED");
    expect(refused.message).toContain("2");
    expect((await me.devices.seats({ accountId: small })).inUse).toBe(0);
    // Two fit: assigned in one go, with an activity entry each.
    const done = await me.devices.bulkAssign({ selection: { uids: uids.slice(0, 2) }, target: { accountId: small } });
    expect(done.changed).toBe(2);
    const logs = await env.DB.prepare(
      "SELECT entity_id, diff, created_at FROM activity_logs WHERE entity_type = 'device' AND entity_id IN ('BULK-1','BULK-2') AND account_id = ?",
    )
      .bind(small)
      .all();
    expect(logs.results).toHaveLength(2);
  });

  it("retiring frees the seat; an allocation cannot shrink below the seats in use", async () => {
    const me = caller("owner");
    const fleet = await createAccount(org, "Retire fleet");
    await allocate(fleet, 1);
    await me.devices.add(radio("RET-0001", { accountId: fleet }));
    expect((await refusal(me.devices.add(radio("RET-0002", { accountId: fleet })))).code).toBe("PRECONDITION_FAILED");
    await me.devices.retire({ uid: "RET-0001", version: 1 });
    expect((await me.devices.seats({ accountId: fleet })).free).toBe(1);
    await me.devices.add(radio("RET-0002", { accountId: fleet }));
    const shrink = env.DB.prepare("DELETE FROM allocations WHERE account_id = ?").bind(fleet).run();
    await expect(shrink).rejects.toThrow(/seats in use/);
  });

  it("deleting an account gives its radios back to the inventory", async () => {
    const me = caller("owner");
    const doomed = await createAccount(org, "Doomed fleet");
    await allocate(doomed, 2);
    await me.devices.add(radio("DOOM-0001", { accountId: doomed }));
    await me.accounts.delete({ id: doomed, version: 1, confirmName: "Doomed fleet" });
    const row = await env.DB.prepare("SELECT account_id FROM devices WHERE uid = 'DOOM-0001'").first<{
      account_id: string | null;
    }>();
    expect(row?.account_id).toBeNull();
  });
});

describe("assignment, edits and their log", () => {
  it("assigns to a site and location of the account, logs it as a change to deploy, refuses stale edits", async () => {
    const me = caller("configurator");
    await me.devices.add(radio("MOVE-0001"));
    const moved = await me.devices.assign({
      uid: "MOVE-0001",
      version: 1,
      accountId: account2,
      siteId: site,
      locationId: location,
    });
    expect([moved.accountName, moved.siteName, moved.locationName]).toEqual(["Fleet B", "Depot", "Garage"]);
    expect((await refusal(me.devices.assign({ uid: "MOVE-0001", version: 1, accountId: null }))).code).toBe("CONFLICT");
    // A location of another site (or a site of another account) is refused.
    expect((await refusal(me.devices.assign({ uid: "MOVE-0001", version: 2, accountId: account, siteId: site }))).code).toBe(
      "BAD_REQUEST",
    );
    const edited = await me.devices.update({
      uid: "MOVE-0001",
      version: 2,
      name: "Dock radio",
      model: "XR-9",
      tags: ["dock"],
      notes: "",
    });
    expect(edited.version).toBe(3);
    const log = await env.DB.prepare(
      "SELECT deployable, diff FROM activity_logs WHERE entity_type = 'device' AND entity_id = 'MOVE-0001' ORDER BY created_at",
    ).all<{ deployable: number; diff: string }>();
    expect(log.results.map((r) => r.deployable)).toEqual([0, 1, 1]);
    expect(JSON.parse(log.results[2]?.diff ?? "{}")).toMatchObject({ model: { before: "XR-7", after: "XR-9" } });
    const { activity } = await caller("viewer").devices.details({ uid: "MOVE-0001" });
    expect(activity).toHaveLength(3);
  });

  it("deleting a site or location logs each radio it unplaces, in the same batch; a stale deletion logs nothing", async () => {
    const me = caller("owner");
    const yard = `site_${crypto.randomUUID().slice(0, 8)}`;
    const shed = `loc_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.batch([
      env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Yard')").bind(yard, account2),
      env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Shed')").bind(shed, account2, yard),
    ]);
    for (const uid of ["UNP-1", "UNP-2", "UNP-3"])
      await me.devices.add(radio(uid, { accountId: account2, siteId: yard, locationId: uid === "UNP-3" ? null : shed }));
    const entries = async (uid: string) =>
      (
        await env.DB.prepare(
          "SELECT diff, deployable FROM activity_logs WHERE entity_type = 'device' AND entity_id = ? AND diff LIKE '%before%' ORDER BY created_at",
        )
          .bind(uid)
          .all<{ diff: string; deployable: number }>()
      ).results.filter((r) => /"(site|location)":\{"before":"(Yard|Shed)"/.test(r.diff));

    expect((await refusal(me.locations.delete({ accountId: account2, id: shed, version: 9 }))).code).toBe("CONFLICT");
    expect(await entries("UNP-1")).toEqual([]);
    await me.locations.delete({ accountId: account2, id: shed, version: 1 });
    expect((await entries("UNP-1")).map((e) => JSON.parse(e.diff))).toEqual([{ location: { before: "Shed", after: null } }]);
    expect(await entries("UNP-3")).toEqual([]);

    await me.sites.delete({ accountId: account2, id: yard, version: 1 });
    for (const uid of ["UNP-1", "UNP-2", "UNP-3"]) {
      const logged = await entries(uid);
      expect(logged.at(-1)?.diff, uid).toBe(JSON.stringify({ site: { before: "Yard", after: null } }));
      // The site's own deletion entry is the change to deploy; the radios' entries do not add to the count.
      expect(logged.at(-1)?.deployable).toBe(0);
      expect((await me.devices.details({ uid })).device.siteId).toBeNull();
    }
  });

  it("a viewer reads but changes nothing", async () => {
    const viewer = caller("viewer");
    expect((await refusal(viewer.devices.assign({ uid: "MOVE-0001", version: 3, accountId: null }))).code).toBe("FORBIDDEN");
    expect((await refusal(viewer.devices.retire({ uid: "MOVE-0001", version: 3 }))).code).toBe("FORBIDDEN");
    expect((await refusal(viewer.devices.list({}))).code).toBe("FORBIDDEN");
    const registry = await viewer.devices.list({ accountId: account2 });
    expect(registry.items.map((d) => d.uid)).toContain("MOVE-0001");
  });

  it("rotating the secret replaces the hash; the old one no longer matches", async () => {
    const me = caller("technician");
    const { secret } = await me.devices.add(radio("ROT-0001"));
    const { secret: fresh } = await me.devices.rotateSecret({ uid: "ROT-0001", version: 1 });
    const row = await env.DB.prepare("SELECT secret_hash FROM devices WHERE uid = 'ROT-0001'").first<{ secret_hash: string }>();
    expect(row?.secret_hash).toBe(await sha256Hex(fresh));
    expect(row?.secret_hash).not.toBe(await sha256Hex(secret));
  });
});

describe("lists", () => {
  it("pages by keyset without repeats or gaps, searches by any part, filters", async () => {
    const me = caller("owner");
    const fleet = await createAccount(org, "List fleet");
    await allocate(fleet, 100);
    for (let i = 0; i < 30; i++) {
      await me.devices.add(
        radio(`LST-${String(i).padStart(3, "0")}`, {
          name: `Truck ${i}`,
          accountId: i % 2 ? fleet : null,
          tags: i % 3 ? [] : ["Cold"],
        }),
      );
    }
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await me.devices.list({ filter: { search: "LST-" }, limit: 7, ...(cursor ? { cursor } : {}) });
      seen.push(...page.items.map((d) => d.uid));
      cursor = page.next ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(30);
    expect(new Set(seen).size).toBe(30);
    expect([...seen].sort()).toEqual(seen);

    const byName = await me.devices.list({ filter: { search: "Truck 1" }, sort: "-name", limit: 50 });
    expect(byName.items.map((d) => d.name)).toEqual([
      "Truck 19",
      "Truck 18",
      "Truck 17",
      "Truck 16",
      "Truck 15",
      "Truck 14",
      "Truck 13",
      "Truck 12",
      "Truck 11",
      "Truck 10",
      "Truck 1",
    ]);
    const cold = await me.devices.list({ filter: { search: "cold" }, limit: 50 });
    expect(cold.items).toHaveLength(10);
    // A uid is found by the prefix of any of its parts: letters, digits, digits without leading zeros.
    await me.devices.add(radio("ACME-R7-0004217", { name: "Parts" }));
    for (const typed of ["acme-r7", "R7-000", "0004217", "421", "ACME-R7-0004217"]) {
      const found = await me.devices.list({ filter: { search: typed }, limit: 50 });
      expect(
        found.items.map((d) => d.uid),
        typed,
      ).toEqual(["ACME-R7-0004217"]);
    }
    expect((await me.devices.list({ filter: { search: '"*) OR ^-' }, limit: 50 })).items).toEqual([]);
    expect((await me.devices.list({ filter: { search: "---" }, limit: 50 })).items).toEqual([]);
    const registry = await me.devices.list({ accountId: fleet, limit: 50 });
    expect(registry.items).toHaveLength(15);
    const never = await me.devices.list({ filter: { search: "LST", seen: "never", assignment: "unassigned" }, limit: 50 });
    expect(never.items).toHaveLength(15);
    expect((await refusal(me.devices.list({ cursor: "not-a-cursor" }))).code).toBe("BAD_REQUEST");
  });

  it("counts an account's radios for its home", async () => {
    const me = caller("owner");
    const fleet = await createAccount(org, "Count fleet");
    await allocate(fleet, 10);
    for (const uid of ["CNT-1", "CNT-2", "CNT-3"]) await me.devices.add(radio(uid, { accountId: fleet }));
    await env.DB.prepare("UPDATE devices SET last_seen_at = ? WHERE uid = 'CNT-1'").bind(new Date().toISOString()).run();
    expect(await caller("viewer").devices.getConfiguredDeviceCounts({ accountId: fleet })).toMatchObject({
      total: 3,
      // Nothing deployed yet: none in sync, none pending; the radios are "never deployed".
      upToDate: 0,
      pending: 0,
      neverSeen: 2,
    });
  });
});

describe("CSV import", () => {
  it("dry run lists every problem by row and column, writes nothing; then imports all", async () => {
    const me = caller("owner");
    await me.devices.add(radio("CSV-EXISTS"));
    const csv = [
      "uid,brand,model,name,tags,account,site,location",
      "CSV-0001,Northwind,XR-7,One,a;b,,,",
      "bad uid,Northwind,XR-7,Two,,,,",
      "CSV-0003,Northwind,,Three,,,,",
      "CSV-0001,Northwind,XR-7,Again,,,,",
      "CSV-0005,Northwind,XR-7,Five,,No such fleet,,",
      "CSV-EXISTS,Northwind,XR-7,Exists,,,,",
      "TAKEN-ELSEWHERE,Northwind,XR-7,Outsider,,,,",
    ].join("\n");
    const dry = await me.devices.importCsv({ csv, dryRun: true });
    expect(dry.ok).toBe(false);
    // Rows are the file's lines: the header is line 1.
    expect(dry.problems.map((p) => [p.row, p.column])).toEqual([
      [3, "uid"],
      [4, "model"],
      [5, "uid"],
      [6, "account"],
      [7, "uid"],
      [8, "uid"],
    ]);
    // The other tenant's uid and our own existing one read the same.
    expect(dry.problems[4]?.message).toBe(dry.problems[5]?.message);
    const count = await env.DB.prepare("SELECT count(*) AS n FROM devices WHERE uid = 'CSV-0001'").first<{ n: number }>();
    expect(count?.n).toBe(0);
    // A real import with problems writes nothing either.
    expect((await me.devices.importCsv({ csv, dryRun: false })).imported).toBe(false);

    const good = [
      "uid,model,name,tags,account,site,location",
      "CSV-0101,XR-7,One,a;b,Fleet B,Depot,Garage",
      "CSV-0102,XR-9,Two,,,,",
      "CSV-EXISTS,XR-9,Renamed,,,,",
    ].join("\n");
    const refusedExisting = await me.devices.importCsv({ csv: good, dryRun: false });
    expect(refusedExisting.imported).toBe(false);
    const done = await me.devices.importCsv({ csv: good, dryRun: false, updateExisting: true });
    expect(done).toMatchObject({ ok: true, imported: true, creates: 2, updates: 1 });
    expect(done.secrets.map((s) => s.uid).sort()).toEqual(["CSV-0101", "CSV-0102"]);
    const placed = await me.devices.details({ uid: "CSV-0101" });
    expect([placed.device.siteName, placed.device.locationName, placed.device.tags]).toEqual(["Depot", "Garage", ["a", "b"]]);
    expect((await me.devices.details({ uid: "CSV-EXISTS" })).device.name).toBe("Renamed");
  });

  it("refuses rows past an account's free seats in the dry run", async () => {
    const me = caller("owner");
    const fleet = await createAccount(org, "Import fleet");
    await allocate(fleet, 1);
    const csv = ["uid,model,account", `IMP-1,XR-7,${fleet}`, `IMP-2,XR-7,${fleet}`].join("\n");
    const dry = await me.devices.importCsv({ csv, dryRun: true });
    expect(dry.problems).toEqual([{ row: 3, column: "account", message: expect.stringContaining("1") }]);
  });

  it("speaks the caller's language and refuses an unreadable file", async () => {
    const dry = await caller("owner", org, "es-MX").devices.importCsv({ csv: 'uid,model\n"unterminated', dryRun: true });
    expect(dry.problems).toHaveLength(1);
    expect(dry.problems[0]?.column).toBe("file");
    expect(dry.problems[0]?.message).not.toMatch(/^devices\./);
  });
});
