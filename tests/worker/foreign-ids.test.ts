import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { assignStatement, bulkAssignStatements } from "@/server/data/devices";
import { findWebhook, insertWebhook, listDeliveries } from "@/server/data/notifications";
import { RADIO_SECRET, sha256Hex } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";
import { makeTenant } from "./tenant";

// Every id inside an input is checked against the account it is used in (issue 23): another
// tenant's site, location, profile, customer, radio or account, and a location of another site
// of the same account, answer a clear 4xx on every path that takes them, and nothing is written.

type Answer = { result?: { data: unknown }; error?: { message: string; data: { code: string; httpStatus: number } } };

let home: Awaited<ReturnType<typeof makeTenant>>;
let away: Awaited<ReturnType<typeof makeTenant>>;
/** A second site of home's account and its location (a location of "another site" for home.siteId). */
let otherSiteId = "";
let otherSiteLocationId = "";
/** A radio of home's inventory (no account), for the paths that assign. */
let freeUid = "";
let awayCustomerId = "";
let owner = "";

async function call(path: string, input: unknown, cookie = owner): Promise<Answer> {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  return response.json();
}

/** What any of these paths would write: rows of every table they touch, and the radios' places. */
async function written(): Promise<string> {
  const tables = [
    "activity_logs",
    "commands",
    "fc_sessions",
    "fc_customers",
    "fc_customer_radios",
    "rules",
    "deployments",
    "radio_groups",
    "firmware_packages",
  ];
  const counts = await Promise.all(
    tables.map(async (table) => (await env.DB.prepare(`SELECT count(*) AS n FROM ${table}`).first<{ n: number }>())?.n),
  );
  const radios = await env.DB.prepare(
    "SELECT uid, account_id, site_id, location_id, version FROM devices WHERE org_id IN (?, ?) ORDER BY uid",
  )
    .bind(home.childOrgId, away.childOrgId)
    .all();
  const seats = await env.DB.prepare("SELECT sum(quantity) AS n FROM allocations").first<{ n: number }>();
  const contacts = await env.DB.prepare("SELECT uid, contact_customer_id FROM fc_device_settings ORDER BY uid").all();
  return JSON.stringify({ counts, radios: radios.results, seats: seats?.n, contacts: contacts.results });
}

/** Calls a path with a foreign id: a 4xx with a message, of the expected code, and nothing written. */
async function refusedWithoutWriting(path: string, input: unknown, code: "NOT_FOUND" | "BAD_REQUEST", message?: RegExp) {
  const before = await written();
  const answer = await call(path, input);
  expect(answer.error?.data.code, `${path} ${JSON.stringify(input)}`).toBe(code);
  expect(answer.error?.data.httpStatus).toBeLessThan(500);
  if (message) expect(answer.error?.message).toMatch(message);
  expect(await written()).toBe(before);
}

