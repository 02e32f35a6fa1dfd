import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { bucketOf, bucketRange } from "@/schema/fleet/rollout";
import { targetSchema } from "@/schema/fleet/target";
import { batch } from "@/server/data/db";
import { createGroupStatements, deleteGroupStatements, findGroup, groupNameTaken, listGroups } from "@/server/data/radio-groups";
import { countTarget, resolveTarget, targetPhaseSizes } from "@/server/data/targets";
import { createAccount, createUser } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";

// Issue 25: a target is a filter over an account's radios (or a saved group, or a deployment's
// failed radios), checked against the account and counted live from the same SQL.

let orgId = "";
let accountId = "";
let otherAccountId = "";
let actor = { id: "", email: "" };
let uids: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  actor = { id: owner.id, email: owner.email };
  accountId = await createAccount(orgId, "Targeted fleet");
  otherAccountId = await createAccount(orgId, "Other fleet");
  await giveSeats(orgId, accountId, 40);
  uids = await registerRadios(orgId, accountId, "TGT", 30);
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO sites (id, account_id, name) VALUES ('site_tn', ?, 'North garage'), ('site_ts', ?, 'South')",
    ).bind(accountId, accountId),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_tx', ?, 'Elsewhere')").bind(otherAccountId),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES ('loc_tn', ?, 'site_tn', 'Bay 1')").bind(
      accountId,
    ),
    // Radios 1–12 at the north garage (1–4 in bay 1), 13–30 in the south; 1–6 and 13–15 run old firmware.
    env.DB.prepare("UPDATE devices SET site_id = 'site_tn' WHERE uid BETWEEN 'TGT-000001' AND 'TGT-000012'"),
    env.DB.prepare("UPDATE devices SET location_id = 'loc_tn' WHERE uid BETWEEN 'TGT-000001' AND 'TGT-000004'"),
    env.DB.prepare("UPDATE devices SET site_id = 'site_ts' WHERE uid BETWEEN 'TGT-000013' AND 'TGT-000030'"),
    env.DB.prepare(
      "UPDATE devices SET firmware = '1.0' WHERE uid BETWEEN 'TGT-000001' AND 'TGT-000006' OR uid BETWEEN 'TGT-000013' AND 'TGT-000015'",
    ),
    env.DB.prepare("UPDATE devices SET firmware = '2.0' WHERE firmware <> '1.0' AND uid LIKE 'TGT-%'"),
    env.DB.prepare("INSERT INTO device_tags (uid, tag) VALUES ('TGT-000002', 'spare'), ('TGT-000020', 'spare')"),
  ]);
});

async function count(target: unknown): Promise<number> {
  const parsed = targetSchema.parse(target);
  const resolved = await resolveTarget(env.DB, accountId, parsed);
  if (!resolved.ok) throw new Error(resolved.refusal.message);
  return countTarget(env.DB, accountId, resolved.target);
}

describe("target schema", () => {
  it("refuses hostile input with a field message, never throws", () => {
    const hostile: unknown[] = [
      null,
      "all",
      { kind: "none" },
      { kind: "all", extra: 1 },
      { kind: "filter", filter: { siteId: "x'; DROP TABLE devices; --" } },
      { kind: "filter", filter: { model: "a".repeat(500) } },
      { kind: "filter", filter: { firmware: "1.0\u0000" } },
      { kind: "filter", filter: { tag: "" } },
      { kind: "filter", filter: { sync: "everything" } },
      { kind: "filter", filter: { unknown: "x" } },
      { kind: "failedOf", deploymentId: 42 },
    ];
    for (const input of hostile) expect(targetSchema.safeParse(input).success, JSON.stringify(input)).toBe(false);
  });
});

describe("targets counted", () => {
  it("counts every radio, a site, a location, firmware, a tag and their combinations", async () => {
    expect(await count({ kind: "all" })).toBe(30);
    expect(await count({ kind: "filter", filter: {} })).toBe(30);
    expect(await count({ kind: "filter", filter: { siteId: "site_tn" } })).toBe(12);
    expect(await count({ kind: "filter", filter: { locationId: "loc_tn" } })).toBe(4);
    expect(await count({ kind: "filter", filter: { firmware: "1.0" } })).toBe(9);
    expect(await count({ kind: "filter", filter: { siteId: "site_tn", firmware: "1.0" } })).toBe(6);
    expect(await count({ kind: "filter", filter: { tag: "SPARE" } })).toBe(2);
    expect(await count({ kind: "filter", filter: { model: "NW-400", siteId: "site_ts" } })).toBe(18);
    // Never deployed: every radio (no deployment yet); the sync condition reads the account's deployments.
    expect(await count({ kind: "filter", filter: { sync: "neverDeployed" } })).toBe(30);
    expect(await count({ kind: "filter", filter: { sync: "inSync" } })).toBe(0);
  });

  it("refuses another account's site, location, group and deployment by field", async () => {
    const refused = async (target: unknown) => {
      const resolved = await resolveTarget(env.DB, accountId, targetSchema.parse(target));
      return resolved.ok ? null : resolved.refusal;
    };
    expect(await refused({ kind: "filter", filter: { siteId: "site_tx" } })).toEqual({
      field: "siteId",
      message: "validation.SiteNotInAccount",
    });
    expect(await refused({ kind: "filter", filter: { siteId: "site_ts", locationId: "loc_tn" } })).toMatchObject({
      field: "locationId",
    });
    const { id, statements } = createGroupStatements(
      env.DB,
      { orgId, accountId: otherAccountId, actor },
      { name: "Theirs", filter: {} },
    );
    await batch(env.DB, statements);
    expect(await refused({ kind: "filter", filter: { groupId: id } })).toMatchObject({
      field: "groupId",
      message: "validation.GroupNotInAccount",
    });
    expect(await refused({ kind: "failedOf", deploymentId: "dep_nowhere" })).toMatchObject({ field: "deploymentId" });
  });
});

