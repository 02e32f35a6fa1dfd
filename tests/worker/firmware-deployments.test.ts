import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { allAtOnce } from "@/schema/fleet/deployment-plan";
import { firmwareSecret, verifyDownloadUrl } from "@/server/firmware/download-url";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { request } from "./helpers";

// Firmware deployments (issue 26): the same engine as configuration on a track of their own.
// A radio follows the newest configuration deployment and the newest firmware deployment that
// hold it; only radios whose model the package fits are held; stages move forward only; a
// failure counts against the thresholds; roll back installs the package it replaced.

type Firmware = {
  deployment: { id: string; number: number; state: string };
  package: { id: string; version: string; sha256: string; size: number; url: string | null; urlExpiresAt: string | null };
  yourState: string;
  progress: number | null;
  retry?: { attempt: number; notBefore: string };
};
type CheckIn = { deployment: { id: string } | null; firmware: Firmware | null };
type Created = { id: string; number: number; state: string };
type Got = {
  kind: string;
  deployment: {
    state: string;
    pauseReason: string | null;
    package: { version: string } | null;
    previousPackage: { id: string } | null;
  };
  counts: { total: Record<string, number> };
  stages: Record<string, number>;
};

let cookie = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];
const packages = { old: "fw_test_old", next: "fw_test_next", otherModels: "fw_test_other", uploading: "fw_test_uploading" };
let foreignPackage = "";

async function addPackage(id: string, org: string, version: string, models: string[], state = "ready") {
  await env.DB.prepare(
    `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, signature, key_id, created_by)
     VALUES (?, ?, ?, ?, ?, ?, 1024, ?, 'c2ln', 'key_test', 'test')`,
  )
    .bind(id, org, version, JSON.stringify(models), state, `packages/${id}`, "ab".repeat(32))
    .run();
}

async function checkIn(uid: string, body: Record<string, unknown> = {}): Promise<CheckIn> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return (await response.json()) as CheckIn;
}

async function report(uid: string, deploymentId: string, body: Record<string, unknown>) {
  const response = await request(`/device/v1/deployments/${deploymentId}/status`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as { changed?: boolean; state?: string; retry?: unknown } };
}

async function deploy(input: Record<string, unknown>): Promise<Created> {
  return data(await call<Created>("deployments.create", { accountId, ...input }, cookie, "POST"));
}

async function get(id: string): Promise<Got> {
  await stepDueDeployments(env);
  return data(await call<Got>("deployments.get", { id }, cookie, "GET"));
}

const firmwareOf = async (uid: string) =>
  (await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>())?.firmware;

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Firmware");
  await giveSeats(orgId, accountId, 20);
  radios = await registerRadios(orgId, accountId, "FWD", 6);
  // 0–3: NW-400 on 1.0.0; 4: NW-400 already on 2.0.0; 5: another model.
  for (const [i, uid] of radios.entries())
    await env.DB.prepare("UPDATE devices SET firmware = ?, model = ? WHERE uid = ?")
      .bind(i === 4 ? "2.0.0" : "1.0.0", i === 5 ? "XR-9" : "NW-400", uid)
      .run();
  await addPackage(packages.old, orgId, "1.0.0", ["NW-400", "XR-9"]);
  await addPackage(packages.next, orgId, "2.0.0", ["NW-400"]);
  await addPackage(packages.otherModels, orgId, "9.9.9", ["XR-9"]);
  await addPackage(packages.uploading, orgId, "3.0.0", ["NW-400"], "uploading");
  const stranger = await createUser({ role: "owner" });
  foreignPackage = "fw_test_foreign";
  await addPackage(foreignPackage, stranger.orgId, "2.1.0", ["NW-400"]);
  cookie = await sessionCookie(owner.email);
});

