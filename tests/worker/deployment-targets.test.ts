import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { planDefaults } from "@/routes/deployments/plan-form";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { type Answer, call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// Deployment targets (issue 25): a deployment for a site, a saved group or the failed radios of
// another is a filter the engine evaluates whenever a radio checks in: radios moved into the
// target mid-rollout are given it, radios moved out before they started are not, and one that
// reported keeps it. The model test (deployment-model.ts) proves the same over random sequences.

type CheckIn = { desiredRevision: { id: string } | null; deployment: { id: string } | null };
type Created = { id: string; number: number; state: string; targeted?: number };
type Got = { deployment: { targeted: number; state: string; target: unknown }; counts: { total: Record<string, number> } };

let cookie = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];
const sites = { north: "site_tgt_north", south: "site_tgt_south" };

async function checkIn(uid: string): Promise<CheckIn> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  return (await response.json()) as CheckIn;
}

async function report(uid: string, deploymentId: string, state: string): Promise<number> {
  const response = await request(`/device/v1/deployments/${deploymentId}/status`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify({ state }),
  });
  return response.status;
}

async function place(uid: string, siteId: string | null, firmware = "1.0.0") {
  await env.DB.prepare("UPDATE devices SET site_id = ?, firmware = ?, attributes_changed_at = ? WHERE uid = ?")
    .bind(siteId, firmware, new Date().toISOString(), uid)
    .run();
}

async function deploy(input: Record<string, unknown>): Promise<Created> {
  return data(await call<Created>("deployments.create", { accountId, ...input }, cookie, "POST"));
}

/** The deployment as its page reads it, once the clock counted its target's radios (a confirm does not). */
async function get(id: string): Promise<Got> {
  await stepDueDeployments(env);
  return data(await call<Got>("deployments.get", { id }, cookie, "GET"));
}

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Targets");
  await giveSeats(orgId, accountId, 20);
  for (const [name, id] of Object.entries(sites))
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, ?)").bind(id, accountId, name).run();
  radios = await registerRadios(orgId, accountId, "TGT", 6);
  // North: 0, 1, 2 (2 on old firmware); south: 3, 4; nowhere: 5.
  for (const [i, uid] of radios.entries())
    await place(uid, i < 3 ? sites.north : i < 5 ? sites.south : null, i === 2 ? "0.9.0" : "1.0.0");
  cookie = await sessionCookie(owner.email);
});

