import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, request } from "./helpers";

// Saved groups over the API (issue 25): a named filter with its live count; create, edit at a
// version (a stale edit is CONFLICT), delete; another account's site or group is refused; a
// viewer reads but cannot change; a duplicate name is refused; an edit moves the fleet version.

type Answer<T = unknown> = { result?: { data: T }; error?: { message: string; data: { code: string; httpStatus: number } } };
type Group = { id: string; name: string; filter: Record<string, string>; version: number; count: number };

async function call<T = unknown>(path: string, input: unknown, cookie: string, method: "GET" | "POST" = "POST") {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return (await response.json()) as Answer<T>;
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

let owner = "";
let viewer = "";
let outsider = "";
let accountId = "";
let otherAccountId = "";
let foreignSiteId = "";
const siteId = `site_north_${crypto.randomUUID().slice(0, 8)}`;
const southId = `site_south_${crypto.randomUUID().slice(0, 8)}`;
const locationId = `loc_bay_${crypto.randomUUID().slice(0, 8)}`;

const fleetVersion = async (account: string) =>
  (await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?").bind(account).first<{ version: number }>())
    ?.version ?? 0;
const entries = async (groupId: string) =>
  (
    await env.DB.prepare(
      "SELECT action FROM activity_logs WHERE entity_type = 'radioGroup' AND entity_id = ? ORDER BY created_at",
    )
      .bind(groupId)
      .all<{ action: string }>()
  ).results.map((row) => row.action);

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  accountId = await createAccount(boss.orgId, "Group fleet");
  otherAccountId = await createAccount(boss.orgId, "Other fleet");
  await giveSeats(boss.orgId, accountId, 20);
  const radios = await registerRadios(boss.orgId, accountId, "GRP", 10);
  foreignSiteId = `site_away_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'North garage')").bind(siteId, accountId),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'South yard')").bind(southId, accountId),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Bay 1')").bind(
      locationId,
      accountId,
      siteId,
    ),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Away site')").bind(foreignSiteId, otherAccountId),
    // Six radios in the north garage, four of them on old firmware; the rest in the south yard.
    env.DB.prepare("UPDATE devices SET site_id = ?, firmware = '1.0' WHERE uid IN (?, ?, ?, ?)").bind(
      siteId,
      ...radios.slice(0, 4),
    ),
    env.DB.prepare("UPDATE devices SET site_id = ?, firmware = '2.0' WHERE uid IN (?, ?)").bind(siteId, ...radios.slice(4, 6)),
    env.DB.prepare("UPDATE devices SET site_id = ?, firmware = '1.0' WHERE uid IN (?, ?, ?, ?)").bind(
      southId,
      ...radios.slice(6),
    ),
  ]);
  owner = await sessionCookie(boss.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId: boss.orgId })).email);
  outsider = await sessionCookie((await createUser({ role: "owner" })).email);
});

describe("saved groups", () => {
  it("creates a group with its live count, edits it at its version, refuses a stale edit, and deletes it", async () => {
    const created = data(
      await call<Group>("radioGroups.create", { accountId, name: "North garage, old firmware", siteId, firmware: "1.0" }, owner),
    );
    expect(created).toMatchObject({
      name: "North garage, old firmware",
      filter: { siteId, firmware: "1.0" },
      version: 1,
      count: 4,
    });

    const listed = data(await call<{ items: Group[] }>("radioGroups.list", { accountId }, viewer, "GET"));
    expect(listed.items.find((g) => g.id === created.id)?.count).toBe(4);

    // The count is live: a radio updated to new firmware leaves the group.
    await env.DB.prepare("UPDATE devices SET firmware = '2.0' WHERE uid = 'GRP-000001'").run();
    expect(data(await call<Group>("radioGroups.get", { accountId, groupId: created.id }, viewer, "GET")).count).toBe(3);

    const before = await fleetVersion(accountId);
    const edited = data(
      await call<Group>(
        "radioGroups.update",
        { accountId, groupId: created.id, version: 1, name: "North garage", siteId },
        owner,
      ),
    );
    expect(edited).toMatchObject({ name: "North garage", filter: { siteId }, version: 2, count: 6 });
    expect(await fleetVersion(accountId)).toBeGreaterThan(before);

    // Someone else's edit went first: version 1 is stale, nothing is written, the version stays.
    const afterEdit = await fleetVersion(accountId);
    const stale = await call("radioGroups.update", { accountId, groupId: created.id, version: 1, name: "Old view" }, owner);
    expect(stale.error?.data.code).toBe("CONFLICT");
    expect(stale.error?.message).toMatch(/someone else changed/i);
    expect(await fleetVersion(accountId)).toBe(afterEdit);
    const staleDelete = await call("radioGroups.delete", { accountId, groupId: created.id, version: 1 }, owner);
    expect(staleDelete.error?.data.code).toBe("CONFLICT");

    data(await call("radioGroups.delete", { accountId, groupId: created.id, version: 2 }, owner));
    expect(await fleetVersion(accountId)).toBeGreaterThan(afterEdit);
    expect((await call("radioGroups.get", { accountId, groupId: created.id }, owner, "GET")).error?.data.code).toBe("NOT_FOUND");
    expect(await entries(created.id)).toEqual(["create", "update", "delete"]);
  });

  it("refuses a duplicate name (any case), on create and on rename", async () => {
    const first = data(await call<Group>("radioGroups.create", { accountId, name: "South yard" }, owner));
    const again = await call("radioGroups.create", { accountId, name: "SOUTH YARD", siteId: southId }, owner);
    expect(again.error?.data.code).toBe("CONFLICT");
    expect(again.error?.message).toMatch(/already/i);
    const second = data(await call<Group>("radioGroups.create", { accountId, name: "Everything old", firmware: "1.0" }, owner));
    const rename = await call("radioGroups.update", { accountId, groupId: second.id, version: 1, name: "south yard" }, owner);
    expect(rename.error?.data.code).toBe("CONFLICT");
    // Its own name, unchanged, is no clash.
    expect(
      data(
        await call<Group>(
          "radioGroups.update",
          { accountId, groupId: first.id, version: 1, name: "South yard", siteId: southId },
          owner,
        ),
      ).count,
    ).toBe(4);
  });

  it("counts a sync state and a tag live, as the inventory would", async () => {
    // No deployment in this account yet: every active radio is "never deployed", none "in sync".
    const never = data(
      await call<Group>("radioGroups.create", { accountId, name: "Never deployed", sync: "neverDeployed" }, owner),
    );
    expect(never.count).toBe(10);
    const synced = data(await call<Group>("radioGroups.create", { accountId, name: "In sync", sync: "inSync" }, owner));
    expect(synced.count).toBe(0);
    const tagged = data(await call<Group>("radioGroups.create", { accountId, name: "Night shift", tag: "Night" }, owner));
    expect(tagged.count).toBe(0);
    await env.DB.prepare("INSERT INTO device_tags (uid, tag) VALUES ('GRP-000002', 'night'), ('GRP-000003', 'night')").run();
    expect(data(await call<Group>("radioGroups.get", { accountId, groupId: tagged.id }, viewer, "GET")).count).toBe(2);
  });

  it("refuses another account's site, a location of another site, and bad input with a clear 4xx", async () => {
    const foreign = await call("radioGroups.create", { accountId, name: "Away", siteId: foreignSiteId }, owner);
    expect(foreign.error?.data.code).toBe("BAD_REQUEST");
    expect(foreign.error?.message).toMatch(/site/i);
    const misplaced = await call("radioGroups.create", { accountId, name: "Misplaced", siteId: southId, locationId }, owner);
    expect(misplaced.error?.data.code).toBe("BAD_REQUEST");
    expect(misplaced.error?.message).toMatch(/location/i);
    for (const input of [
      { accountId, name: "" },
      { accountId, name: "x".repeat(81) },
      { accountId, name: "Tagged", tag: "<script>" },
      { accountId, name: "Synced", sync: "sideways" },
      { accountId, name: "Extra", groupId: "grp_1" },
    ]) {
      const answer = await call("radioGroups.create", input, owner);
      expect(answer.error?.data.httpStatus, JSON.stringify(input)).toBe(400);
    }
    const blank = await call("radioGroups.create", { accountId, name: " " }, owner);
    expect(blank.error?.message).toContain("validation.fields.groupName.required");
  });

  it("keeps groups to their account and tenant, and changes to manage-devices", async () => {
    const group = data(await call<Group>("radioGroups.create", { accountId, name: "Bay one", siteId, locationId }, owner));
    expect(group.count).toBe(0);
    // The same id through another account of the organization, or another tenant: not found.
    for (const answer of [
      await call("radioGroups.get", { accountId: otherAccountId, groupId: group.id }, owner, "GET"),
      await call("radioGroups.update", { accountId: otherAccountId, groupId: group.id, version: 1, name: "Stolen" }, owner),
      await call("radioGroups.delete", { accountId: otherAccountId, groupId: group.id, version: 1 }, owner),
    ])
      expect(answer.error?.data.code).toBe("NOT_FOUND");
    for (const answer of [
      await call("radioGroups.list", { accountId }, outsider, "GET"),
      await call("radioGroups.get", { accountId, groupId: group.id }, outsider, "GET"),
      await call("radioGroups.delete", { accountId, groupId: group.id, version: 1 }, outsider),
    ])
      expect(answer.error?.data.code).toBe("NOT_FOUND");
    // A viewer reads, but cannot change.
    expect(data(await call<Group>("radioGroups.get", { accountId, groupId: group.id }, viewer, "GET")).name).toBe("Bay one");
    for (const answer of [
      await call("radioGroups.create", { accountId, name: "Viewer's" }, viewer),
      await call("radioGroups.update", { accountId, groupId: group.id, version: 1, name: "Viewer's" }, viewer),
      await call("radioGroups.delete", { accountId, groupId: group.id, version: 1 }, viewer),
    ])
      expect(answer.error?.data.code).toBe("FORBIDDEN");
    expect(await entries(group.id)).toEqual(["create"]);
  });
});
