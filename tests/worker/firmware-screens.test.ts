import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { firmwareDrift } from "@/server/data/firmware-drift";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Firmware on the screens (issue 26): a radio's firmware and its history, the firmware report's
// "update these radios" (only for people who may deploy), and firmware drift beside the
// configuration drift, in the words of two languages, never across tenants.

let owner = "";
let configurator = "";
let viewer = "";
let stranger = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];
const packageId = `fwp_${crypto.randomUUID().slice(0, 12)}`;
const plan = (shares: number[]) =>
  JSON.stringify({
    phases: shares.map((share) => ({
      share,
      successPercent: 100,
      successAction: "next",
      errorKind: "count",
      errorValue: 1,
      errorMinimum: 0,
      waitMinutes: 0,
    })),
  });

const html = async (path: string, cookie = owner) => {
  const response = await request(path, { headers: { Cookie: cookie } });
  return { status: response.status, text: await response.text() };
};

async function call(path: string, input: unknown, cookie = owner) {
  const response = await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { Origin: ORIGIN, Cookie: cookie },
  });
  return (await response.json()) as { result?: { data: unknown }; error?: { data: { code: string; httpStatus: number } } };
}

/** A firmware deployment row as the engine confirms one (the engine's own tests cover how). */
async function firmwareDeployment(number: number, state: string, shares: number[], phaseIndex: number, target: string | null) {
  const id = `dep_fw_${crypto.randomUUID().slice(0, 8)}`;
  const revision = `rev_fw_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare("INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES (?, ?, ?, 'x', '{}')").bind(
      revision,
      accountId,
      number,
    ),
    env.DB.prepare(
      `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, kind, package_id,
         phase_index, target, started_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, '{"mode":"delivery"}', 0, 'test', 'firmware', ?, ?, ?, '2026-11-20T10:00:00.000Z')`,
    ).bind(id, accountId, orgId, number, revision, state, plan(shares), packageId, phaseIndex, target),
  ]);
  return id;
}

beforeAll(async () => {
  const boss = await createUser({ role: "owner" });
  orgId = boss.orgId;
  accountId = await createAccount(orgId, "Firmware screens fleet", "advanced");
  await giveSeats(orgId, accountId, 20);
  radios = await registerRadios(orgId, accountId, "FWS", 6);
  // Each firmware change is a row of the radio's history (the trigger of migration 0041).
  await env.DB.prepare("UPDATE devices SET firmware = '1.0' WHERE uid IN (?, ?, ?, ?, ?)")
    .bind(...radios.slice(0, 5))
    .run();
  await env.DB.prepare("UPDATE devices SET firmware = '2.0' WHERE uid IN (?, ?, ?)")
    .bind(...radios.slice(0, 3))
    .run();
  await env.DB.prepare("UPDATE devices SET model = 'XR-9', firmware = '1.0' WHERE uid = ?").bind(radios[5]).run();
  await env.DB.prepare(
    `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, created_by)
     VALUES (?, ?, '2.0', '["NW-400"]', 'ready', ?, 1024, 'ab', 'test')`,
  )
    .bind(packageId, orgId, `packages/${packageId}`)
    .run();
  owner = await sessionCookie(boss.email);
  configurator = await sessionCookie((await createUser({ role: "configurator", orgId })).email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId })).email);
  stranger = await sessionCookie((await createUser({ role: "owner" })).email);
});

describe("a radio's firmware", () => {
  it("shows the version it runs and its history, newest first, in the reader's language", async () => {
    const page = await html(`/accounts/${accountId}/registry/devices/view/${radios[0]}`, viewer);
    expect(page.status).toBe(200);
    expect(page.text).toContain("Runs: 2.0");
    const table = page.text.slice(page.text.indexOf('data-slot="firmware-history"'));
    const rows = [
      ...table.matchAll(/<tr><td[^>]*><time[^>]*>[^<]*<\/time><\/td><td[^>]*>([^<]*)<\/td><td[^>]*>([^<]*)<\/td>/g),
    ].map((match) => `${match[1]} → ${match[2]}`);
    expect(rows).toEqual(["1.0 → 2.0", "none reported → 1.0"]);

    const french = await html(`/accounts/${accountId}/registry/devices/view/${radios[0]}`, `${viewer}; lang=fr-CA`);
    expect(french.text).toContain("Historique du micrologiciel");
    expect(french.text).toContain("Version en service : 2.0");
    const quiet = await html(`/accounts/${accountId}/registry/devices/view/${radios[5]}`);
    expect(quiet.text).toContain("Runs: 1.0");
  });

  it("pages the history by time, and a radio without changes says so", async () => {
    const first = (await call("devices.firmwareHistory", { uid: radios[0], limit: 1 })).result?.data as {
      items: { firmware: string }[];
      next: string | null;
    };
    expect(first.items.map((item) => item.firmware)).toEqual(["2.0"]);
    expect(first.next).not.toBeNull();
    const older = (await call("devices.firmwareHistory", { uid: radios[0], limit: 1, before: first.next })).result?.data as {
      items: { firmware: string; previous: string }[];
      next: string | null;
    };
    expect(older.items).toMatchObject([{ firmware: "1.0", previous: "" }]);
    expect(older.next).toBeNull();
    const uid = `FWS-NEW-${crypto.randomUUID().slice(0, 6)}`;
    await env.DB.prepare(
      "INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash) VALUES (?, ?, ?, 'Northwind', 'NW-400', 'x')",
    )
      .bind(uid, orgId, accountId)
      .run();
    const page = await html(`/accounts/${accountId}/registry/devices/view/${uid}`);
    expect(page.text).toContain("This radio has not reported a firmware change yet.");
    expect(page.text).toContain("Runs: none reported");
  });

  it("is another tenant's secret: NOT_FOUND, as a page and as a call", async () => {
    const answer = await call("devices.firmwareHistory", { uid: radios[0] }, stranger);
    expect(answer.error?.data.code).toBe("NOT_FOUND");
    expect((await html(`/devices/view/${radios[0]}`, stranger)).status).toBe(404);
    const bad = await call("devices.firmwareHistory", { uid: radios[0], before: "yesterday" });
    expect(bad.error?.data.httpStatus).toBe(400);
  });
});

describe("the firmware report", () => {
  it("links each version's radios to a firmware deployment, for people who may deploy", async () => {
    const link = `href="/accounts/${accountId}/confirm-deployment?kind=firmware&amp;firmware=2.0"`;
    const forConfigurator = await html(`/accounts/${accountId}/reports/firmware`, configurator);
    expect(forConfigurator.status).toBe(200);
    expect(forConfigurator.text).toContain(link);
    expect(forConfigurator.text).toContain(`firmware=1.0"`);
    expect(forConfigurator.text).toContain("Update these radios");
    const spanish = await html(`/accounts/${accountId}/reports/firmware`, `${configurator}; lang=es-MX`);
    expect(spanish.text).toContain("Actualizar estos radios");

    const forViewer = await html(`/accounts/${accountId}/reports/firmware`, viewer);
    expect(forViewer.status).toBe(200);
    expect(forViewer.text).not.toContain("confirm-deployment");
    expect(forViewer.text).not.toContain("Update these radios");
  });

  it("opens the firmware confirm page with the version as the target's firmware", async () => {
    const page = await html(`/accounts/${accountId}/confirm-deployment?kind=firmware&firmware=1.0`, configurator);
    expect(page.status).toBe(200);
    expect(page.text).toContain("New firmware deployment");
    expect(page.text).toMatch(/name="targetFirmware"[^>]*value="1.0"|value="1.0"[^>]*name="targetFirmware"/);
    expect(page.text).toContain(`<option value="${packageId}">2.0 — NW-400 (`);
    expect(page.text).toContain(`action="/accounts/${accountId}/confirm-deployment?kind=firmware"`);
    // Firmware installs as the radio goes through its stages: no switchover to choose.
    expect(page.text).not.toContain('name="switchover"');
  });
});