describe("a deployment for a site", () => {
  it("counts its radios before confirming, gives the revision to them alone, and follows radios that move", async () => {
    const target = { kind: "filter", filter: { siteId: sites.north } };
    const sizes = data(
      await call<{ sizes: number[]; total: number }>(
        "deployments.phaseSizes",
        { accountId, shares: [100], target },
        cookie,
        "GET",
      ),
    );
    expect(sizes).toEqual({ sizes: [3], total: 3 });

    const all = await deploy({ note: "everyone" });
    const fleetVersion = async () =>
      (
        await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?")
          .bind(accountId)
          .first<{ version: number }>()
      )?.version;
    const north = await deploy({ note: "north", target });
    // Confirming does not count the target (its cost is the same whatever its size): the clock
    // counts it just after, without moving the account's fleet version.
    const stored = async () =>
      (await env.DB.prepare("SELECT targeted FROM deployments WHERE id = ?").bind(north.id).first<{ targeted: number }>())
        ?.targeted;
    const [beforeCount, versionBefore] = [await stored(), await fleetVersion()];
    expect([-1, 3]).toContain(beforeCount);
    await stepDueDeployments(env);
    expect(await stored()).toBe(3);
    expect(await fleetVersion()).toBe(versionBefore);
    expect((await get(north.id)).deployment.targeted).toBe(3);
    // A site's rollout leaves the fleet's rollout running for the other radios.
    expect((await get(all.id)).deployment.state).toBe("running");

    const told = await Promise.all(radios.map(async (uid) => (await checkIn(uid)).deployment?.id));
    expect(told).toEqual([north.id, north.id, north.id, all.id, all.id, all.id]);
    expect((await get(north.id)).counts.total).toMatchObject({ pending: 3 });

    // Radio 0 starts; then 0 and 1 move south, 3 moves north: 0 keeps what it started, 1 leaves, 3 joins.
    expect(await report(radios[0] ?? "", north.id, "applying")).toBe(200);
    await place(radios[0] ?? "", sites.south);
    await place(radios[1] ?? "", sites.south);
    await place(radios[3] ?? "", sites.north);
    const after = await Promise.all(radios.map(async (uid) => (await checkIn(uid)).deployment?.id));
    expect(after).toEqual([north.id, all.id, north.id, north.id, all.id, all.id]);
    // A radio outside the target cannot report on it.
    expect(await report(radios[4] ?? "", north.id, "applied")).toBe(409);
    const counts = (await get(north.id)).counts.total;
    expect(counts).toMatchObject({ applying: 1, pending: 2 });
  });

  it("a saved group is frozen into the deployment: editing the group later does not move the rollout", async () => {
    const acc = await createAccount(orgId, "Groups");
    await giveSeats(orgId, acc, 10);
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_grp_n', ?, 'North garage')").bind(acc).run();
    const uids = await registerRadios(orgId, acc, "GRP", 3);
    await place(uids[0] ?? "", "site_grp_n", "0.9.0");
    await place(uids[1] ?? "", "site_grp_n", "1.0.0");
    await env.DB.prepare(
      `INSERT INTO radio_groups (id, account_id, name, filter, created_at, updated_at)
       VALUES ('grp_old_north', ?, 'North garage, old firmware', '{"siteId":"site_grp_n","firmware":"0.9.0"}', 'x', 'x')`,
    )
      .bind(acc)
      .run();
    const created = data(
      await call<Created>(
        "deployments.create",
        { accountId: acc, note: "group", target: { kind: "filter", filter: { groupId: "grp_old_north" } } },
        cookie,
        "POST",
      ),
    );
    const got = await get(created.id);
    expect(got.deployment.targeted).toBe(1);
    expect(got.deployment.target).toMatchObject({
      groupName: "North garage, old firmware",
      siteId: "site_grp_n",
      firmware: "0.9.0",
    });
    await env.DB.prepare("UPDATE radio_groups SET filter = '{}' WHERE id = 'grp_old_north'").run();
    const told = await Promise.all(uids.map(async (uid) => (await checkIn(uid)).deployment?.id ?? null));
    expect(told).toEqual([created.id, null, null]);
  });

  it("refuses a sync-state condition, another account's group, and a viewer", async () => {
    const sync = await call(
      "deployments.create",
      { accountId, target: { kind: "filter", filter: { sync: "failed" } } },
      cookie,
      "POST",
    );
    expect(sync.error?.data.code).toBe("BAD_REQUEST");
    const foreign = await call(
      "deployments.phaseSizes",
      { accountId, shares: [100], target: { kind: "filter", filter: { groupId: "grp_old_north" } } },
      cookie,
      "GET",
    );
    expect(foreign.error?.data.code).toBe("BAD_REQUEST");
    const viewer = await createUser({ role: "viewer", orgId });
    const refused = await call(
      "deployments.create",
      { accountId, target: { kind: "filter", filter: { siteId: sites.north } } },
      await sessionCookie(viewer.email),
      "POST",
    );
    expect(refused.error?.data.code).toBe("FORBIDDEN");
  });
});