beforeAll(async () => {
  home = await makeTenant("Home");
  away = await makeTenant("Away");
  owner = home.cookies.owner;
  otherSiteId = `site_second_${crypto.randomUUID().slice(0, 8)}`;
  otherSiteLocationId = `loc_second_${crypto.randomUUID().slice(0, 8)}`;
  freeUid = `FREE-${crypto.randomUUID().slice(0, 8)}`;
  awayCustomerId = `fcc_away_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Second site')").bind(otherSiteId, home.accountId),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Second room')").bind(
      otherSiteLocationId,
      home.accountId,
      otherSiteId,
    ),
    env.DB.prepare(
      "INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash) VALUES (?, ?, NULL, 'Northwind', 'XR-7', ?)",
    ).bind(freeUid, home.childOrgId, await sha256Hex(RADIO_SECRET)),
    env.DB.prepare("INSERT INTO fc_customers (id, account_id, name) VALUES (?, ?, 'Away caller')").bind(
      awayCustomerId,
      away.accountId,
    ),
  ]);
});

/** The places a radio of home must never be given: with the field the refusal names. */
function foreignPlaces() {
  return [
    { what: "another tenant's location", siteId: home.siteId, locationId: away.locationId },
    { what: "another tenant's site", siteId: away.siteId, locationId: null },
    { what: "another tenant's site and location", siteId: away.siteId, locationId: away.locationId },
    { what: "a location of another site of the account", siteId: home.siteId, locationId: otherSiteLocationId },
  ];
}

describe("assigning radios: account, site and location are the account's", () => {
  it("devices.bulkAssign refuses every foreign place, by selection and by filter", async () => {
    for (const place of foreignPlaces()) {
      for (const selection of [{ uids: [freeUid] }, { filter: { search: freeUid } }]) {
        await refusedWithoutWriting(
          "devices.bulkAssign",
          {
            orgId: home.childOrgId,
            selection,
            target: { accountId: home.accountId, siteId: place.siteId, locationId: place.locationId },
          },
          "BAD_REQUEST",
          /not in this account/,
        );
      }
    }
    await refusedWithoutWriting(
      "devices.bulkAssign",
      { orgId: home.childOrgId, selection: { uids: [freeUid] }, target: { accountId: away.accountId } },
      "NOT_FOUND",
    );
    // The right place works (the radio takes a free seat of home's account).
    const done = await call("devices.bulkAssign", {
      orgId: home.childOrgId,
      selection: { uids: [freeUid] },
      target: { accountId: home.accountId, siteId: otherSiteId, locationId: otherSiteLocationId },
    });
    expect(done.result?.data).toEqual({ changed: 1 });
    await call("devices.bulkAssign", { orgId: home.childOrgId, selection: { uids: [freeUid] }, target: { accountId: null } });
  });

  it("the assigning statements themselves take no place that does not hold when they run", async () => {
    const actor = { id: "usr_test", email: "test@example.com" };
    for (const place of foreignPlaces()) {
      const target = { accountId: home.accountId, siteId: place.siteId, locationId: place.locationId };
      const before = await written();
      const bulk = await env.DB.batch(
        bulkAssignStatements(env.DB, { orgId: home.childOrgId, uids: [freeUid] }, target, { actor, diff: {} }),
      );
      expect(bulk.map((r) => r.meta.changes)).toEqual([0, 0]);
      const version = (
        await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(freeUid).first<{ version: number }>()
      )?.version;
      const one = await assignStatement(env.DB, { ...target, uid: freeUid, orgId: home.childOrgId, version: version ?? 0 })
        .run()
        .catch(() => null);
      // A foreign site fails the devices foreign key outright; any other place changes nothing.
      expect(one?.meta.changes ?? 0).toBe(0);
      expect(await written()).toBe(before);
    }
  });

  it("devices.assign and devices.add refuse every foreign place", async () => {
    for (const place of foreignPlaces()) {
      const version = (
        await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(freeUid).first<{ version: number }>()
      )?.version;
      await refusedWithoutWriting(
        "devices.assign",
        { uid: freeUid, version, accountId: home.accountId, siteId: place.siteId, locationId: place.locationId },
        "BAD_REQUEST",
        /not in this account/,
      );
      await refusedWithoutWriting(
        "devices.add",
        {
          orgId: home.childOrgId,
          uid: `NEW-${crypto.randomUUID().slice(0, 8)}`,
          brand: "Northwind",
          model: "XR-7",
          accountId: home.accountId,
          siteId: place.siteId,
          locationId: place.locationId,
        },
        "BAD_REQUEST",
        /not in this account/,
      );
    }
    await refusedWithoutWriting(
      "devices.add",
      { orgId: home.childOrgId, uid: "NEW-AWAY-ACCOUNT", brand: "Northwind", model: "XR-7", accountId: away.accountId },
      "NOT_FOUND",
    );
  });

  it("the CSV import reports foreign places as row problems and writes nothing", async () => {
    for (const place of foreignPlaces()) {
      const site = place.siteId === home.siteId ? "Matrix site" : place.siteId;
      const before = await written();
      const answer = await call("devices.importCsv", {
        orgId: home.childOrgId,
        csv: `uid,model,account,site,location\nCSV-${crypto.randomUUID().slice(0, 6)},XR-7,${home.accountId},${site},${place.locationId ?? ""}`,
        dryRun: false,
      });
      const data = answer.result?.data as { ok: boolean; imported: boolean; problems: { row: number; column: string }[] };
      expect(data.ok, place.what).toBe(false);
      expect(data.imported).toBe(false);
      expect(data.problems.map((p) => p.column)).toEqual([place.siteId === home.siteId ? "location" : "site"]);
      expect(await written()).toBe(before);
    }
  });
});

describe("a location that moves to another site", () => {
  it("takes its radios with it, so a radio's location is always of its site", async () => {
    const version = (await env.DB.prepare("SELECT version FROM devices WHERE uid = ?").bind(freeUid).first<{ version: number }>())
      ?.version;
    const placed = await call("devices.assign", {
      uid: freeUid,
      version,
      accountId: home.accountId,
      siteId: otherSiteId,
      locationId: otherSiteLocationId,
    });
    expect(placed.error).toBeUndefined();
    const location = await env.DB.prepare("SELECT version FROM locations WHERE id = ?")
      .bind(otherSiteLocationId)
      .first<{ version: number }>();
    const moved = await call("locations.update", {
      accountId: home.accountId,
      id: otherSiteLocationId,
      version: location?.version,
      siteId: home.siteId,
      name: "Second room",
      description: "",
    });
    expect(moved.error).toBeUndefined();
    const radio = await env.DB.prepare("SELECT site_id, location_id, attributes_changed_at FROM devices WHERE uid = ?")
      .bind(freeUid)
      .first<{ site_id: string; location_id: string; attributes_changed_at: string | null }>();
    expect(radio).toMatchObject({ site_id: home.siteId, location_id: otherSiteLocationId });
    expect(radio?.attributes_changed_at).not.toBeNull();
    // Back where the other tests expect them: the location at its site, the radio in the inventory.
    await env.DB.prepare("UPDATE locations SET site_id = ? WHERE id = ?").bind(otherSiteId, otherSiteLocationId).run();
    await call("devices.bulkAssign", { orgId: home.childOrgId, selection: { uids: [freeUid] }, target: { accountId: null } });
  });
});

describe("the account's other paths take only the account's ids", () => {
  it("rules: sites, locations and profiles of another tenant or another site", async () => {
    const rule = (conditions: Record<string, string[]>, profileIds: string[] = []) => ({
      accountId: home.accountId,
      name: "Foreign rule",
      conditions,
      profileIds,
    });
    await refusedWithoutWriting("rules.add", rule({ siteIds: [away.siteId] }), "BAD_REQUEST");
    await refusedWithoutWriting("rules.add", rule({ locationIds: [away.locationId] }), "BAD_REQUEST");
    await refusedWithoutWriting("rules.add", rule({ siteIds: [home.siteId], locationIds: [otherSiteLocationId] }), "BAD_REQUEST");
    await refusedWithoutWriting("rules.add", rule({}, [away.profileId]), "BAD_REQUEST");
    await refusedWithoutWriting(
      "rules.update",
      { id: home.ruleId, version: 1, name: "Foreign", conditions: { siteIds: [away.siteId] }, profileIds: [] },
      "BAD_REQUEST",
    );
    await refusedWithoutWriting("rules.update", { id: away.ruleId, version: 1, name: "Taken", profileIds: [] }, "NOT_FOUND");
  });

  it("profiles, commands, deployments and allocations: another tenant's ids are NOT_FOUND", async () => {
    await refusedWithoutWriting(
      "profiles.update",
      {
        id: away.profileId,
        version: 1,
        name: "Taken",
        type: "buttons",
        settings: { side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" },
      },
      "NOT_FOUND",
    );
    await refusedWithoutWriting("commands.send", { uid: away.deviceUid, type: "ping" }, "NOT_FOUND");
    await refusedWithoutWriting("commands.send", { uid: away.deviceUid, accountId: home.accountId, type: "ping" }, "NOT_FOUND");
    await refusedWithoutWriting(
      "commands.sendBulk",
      { accountId: home.accountId, selection: { uids: [away.deviceUid] }, type: "ping" },
      "BAD_REQUEST",
    );
    // Another tenant's bulk command batch, named from home's account or home's inventory.
    const awayBatch = "batch-away";
    await env.DB.prepare(
      `INSERT INTO command_batches (id, org_id, account_id, type, params, target, created_by, created_by_email, created_at, expires_at)
       VALUES (?, ?, ?, 'ping', '{}', '{"uids":1}', 'x', 'x@example.com', '2026-01-01T00:00:00Z', '2099-01-01T00:00:00Z')`,
    )
      .bind(awayBatch, away.childOrgId, away.accountId)
      .run();
    for (const scope of [{ accountId: home.accountId }, {}]) {
      await refusedWithoutWriting("commandBatches.cancel", { ...scope, batchId: awayBatch }, "NOT_FOUND");
      await refusedWithoutWriting("commandBatches.retry", { ...scope, batchId: awayBatch }, "NOT_FOUND");
    }
    await refusedWithoutWriting("deployments.create", { accountId: away.accountId, note: "x" }, "NOT_FOUND");
    await refusedWithoutWriting("deployments.act", { id: away.deploymentId, action: "pause" }, "NOT_FOUND");
    await refusedWithoutWriting("deployments.retryFailed", { id: away.deploymentId }, "NOT_FOUND");
    // Another tenant's firmware package, named from home's own account (issue 26).
    await env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, created_by)
       VALUES ('fw_away', ?, '9.0.0', '["NW-400"]', 'ready', 'packages/fw_away', 'x')`,
    )
      .bind(away.childOrgId)
      .run();
    await refusedWithoutWriting("deployments.create", { accountId: home.accountId, firmwarePackageId: "fw_away" }, "NOT_FOUND");
    // A target naming another tenant's site, location or deployment, from home's own account.
    for (const filter of [{ siteId: away.siteId }, { locationId: away.locationId }])
      await refusedWithoutWriting(
        "deployments.create",
        { accountId: home.accountId, note: "x", target: { kind: "filter", filter } },
        "BAD_REQUEST",
      );
    await refusedWithoutWriting(
      "deployments.create",
      { accountId: home.accountId, note: "x", target: { kind: "failedOf", deploymentId: away.deploymentId } },
      "BAD_REQUEST",
    );
    await refusedWithoutWriting("deployments.approve", { id: away.deploymentId }, "NOT_FOUND");
    await refusedWithoutWriting("deployments.reject", { id: away.deploymentId, note: "no" }, "NOT_FOUND");
    await refusedWithoutWriting(
      "accounts.setApproval",
      { id: away.accountId, version: 1, required: true, expiryHours: 24 },
      "NOT_FOUND",
    );
    await refusedWithoutWriting(
      "subscriptions.allocate",
      { subscriptionId: home.subscriptionId, accountId: away.accountId, quantity: 1 },
      "NOT_FOUND",
    );
    await refusedWithoutWriting(
      "subscriptions.allocate",
      { subscriptionId: away.subscriptionId, accountId: home.accountId, quantity: 1 },
      "NOT_FOUND",
    );
  });

  it("saved groups: another tenant's site or location is BAD_REQUEST on its field, another tenant's group NOT_FOUND", async () => {
    const group = (name: string, place: Record<string, string>) => ({ accountId: home.accountId, name, ...place });
    await refusedWithoutWriting("radioGroups.create", group("Away site", { siteId: away.siteId }), "BAD_REQUEST", /site/);
    await refusedWithoutWriting(
      "radioGroups.create",
      group("Away place", { locationId: away.locationId }),
      "BAD_REQUEST",
      /location/,
    );
    await refusedWithoutWriting(
      "radioGroups.create",
      group("Other site's room", { siteId: home.siteId, locationId: otherSiteLocationId }),
      "BAD_REQUEST",
      /location/,
    );
    const awayGroup = `grp_away_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO radio_groups (id, account_id, name, filter, created_at, updated_at)
       VALUES (?, ?, 'Theirs', '{}', '2026-01-01T00:00:00Z', '2026-01-01T00:00:00Z')`,
    )
      .bind(awayGroup, away.accountId)
      .run();
    await refusedWithoutWriting(
      "radioGroups.update",
      { accountId: home.accountId, groupId: awayGroup, version: 1, name: "Taken" },
      "NOT_FOUND",
    );
    await refusedWithoutWriting("radioGroups.delete", { accountId: home.accountId, groupId: awayGroup, version: 1 }, "NOT_FOUND");
    await refusedWithoutWriting("radioGroups.delete", { accountId: away.accountId, groupId: awayGroup, version: 1 }, "NOT_FOUND");
  });

  it("firmware: another tenant's package is NOT_FOUND to complete, delete or send a part to, from any frame", async () => {
    const awayPackage = `fw_away_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, upload_id, created_by)
       VALUES (?, ?, '1.0.0', '["XR-7"]', 'uploading', ?, 'upload-away', 'test')`,
    )
      .bind(awayPackage, away.childOrgId, `packages/${awayPackage}`)
      .run();
    for (const frame of [{}, { accountId: home.accountId }]) {
      await refusedWithoutWriting("firmware.complete", { id: awayPackage, ...frame }, "NOT_FOUND");
      await refusedWithoutWriting("firmware.delete", { id: awayPackage, ...frame }, "NOT_FOUND");
    }
    await refusedWithoutWriting("firmware.delete", { id: awayPackage, accountId: away.accountId }, "NOT_FOUND");
    const part = await request(`/api/firmware/${awayPackage}/parts/1`, {
      method: "PUT",
      body: new Uint8Array(16),
      headers: { Origin: ORIGIN, "Content-Type": "application/octet-stream", Cookie: owner },
    });
    expect(part.status).toBe(404);
    const row = await env.DB.prepare("SELECT parts FROM firmware_packages WHERE id = ?")
      .bind(awayPackage)
      .first<{ parts: string }>();
    expect(row?.parts).toBe("[]");
  });

  it("webhooks: another tenant's webhook is NOT_FOUND on every path, and stays as it was", async () => {
    const hookId = await insertWebhook(env.DB, {
      orgId: away.childOrgId,
      url: "https://hooks.example.com/away",
      events: ["deployment.paused"],
      secret: "whsec_away",
    });
    await env.DB.prepare("UPDATE webhooks SET enabled = 0, consecutive_failures = 5 WHERE id = ?").bind(hookId).run();
    for (const path of ["notifications.enableWebhook", "notifications.sendTest", "notifications.deleteWebhook"]) {
      await refusedWithoutWriting(path, { id: hookId }, "NOT_FOUND");
    }
    await refusedWithoutWriting(
      "notifications.addWebhook",
      { orgId: away.childOrgId, url: "https://hooks.example.com/x", events: ["deployment.paused"] },
      "NOT_FOUND",
    );
    await refusedWithoutWriting("notifications.setPreferences", { accountId: away.accountId, events: [] }, "NOT_FOUND");
    expect(await findWebhook(env.DB, hookId)).toMatchObject({ enabled: false, consecutiveFailures: 5 });
    expect(await listDeliveries(env.DB, hookId)).toEqual([]);
  });

  it("the desk: another tenant's radios and customers", async () => {
    const session = { accountId: home.accountId, subject: "Foreign", category: "General" };
    await refusedWithoutWriting("fcCases.openSession", { ...session, uids: [away.deviceUid] }, "BAD_REQUEST");
    await refusedWithoutWriting(
      "fcCases.openSession",
      { ...session, uids: [home.deviceUid], customerId: awayCustomerId },
      "NOT_FOUND",
    );
    await refusedWithoutWriting(
      "fcCases.saveCustomer",
      { accountId: home.accountId, name: "X", uids: [away.deviceUid] },
      "BAD_REQUEST",
    );
    await refusedWithoutWriting(
      "fcCases.saveCustomer",
      { accountId: home.accountId, id: awayCustomerId, version: 1, name: "Taken" },
      "NOT_FOUND",
    );
    await refusedWithoutWriting(
      "fcCases.saveDeviceSettings",
      { uid: home.deviceUid, accountId: home.accountId, version: 0, remoteSupport: true, contactCustomerId: awayCustomerId },
      "BAD_REQUEST",
    );
    await refusedWithoutWriting(
      "fcCases.saveDeviceSettings",
      { uid: away.deviceUid, accountId: home.accountId, version: 0, remoteSupport: true },
      "NOT_FOUND",
    );
  });
});