describe("saved groups", () => {
  it("keeps a named filter whose count is live, narrows it, and logs every change", async () => {
    const scope = { orgId, accountId, actor };
    const { id, statements } = createGroupStatements(env.DB, scope, {
      name: "North garage, old firmware",
      filter: { siteId: "site_tn", firmware: "1.0" },
    });
    await batch(env.DB, statements);
    expect(await groupNameTaken(env.DB, accountId, "north GARAGE, old firmware")).toBe(true);
    expect((await listGroups(env.DB, accountId)).map((g) => g.name)).toContain("North garage, old firmware");
    expect(await count({ kind: "filter", filter: { groupId: id } })).toBe(6);
    expect(await count({ kind: "filter", filter: { groupId: id, locationId: "loc_tn" } })).toBe(4);

    // A radio moved into the garage with old firmware joins the group's count at once.
    await env.DB.prepare("UPDATE devices SET site_id = 'site_tn' WHERE uid = 'TGT-000013'").run();
    expect(await count({ kind: "filter", filter: { groupId: id } })).toBe(7);
    await env.DB.prepare("UPDATE devices SET site_id = 'site_ts' WHERE uid = 'TGT-000013'").run();

    // Phase sizes of the group: each of its radios in its phase's bucket range.
    const resolved = await resolveTarget(env.DB, accountId, { kind: "filter", filter: { groupId: id } });
    if (!resolved.ok) throw new Error("refused");
    const shares = [50, 100];
    const members = uids.slice(0, 6);
    const expected = shares.map((_, i) => {
      const { from, to } = bucketRange(shares, i);
      return members.filter((uid) => bucketOf(uid) >= from && bucketOf(uid) < to).length;
    });
    expect(await targetPhaseSizes(env.DB, accountId, resolved.target, shares)).toEqual(expected);

    const group = await findGroup(env.DB, accountId, id);
    expect(group?.filter).toEqual({ siteId: "site_tn", firmware: "1.0" });
    expect(await findGroup(env.DB, otherAccountId, id)).toBeNull();
    if (group) await batch(env.DB, deleteGroupStatements(env.DB, scope, group));
    expect(await findGroup(env.DB, accountId, id)).toBeNull();
    const log = await env.DB.prepare(
      "SELECT action FROM activity_logs WHERE entity_type = 'radioGroup' AND entity_id = ? ORDER BY created_at",
    )
      .bind(id)
      .all<{ action: string }>();
    expect(log.results.map((row) => row.action)).toEqual(["create", "delete"]);
  });
});

describe("the failed radios of a deployment", () => {
  it("holds its failed and rejected radios, and the silent ones of its timed-out phases", async () => {
    const plan = JSON.stringify({
      phases: [
        {
          share: 100,
          successPercent: 100,
          successAction: "next",
          errorKind: "count",
          errorValue: 5,
          errorMinimum: 0,
          waitMinutes: 0,
        },
      ],
    });
    const at = new Date().toISOString();
    await env.DB.batch([
      env.DB.prepare(
        "INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES ('rev_tgt_1', ?, 1, 'h', '{}')",
      ).bind(accountId),
      env.DB.prepare(
        `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at, timed_out_phase)
         VALUES ('dep_tgt_1', ?1, ?2, 1, 'rev_tgt_1', 'finished', ?3, '{"mode":"delivery"}', 30, 'test', ?4, ?4, -1),
                ('dep_tgt_2', ?1, ?2, 2, 'rev_tgt_1', 'paused', ?3, '{"mode":"delivery"}', 30, 'test', ?4, ?4, 0)`,
      ).bind(accountId, orgId, plan, at),
      env.DB.prepare(
        `INSERT INTO deployment_devices (deployment_id, uid, phase, state, updated_at) VALUES
           ('dep_tgt_1', 'TGT-000001', 0, 'failed', ?1), ('dep_tgt_1', 'TGT-000002', 0, 'rejected', ?1),
           ('dep_tgt_1', 'TGT-000003', 0, 'applied', ?1), ('dep_tgt_2', 'TGT-000003', 0, 'applied', ?1)`,
      ).bind(at),
    ]);
    // Finished: the two that failed or rejected it; the silent radios did not time out.
    expect(await count({ kind: "failedOf", deploymentId: "dep_tgt_1" })).toBe(2);
    // Its only phase timed out: every radio that never reported, not the one that applied.
    expect(await count({ kind: "failedOf", deploymentId: "dep_tgt_2" })).toBe(29);
    // Another account's deployment is refused by field.
    const refused = await resolveTarget(env.DB, otherAccountId, { kind: "failedOf", deploymentId: "dep_tgt_1" });
    expect(refused.ok).toBe(false);
  });
});