describe("retry the failed radios", () => {
  it("a new deployment of the same revision for the failed and rejected radios alone, which they then apply", async () => {
    const acc = await createAccount(orgId, "Retries");
    await giveSeats(orgId, acc, 10);
    const uids = await registerRadios(orgId, acc, "RTY", 4);
    const first = data(await call<Created>("deployments.create", { accountId: acc, note: "first" }, cookie, "POST"));
    for (const uid of uids) await checkIn(uid);
    expect(await report(uids[0] ?? "", first.id, "applied")).toBe(200);
    expect(await report(uids[1] ?? "", first.id, "failed")).toBe(200);
    expect(await report(uids[2] ?? "", first.id, "rejected")).toBe(200);
    // (uids[3] has not reported and its phase has not timed out: still pending, not retried.)

    const retry = data(await call<Created>("deployments.retryFailed", { id: first.id }, cookie, "POST"));
    expect(retry.targeted).toBe(2);
    const [firstGot, retryGot] = [await get(first.id), await get(retry.id)];
    expect(retryGot.deployment.target).toMatchObject({ kind: "failedOf", deploymentId: first.id });
    const revision = async (id: string) =>
      (await env.DB.prepare("SELECT revision_id FROM deployments WHERE id = ?").bind(id).first<{ revision_id: string }>())
        ?.revision_id;
    expect(await revision(retry.id)).toBe(await revision(first.id));
    expect(firstGot.deployment.state).not.toBe("superseded");

    const told = await Promise.all(uids.map(async (uid) => (await checkIn(uid)).deployment?.id));
    expect(told).toEqual([first.id, retry.id, retry.id, first.id]);
    expect(await report(uids[1] ?? "", retry.id, "applied")).toBe(200);
    expect(await report(uids[2] ?? "", retry.id, "applied")).toBe(200);
    expect(await report(uids[3] ?? "", retry.id, "applied")).toBe(409);
    expect((await get(retry.id)).deployment.state).toBe("finished");

    // The retry itself had no failure: nothing to retry, said plainly.
    const again: Answer = await call("deployments.retryFailed", { id: retry.id }, cookie, "POST");
    expect(again.error?.data.code).toBe("PRECONDITION_FAILED");
  });
});

describe("the pages, without JavaScript", () => {
  it("the confirm form counts a place's radios per phase, deploys to them, and the deployment page offers the retry", async () => {
    const acc = await createAccount(orgId, "Pages");
    await giveSeats(orgId, acc, 10);
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES ('site_pg_n', ?, 'North garage')").bind(acc).run();
    const uids = await registerRadios(orgId, acc, "PGS", 4);
    await place(uids[0] ?? "", "site_pg_n");
    await place(uids[1] ?? "", "site_pg_n");
    const path = `/accounts/${acc}/confirm-deployment`;
    const page = await (await request(path, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('name="targetPlace"');
    expect(page).toMatch(/<option value="site_pg_n">North garage<\/option>/);

    const fields = { ...planDefaults, planKind: "all", targetPlace: "site_pg_n" };
    const counted = await postForm(path, { ...fields, intent: "count" }, { Cookie: cookie });
    expect(counted.status).toBe(200);
    const countedHtml = await counted.text();
    expect(countedHtml).toContain("Radios in this target now: 2");
    expect(countedHtml).toContain("Phase 1: 2 radios");

    const foreign = await postForm(path, { ...fields, targetPlace: "site_tgt_north" }, { Cookie: cookie });
    expect(foreign.status).toBe(400);
    expect(data(await call<{ items: unknown[] }>("deployments.list", { accountId: acc }, cookie, "GET")).items).toEqual([]);

    const confirmed = await postForm(path, { ...fields, idempotencyKey: "next-1" }, { Cookie: cookie });
    expect(confirmed.status).toBe(303);
    const id = decodeURIComponent(confirmed.headers.get("location")?.split("/").pop()?.split("?")[0] ?? "");
    expect((await get(id)).deployment.targeted).toBe(2);
    expect(await report(uids[0] ?? "", id, "failed")).toBe(200);

    const view = await (await request(`/accounts/${acc}/deployments/${id}`, { headers: { Cookie: cookie } })).text();
    expect(view).toContain("at North garage");
    expect(view).toContain("Retry the failed radios (1)");
    const retried = await postForm(
      `/accounts/${acc}/deployments/${id}`,
      { do: "retryFailed", idempotencyKey: "next-2-retry" },
      { Cookie: cookie },
    );
    expect(retried.status).toBe(303);
    const retryId = decodeURIComponent(retried.headers.get("location")?.split("/").pop()?.split("?")[0] ?? "");
    expect(retryId).not.toBe(id);
    const retryView = await (await request(`/accounts/${acc}/deployments/${retryId}`, { headers: { Cookie: cookie } })).text();
    expect(retryView).toContain(`The radios that failed, rejected or timed out in deployment #1`);
    expect((await get(retryId)).deployment.targeted).toBe(1);
  });
});