describe("firmware on the screens (issue 26)", () => {
  /** A query (GET) with a foreign id: a 4xx of the expected code. */
  async function queryRefused(path: string, input: unknown) {
    const response = await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
      headers: { Origin: ORIGIN, Cookie: owner },
    });
    const answer = (await response.json()) as Answer;
    expect(answer.error?.data.code, `${path} ${JSON.stringify(input)}`).toBe("NOT_FOUND");
    expect(answer.error?.data.httpStatus).toBe(404);
  }

  it("another tenant's radio history and account drift are NOT_FOUND, in an account's frame or not", async () => {
    await queryRefused("devices.firmwareHistory", { uid: away.deviceUid });
    await queryRefused("devices.firmwareHistory", { uid: away.deviceUid, accountId: home.accountId });
    await queryRefused("devices.firmwareHistory", { uid: home.deviceUid, accountId: away.accountId });
    await queryRefused("devices.firmwareDrift", { accountId: away.accountId });
    await queryRefused("devices.desiredFirmware", { uid: away.deviceUid });
    await queryRefused("devices.desiredFirmware", { uid: away.deviceUid, accountId: home.accountId });
    await queryRefused("deployments.firmwarePackages", { accountId: away.accountId });
    await queryRefused("deployments.firmwarePhaseSizes", { accountId: away.accountId, packageId: "fw_any", shares: [100] });
    await queryRefused("deployments.downloadProgress", { id: away.deploymentId });
  });
});