describe("firmware drift", () => {
  it("says nothing while no firmware deployment has radios", async () => {
    expect(await firmwareDrift(env.DB, accountId)).toEqual({ deployment: null, runs: 0, differs: 0 });
    const page = await html(`/accounts/${accountId}/registry/devices`, viewer);
    expect(page.text).not.toContain('data-slot="firmware-drift"');
  });

  it("counts the radios the newest firmware deployment holds: those on its version, those on another", async () => {
    // Finished, every radio: the roll-up counts. The XR-9 radio is not a model the package fits;
    // two run 1.0 and the radio added above never reported a version.
    const finished = await firmwareDeployment(1, "finished", [100], 0, JSON.stringify({ kind: "filter", models: ["NW-400"] }));
    expect(await firmwareDrift(env.DB, accountId)).toMatchObject({
      deployment: { id: finished, number: 1, version: "2.0" },
      runs: 3,
      differs: 3,
    });
    const page = await html(`/accounts/${accountId}/registry/devices`, viewer);
    expect(page.text).toContain('data-slot="firmware-drift"');
    expect(page.text).toContain(`href="/accounts/${accountId}/registry/devices?firmware=2.0"`);
    expect(page.text).toMatch(/data-count="firmware-runs"[\s\S]*?>3<\/a>/);
    expect(page.text).toMatch(/data-count="firmware-differs"[\s\S]*?>3<\/a>/);
    expect(page.text).toContain(`href="/accounts/${accountId}/deployments/${finished}"`);
    const french = await html(`/accounts/${accountId}/registry/devices`, `${viewer}; lang=fr-CA`);
    expect(french.text).toContain("Sur un autre micrologiciel :");

    // A newer one running its first phase of none of the buckets, with a target: the radio pass counts.
    const running = await firmwareDeployment(
      2,
      "running",
      [0, 100],
      0,
      JSON.stringify({ kind: "filter", firmware: "1.0", models: ["NW-400"] }),
    );
    expect(await firmwareDrift(env.DB, accountId)).toMatchObject({ deployment: { id: running }, runs: 0, differs: 0 });
    await env.DB.prepare("UPDATE deployments SET phase_index = 1 WHERE id = ?").bind(running).run();
    expect(await firmwareDrift(env.DB, accountId)).toMatchObject({ deployment: { id: running }, runs: 0, differs: 2 });
    // Scheduled and cancelled ones hold no radio: the running one stays the newest that does.
    await firmwareDeployment(3, "cancelled", [100], 0, JSON.stringify({ kind: "filter", models: ["NW-400"] }));
    expect((await firmwareDrift(env.DB, accountId)).deployment?.id).toBe(running);
  });

  it("reads on indexes: the newest firmware deployment by the account's kind index, the radios by the place index", async () => {
    const plan = async (sql: string, ...params: unknown[]) =>
      (
        await env.DB.prepare(`EXPLAIN QUERY PLAN ${sql}`)
          .bind(...params)
          .all<{ detail: string }>()
      ).results
        .map((row) => row.detail)
        .join("\n");
    const newest = await plan(
      `SELECT d.id FROM deployments d JOIN firmware_packages p ON p.id = d.package_id
       WHERE d.account_id = ?1 AND d.kind = 'firmware' AND d.state IN ('running', 'paused', 'finished') ORDER BY d.number DESC LIMIT 1`,
      accountId,
    );
    expect(newest).toContain("USING INDEX deployments_account_kind (account_id=? AND kind=?)");
    expect(newest).not.toContain("TEMP B-TREE");
    const radiosPlan = await plan(
      `SELECT count(*), sum(v.firmware = '2.0') FROM devices v INDEXED BY devices_account_site_firmware
       WHERE v.account_id = ?1 AND v.status = 'active' AND v.rollout_bucket < 5000
         AND v.model IN (SELECT value FROM json_each('["NW-400"]')) AND v.site_id = 'x'`,
      accountId,
    );
    // SQLite does not call an index holding a generated column (the bucket) covering; it is the
    // index searched on the account, never a scan of the table.
    expect(radiosPlan).toMatch(/SEARCH v USING (COVERING )?INDEX devices_account_site_firmware \(account_id=\? AND status=\?/);
    expect(radiosPlan).not.toMatch(/SCAN v\b/);
    const rollupPlan = await plan(
      `SELECT sum(r.radios) FROM report_device_counts r
       WHERE r.account_id = ?1 AND r.model IN (SELECT value FROM json_each('["NW-400"]')) AND r.site_id = 'x'`,
      accountId,
    );
    expect(rollupPlan).toMatch(/SEARCH r USING PRIMARY KEY \(account_id=\? AND site_id=\?/);
  });

  it("is refused for another tenant's account", async () => {
    const answer = await call("devices.firmwareDrift", { accountId }, stranger);
    expect(answer.error?.data.httpStatus).toBeGreaterThanOrEqual(400);
    expect(answer.error?.data.httpStatus).toBeLessThan(500);
  });
});

describe("a firmware deployment, confirmed and watched without JavaScript", () => {
  const confirmPath = () => `/accounts/${accountId}/confirm-deployment?kind=firmware`;
  const form = (fields: Record<string, string>) => ({
    kind: "firmware",
    planKind: "all",
    shares: "",
    waitMinutes: "0",
    successPercent: "100",
    successAction: "next",
    errorKind: "count",
    errorValue: "1",
    errorMinimum: "0",
    paceKind: "none",
    targetFirmware: "1.0",
    ...fields,
  });
  let created = "";

  it("says which package is missing, and counts how the target's radios fit before confirming", async () => {
    const missing = await postForm(confirmPath(), form({}), { Cookie: configurator });
    expect(missing.status).toBe(400);
    expect(await missing.text()).toContain("Choose the package to install.");

    const counted = await postForm(confirmPath(), form({ packageId, intent: "count" }), { Cookie: configurator });
    expect(counted.status).toBe(200);
    const text = await counted.text();
    // Three radios run 1.0: two NW-400 the package fits, one XR-9 it does not.
    expect(text).toContain("Radios in this target: 3; the package fits 2 of them.");
    expect(text).toContain("Already on 2.0: 0.");
    expect(text).toContain("Left out, another model: XR-9 (1).");
    // The plan's phases count only the radios the package fits.
    expect(text).toContain("Phase 1: 2 radios");
    const french = await postForm(confirmPath(), form({ packageId, intent: "count" }), { Cookie: `${configurator}; lang=fr-CA` });
    expect(await french.text()).toContain("Exclues, autre modèle : XR-9 (1).");

    const foreign = await postForm(confirmPath(), form({ packageId: "fwp_not_ours", intent: "count" }), { Cookie: configurator });
    expect(foreign.status).toBe(404);
    expect(await foreign.text()).toContain("That firmware package was not found");
  });

  it("confirms it, and the deployment's pages say what it installs and where each radio is", async () => {
    const posted = await postForm(confirmPath(), form({ packageId, idempotencyKey: "fw-screens-1" }), { Cookie: configurator });
    expect(posted.status).toBe(303);
    const location = posted.headers.get("location") ?? "";
    expect(location).toMatch(new RegExp(`^/accounts/${accountId}/deployments/`));
    created = location.split("/").pop() ?? "";

    const list = await html(`/accounts/${accountId}/deployments`, configurator);
    expect(list.text).toContain("Firmware 2.0");
    expect(list.text).toContain(`href="/accounts/${accountId}/confirm-deployment?kind=firmware"`);
    expect(list.text).toContain("New firmware deployment");
    const forViewer = await html(`/accounts/${accountId}/deployments`, viewer);
    expect(forViewer.text).not.toContain("New firmware deployment");
    expect((await html(confirmPath(), viewer)).status).toBe(403);
    const listed = await call("deployments.firmwarePackages", { accountId }, viewer);
    expect(listed.error?.data.httpStatus).toBe(403);
    const chosen = await html(`${confirmPath()}&package=${packageId}`, configurator);
    expect(chosen.text).toContain(`<option value="${packageId}" selected="">2.0`);

    // One radio downloading at 40 %, one failed verification.
    await env.DB.batch([
      env.DB.prepare(
        `INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, detail, updated_at, stage, progress, from_firmware)
         VALUES (?, ?, 0, 'applying', '', '', '2026-11-27T07:00:00.000Z', 'downloading', 40, '1.0'),
                (?, ?, 0, 'failed', 'hash', 'SHA-256 differs', '2026-11-27T07:00:00.000Z', 'verify', NULL, '1.0')`,
      ).bind(created, radios[3], created, radios[4]),
    ]);
    const page = await html(`/accounts/${accountId}/deployments/${created}`, viewer);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`href="/accounts/${accountId}/registry/firmware/view/${packageId}"`);
    expect(page.text).toContain("models the package fits: NW-400");
    expect(page.text).toMatch(
      /data-stage="downloading"[\s\S]*?\(on average <span data-average-percent="">40\s?%<\/span>\)[\s\S]*?data-stage-count="downloading"[^>]*>1</,
    );
    expect(page.text).toMatch(/data-stage-count="verify"[^>]*>1</);
    expect(page.text).toMatch(/data-stage-count="updated"[^>]*>0</);
    const failed = await html(`/accounts/${accountId}/deployments/${created}?state=failed`, viewer);
    expect(failed.text).toContain("Failed verification");
    expect(failed.text).toContain("hash — SHA-256 differs");
    const portuguese = await html(`/accounts/${accountId}/deployments/${created}?state=applying`, `${viewer}; lang=pt-BR`);
    expect(portuguese.text).toContain("Baixando (40 %)");
    expect(portuguese.text).toContain("Rádios por etapa do firmware");
  });

  it("shows the radio what it should run and where it is on the way", async () => {
    const page = await html(`/accounts/${accountId}/registry/devices/view/${radios[3]}`, viewer);
    expect(page.text).toMatch(/data-slot="desired-firmware"[^>]*>Desired: 2.0, by/);
    expect(page.text).toContain(`href="/accounts/${accountId}/deployments/${created}"`);
    expect(page.text).toMatch(/Where it is: Downloading \(40\s?%\)/);
    // Its deployments' history names what the firmware one installs, and the stage it reported.
    const history = page.text.slice(page.text.indexOf('data-slot="radio-deployments"'));
    expect(history).toMatch(/Firmware 2.0<\/td><td[^>]*>[^<]+<\/td><td[^>]*>Applying · Downloading/);
    // A radio of a model the package does not fit: no firmware deployment holds it.
    const other = await html(`/accounts/${accountId}/registry/devices/view/${radios[5]}`, viewer);
    expect(other.text).toContain("Desired: no firmware deployment holds this radio.");
  });

  it("lets the one who confirms choose what rolling back installs, among the versions its radios run", async () => {
    const older = `fwp_${crypto.randomUUID().slice(0, 12)}`;
    await env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, created_by)
       VALUES (?, ?, '1.0', '["NW-400"]', 'ready', ?, 1024, 'ef', 'test')`,
    )
      .bind(older, orgId, `packages/${older}`)
      .run();
    const counted = await postForm(confirmPath(), form({ packageId, intent: "count" }), { Cookie: configurator });
    const text = await counted.text();
    expect(text).toContain('name="rollbackPackageId"');
    expect(text).toContain(`<option value="${older}">1.0 (run by 2 of these radios now)</option>`);
    // A crafted fit in the post is never read: the page counts again.
    const crafted = await postForm(confirmPath(), form({ packageId, fit: "{not json" }), { Cookie: viewer });
    expect(crafted.status).toBe(403);
    const bad = await postForm(confirmPath(), form({ packageId, rollbackPackageId: "fwp_not_ours", fit: "{" }), {
      Cookie: configurator,
    });
    expect(bad.status).toBeLessThan(500);
    expect(await bad.text()).toContain("That firmware package was not found");
  });

  it("offers to roll back to the firmware it replaced", async () => {
    // The account's newest firmware deployment before it installed the same package: a second package makes a rollback.
    const newer = `fwp_${crypto.randomUUID().slice(0, 12)}`;
    await env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, created_by)
       VALUES (?, ?, '2.1', '["NW-400"]', 'ready', ?, 1024, 'cd', 'test')`,
    )
      .bind(newer, orgId, `packages/${newer}`)
      .run();
    const posted = await postForm(confirmPath(), form({ packageId: newer, idempotencyKey: "fw-screens-2" }), {
      Cookie: configurator,
    });
    expect(posted.status).toBe(303);
    const page = await html(posted.headers.get("location") ?? "", configurator);
    expect(page.text).toContain("Roll back to firmware 2.0");
    expect((await html(posted.headers.get("location") ?? "", viewer)).text).not.toContain("Roll back to firmware");
  });
});