describe("a firmware deployment", () => {
  it("says before confirming how the target's radios fit the package", async () => {
    const fit = data(await call("deployments.firmwareFit", { accountId, packageId: packages.next }, cookie, "GET"));
    expect(fit).toEqual({
      inTarget: 6,
      fits: 5,
      alreadyOnVersion: 1,
      wrongModel: [{ model: "XR-9", count: 1 }],
      running: [{ version: "1.0.0", count: 4, packageId: packages.old }],
    });
  });

  it("refuses another tenant's package, one still uploading, and one that does not exist, as not found", async () => {
    for (const packageId of [foreignPackage, packages.uploading, "fw_nothing"]) {
      const answer = await call("deployments.create", { accountId, firmwarePackageId: packageId }, cookie, "POST");
      expect(answer.error?.data.code).toBe("NOT_FOUND");
      const fit = await call("deployments.firmwareFit", { accountId, packageId }, cookie, "GET");
      expect(fit.error?.data.code).toBe("NOT_FOUND");
    }
  });

  it("runs beside the configuration's rollout: fitting radios are told the package with a signed URL, stages move forward only", async () => {
    const config = await deploy({ note: "configuration" });
    const plan = allAtOnce();
    const firmware = await deploy({
      firmwarePackageId: packages.next,
      rollbackPackageId: packages.old,
      plan: { ...plan, phases: plan.phases.map((phase) => ({ ...phase, errorKind: "count", errorValue: 2, errorMinimum: 0 })) },
    });
    expect(firmware.state).toBe("running");
    // Neither supersedes the other.
    const got = await get(firmware.id);
    expect(got.kind).toBe("firmware");
    expect(got.deployment.package?.version).toBe("2.0.0");
    expect(got.deployment.previousPackage?.id).toBe(packages.old);
    expect((await get(config.id)).deployment.state).toBe("running");

    const answers = await Promise.all(radios.map((uid) => checkIn(uid)));
    expect(answers.map((a) => a.deployment?.id)).toEqual(radios.map(() => config.id));
    expect(answers.map((a) => a.firmware?.deployment.id ?? null)).toEqual([
      firmware.id,
      firmware.id,
      firmware.id,
      firmware.id,
      firmware.id,
      null,
    ]);
    const told = answers[0]?.firmware;
    expect(told).toMatchObject({ yourState: "pending", progress: null, package: { version: "2.0.0", size: 1024 } });
    const url = new URL(told?.package.url ?? "", "https://x");
    expect(url.pathname).toBe(`/device/v1/firmware/${packages.next}`);
    const secret = firmwareSecret(env) ?? "";
    expect(await verifyDownloadUrl(secret, packages.next, url.searchParams, new Date())).toBe("ok");
    expect(await verifyDownloadUrl(secret, packages.old, url.searchParams, new Date())).toBe("invalid");

    const uid = radios[0] ?? "";
    expect((await report(uid, firmware.id, { state: "downloading", progress: 37 })).body.changed).toBe(true);
    // Progress below the next 10 % step, an earlier stage, the same report: nothing changes.
    expect((await report(uid, firmware.id, { state: "downloading", progress: 39 })).body.changed).toBe(false);
    expect((await checkIn(uid)).firmware).toMatchObject({ yourState: "downloading", progress: 30 });
    for (const state of ["downloaded", "verified", "installing"])
      expect((await report(uid, firmware.id, { state })).body.changed).toBe(true);
    expect((await report(uid, firmware.id, { state: "downloaded" })).body).toMatchObject({ changed: false, state: "installing" });
    expect((await report(uid, firmware.id, { state: "downloading", progress: 90 })).body.changed).toBe(false);
    expect((await report(uid, firmware.id, { state: "rebooting" })).body.changed).toBe(true);
    expect((await report(uid, firmware.id, { state: "updated" })).body.changed).toBe(true);
    // The radio runs the package at once, and its history says so.
    expect(await firmwareOf(uid)).toBe("2.0.0");
    const history = await env.DB.prepare("SELECT firmware, previous FROM device_firmware_history WHERE uid = ? ORDER BY at")
      .bind(uid)
      .all();
    // Its first firmware (set up above), then the update.
    expect(history.results).toEqual([
      { firmware: "1.0.0", previous: "" },
      { firmware: "2.0.0", previous: "1.0.0" },
    ]);
    expect((await report(uid, firmware.id, { state: "updated" })).body.changed).toBe(false);
    expect((await report(uid, firmware.id, { state: "booted-old" })).status).toBe(409);
    expect((await checkIn(uid)).firmware?.yourState).toBe("updated");

    // A failure names its stage; a radio of another model cannot report on it.
    expect((await report(radios[1] ?? "", firmware.id, { state: "failed" })).status).toBe(400);
    expect((await report(radios[5] ?? "", firmware.id, { state: "downloading" })).status).toBe(409);
    expect((await report(radios[4] ?? "", firmware.id, { state: "already_in_sync" })).status).toBe(200);

    // Two failures (one at verification, one booting the old firmware) reach the error threshold.
    expect((await report(radios[1] ?? "", firmware.id, { state: "failed", stage: "verify", code: "hash-mismatch" })).status).toBe(
      200,
    );
    expect((await report(radios[2] ?? "", firmware.id, { state: "booted-old", code: "watchdog" })).status).toBe(200);
    const paused = await get(firmware.id);
    expect(paused.deployment).toMatchObject({ state: "paused", pauseReason: "error-threshold" });
    expect(paused.counts.total).toMatchObject({ applied: 1, already_in_sync: 1, failed: 2 });
    expect(paused.stages).toMatchObject({ updated: 1, verify: 1, "booted-old": 1 });
    const radiosFailed = data(
      await call<{ items: { uid: string; stage: string; fromFirmware: string; code: string }[] }>(
        "deployments.radios",
        { id: firmware.id, state: "failed" },
        cookie,
        "GET",
      ),
    );
    expect(radiosFailed.items.map((r) => [r.uid, r.stage, r.fromFirmware, r.code])).toEqual([
      [radios[1], "verify", "1.0.0", "hash-mismatch"],
      [radios[2], "booted-old", "1.0.0", "watchdog"],
    ]);
    // The configuration's deployment never saw any of it.
    expect((await get(config.id)).counts.total.failed ?? 0).toBe(0);

    // Roll back: the package it replaced, to the radios it was for that the older package fits.
    const back = data(await call<Created>("deployments.rollback", { id: firmware.id }, cookie, "POST"));
    const rolled = await get(back.id);
    expect(rolled.kind).toBe("firmware");
    expect(rolled.deployment.package?.version).toBe("1.0.0");
    expect((await get(firmware.id)).deployment.state).toBe("superseded");
    expect((await checkIn(uid)).firmware).toMatchObject({ deployment: { id: back.id }, package: { version: "1.0.0" } });
    expect((await checkIn(radios[5] ?? "")).firmware).toBeNull();
    expect((await report(uid, back.id, { state: "updated" })).status).toBe(200);
    expect(await firmwareOf(uid)).toBe("1.0.0");
    // The configuration still has its own rollout.
    expect((await checkIn(uid)).deployment?.id).toBe(config.id);
  });

  it("gives radios the keys of their organization and those above it in their configuration, no other's", async () => {
    const parent = `org_fw_parent_${crypto.randomUUID().slice(0, 6)}`;
    const child = `org_fw_child_${crypto.randomUUID().slice(0, 6)}`;
    const other = `org_fw_other_${crypto.randomUUID().slice(0, 6)}`;
    for (const [id, parentId] of [
      [parent, null],
      [child, parent],
      [other, null],
    ] as const)
      await env.DB.prepare("INSERT INTO organizations (id, name, kind, parent_id) VALUES (?, ?, ?, ?)")
        .bind(id, id, parentId ? "customer" : "vendor", parentId)
        .run();
    for (const org of [parent, child, other])
      await env.DB.prepare("INSERT INTO firmware_signing_keys (org_id, key_id, public_key, private_key) VALUES (?, ?, ?, 'x')")
        .bind(org, `key_${org}`, `pub_${org}`)
        .run();
    const [uid] = await registerRadios(child, null as unknown as string, "FWK", 1);
    await env.DB.prepare("UPDATE devices SET account_id = NULL WHERE uid = ?").bind(uid).run();
    const response = await request("/device/v1/config", { headers: { Authorization: bearer(uid ?? "") } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as { firmwareKeys: { keyId: string; publicKey: string }[] };
    // Nearest organization first.
    expect(body.firmwareKeys).toEqual([child, parent].map((org) => ({ keyId: `key_${org}`, publicKey: `pub_${org}` })));
  });

  it("has nothing to roll back to when no package was installed before", async () => {
    const lone = await createUser({ role: "owner" });
    const loneAccount = await createAccount(lone.orgId, "Lone");
    await addPackage("fw_test_lone", lone.orgId, "5.0.0", ["NW-400"]);
    const loneCookie = await sessionCookie(lone.email);
    const created = data(
      await call<Created>(
        "deployments.create",
        { accountId: loneAccount, firmwarePackageId: "fw_test_lone" },
        loneCookie,
        "POST",
      ),
    );
    const rollback = await call("deployments.rollback", { id: created.id }, loneCookie, "POST");
    expect(rollback.error?.data.code).toBe("PRECONDITION_FAILED");
  });
});
