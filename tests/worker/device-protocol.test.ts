import { env, runInDurableObject } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { planDefaults } from "@/routes/deployments/plan-form";
import { allAtOnce as allAtOnceWith } from "@/schema/fleet/deployment-plan";
import { bucketOf } from "@/schema/fleet/rollout";
import type { DurableObjectState } from "@/server/cloudflare";
import { lastContactSql } from "@/server/data/radio-contact";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { type Answer, call, data } from "./api-calls";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// The device protocol (issue 12): credentials refused alike, bodies limited and validated,
// check-ins that write only when something changed, config with ETag and 304, reports that
// are idempotent and never move a radio backwards, and another tenant's deployments unknown.

function device(
  path: string,
  uid: string,
  init: { method?: string; body?: unknown; headers?: Record<string, string>; secret?: string } = {},
) {
  return request(`/device/v1${path}`, {
    method: init.method ?? (init.body === undefined ? "GET" : "POST"),
    headers: {
      Authorization: bearer(uid, init.secret),
      ...(init.body === undefined ? {} : { "Content-Type": "application/json" }),
      ...init.headers,
    },
    body: init.body === undefined ? undefined : typeof init.body === "string" ? init.body : JSON.stringify(init.body),
  });
}

type CheckIn = {
  desiredRevision: { id: string; number: number } | null;
  deployment: { id: string; state: string; yourState: string } | null;
  configEtag: string;
  pollSeconds: number;
  commands: unknown[];
};

let cookie = "";
let orgId = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  accountId = await createAccount(orgId, "Fleet");
  await giveSeats(orgId, accountId, 20);
  radios = await registerRadios(orgId, accountId, "PROTO", 6);
  cookie = await sessionCookie(owner.email);
});

describe("credentials", () => {
  it("refuses a missing, malformed, unknown, wrong or retired credential with the same 401", async () => {
    await env.DB.prepare("UPDATE devices SET status = 'retired' WHERE uid = ?").bind(radios[5]).run();
    const answers = await Promise.all([
      request("/device/v1/check-in", { method: "POST" }),
      request("/device/v1/check-in", { method: "POST", headers: { Authorization: "Bearer nocolon" } }),
      device("/check-in", "NOPE-1", { body: {} }),
      device("/check-in", radios[0] ?? "", { body: {}, secret: "b".repeat(64) }),
      device("/check-in", radios[5] ?? "", { body: {} }),
    ]);
    const bodies = await Promise.all(answers.map((a) => a.text()));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401, 401]);
    expect(new Set(bodies).size).toBe(1);
    expect(answers[0]?.headers.get("www-authenticate")).toContain("Bearer");
  });
});

describe("check-in", () => {
  it("answers with no desired revision, an empty command queue and a jittered poll interval", async () => {
    const response = await device("/check-in", radios[0] ?? "", { body: { firmware: "1.0.0", battery: 80 } });
    expect(response.status).toBe(200);
    const body = (await response.json()) as CheckIn;
    expect(body.desiredRevision).toBeNull();
    expect(body.commands).toEqual([]);
    expect(body.pollSeconds).toBeGreaterThanOrEqual(270);
    expect(body.pollSeconds).toBeLessThanOrEqual(330);
  });

  it("refuses oversized, malformed and unknown bodies with a 4xx", async () => {
    const uid = radios[0] ?? "";
    expect((await device("/check-in", uid, { body: { firmware: "x".repeat(5000) } })).status).toBe(413);
    expect((await device("/check-in", uid, { body: "{not json" })).status).toBe(400);
    expect((await device("/check-in", uid, { body: { battery: 900 } })).status).toBe(400);
    expect((await device("/check-in", uid, { body: { sneaky: true } })).status).toBe(400);
    expect((await device("/check-in", uid, { body: "{}", headers: { "Content-Type": "text/plain" } })).status).toBe(415);
  });

  it("writes last-seen only when the stored one is about 15 minutes old (the resolution), and something new at once", async () => {
    const uid = radios[1] ?? "";
    await device("/check-in", uid, { body: { firmware: "1.0.0", battery: 90 } });
    const first = await env.DB.prepare(`SELECT ${lastContactSql("devices")} AS seen, battery FROM devices WHERE uid = ?`)
      .bind(uid)
      .first<{ seen: string; battery: number }>();
    await device("/check-in", uid, { body: { firmware: "1.0.0", battery: 89 } });
    const second = await env.DB.prepare(`SELECT ${lastContactSql("devices")} AS seen, battery FROM devices WHERE uid = ?`)
      .bind(uid)
      .first<{ seen: string; battery: number }>();
    expect(second).toEqual(first);
    // A new firmware is written at once.
    await device("/check-in", uid, { body: { firmware: "1.1.0" } });
    const third = await env.DB.prepare("SELECT firmware FROM devices WHERE uid = ?").bind(uid).first<{ firmware: string }>();
    expect(third?.firmware).toBe("1.1.0");
  });
});

describe("before anything is deployed", () => {
  it("a radio of an account that deployed nothing is 'never deployed', not pending, on its page and in the counts", async () => {
    const acc = await createAccount(orgId, "Fresh fleet");
    await giveSeats(orgId, acc, 5);
    const [uid = ""] = await registerRadios(orgId, acc, "FRESH", 2);
    await device("/check-in", uid, { body: {} });
    const revision = data(await call<{ desired: unknown; sync: string }>("devices.revision", { uid }, cookie, "GET"));
    expect(revision).toMatchObject({ desired: null, sync: "neverDeployed" });
    const drift = data(await call<Record<string, unknown>>("deployments.drift", { accountId: acc }, cookie, "GET"));
    expect(drift).toMatchObject({ total: 2, sync: { pending: 0, neverDeployed: 2, inSync: 0 } });
    const page = await (await request(`/accounts/${acc}/registry/devices/view/${uid}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain('data-drift="neverDeployed"');
    expect(page).toContain("Never deployed");
    const registry = await (await request(`/accounts/${acc}/registry/devices`, { headers: { Cookie: cookie } })).text();
    expect(registry).toMatch(/data-count="neverDeployed"><dt[^>]*>Never deployed:<\/dt><dd[^>]*><a[^>]*>2<\/a><\/dd>/);
    expect(registry).toMatch(/data-count="pending"><dt[^>]*>Pending:<\/dt><dd[^>]*><a[^>]*>0<\/a><\/dd>/);
  });

  it("the confirm screen explains a deployed revision it cannot read instead of failing", async () => {
    const acc = await createAccount(orgId, "Broken revision fleet");
    await giveSeats(orgId, acc, 5);
    await registerRadios(orgId, acc, "BROKEN", 2);
    const first = data(await call<{ id: string }>("deployments.create", { accountId: acc }, cookie, "POST"));
    await env.DB.prepare("UPDATE revisions SET content = ? WHERE id = (SELECT revision_id FROM deployments WHERE id = ?)")
      .bind(JSON.stringify({ network: "not an object", rules: 7 }), first.id)
      .run();
    const preview = await call<{ unreadable: boolean; samples: { lines: unknown[] }[] }>(
      "deployments.preview",
      { accountId: acc },
      cookie,
      "GET",
    );
    expect(data(preview).unreadable).toBe(true);
    expect(data(preview).samples.every((s) => s.lines.length === 0)).toBe(true);
    const page = await request(`/accounts/${acc}/confirm-deployment`, { headers: { Cookie: cookie } });
    expect(page.status).toBe(200);
    expect(await page.text()).toContain("cannot be read");
  });
});

describe("timeouts", () => {
  it("radios that never report become timed out when the clock sweeps past the phase's timeout: counted, listed, and a late report still counts", async () => {
    const acc = await createAccount(orgId, "Silent fleet");
    await giveSeats(orgId, acc, 5);
    const uids = await registerRadios(orgId, acc, "SILENT", 3);
    const d = data(
      await call<{ id: string; timeoutAt: string }>(
        "deployments.create",
        { accountId: acc, plan: { ...allAtOnceWith(), timeoutMinutes: 60 } },
        cookie,
        "POST",
      ),
    );
    expect(Date.parse(d.timeoutAt) - Date.now()).toBeGreaterThan(55 * 60_000);
    const [first = "", second = ""] = uids;
    expect((await device(`/deployments/${d.id}/status`, first, { body: { state: "applied" } })).status).toBe(200);
    type Got = { deployment: { state: string; timedOutPhase: number }; counts: { total: Record<string, number> } };
    const before = data(await call<Got>("deployments.get", { id: d.id }, cookie, "GET"));
    expect(before.counts.total).toMatchObject({ applied: 1, pending: 2 });
    expect(before.counts.total.timed_out).toBeUndefined();

    // The clock (and the cron) before the timeout: nothing changes; after it: the silent radios time out.
    await stepDueDeployments(env, new Date(Date.now() + 30 * 60_000));
    expect(data(await call<Got>("deployments.get", { id: d.id }, cookie, "GET")).counts.total.timed_out).toBeUndefined();
    await stepDueDeployments(env, new Date(Date.now() + 61 * 60_000));
    const after = data(await call<Got>("deployments.get", { id: d.id }, cookie, "GET"));
    expect(after.deployment.state).toBe("running");
    expect(after.counts.total).toMatchObject({ applied: 1, timed_out: 2 });
    expect(after.counts.total.pending).toBeUndefined();
    const listed = data(
      await call<{ items: { uid: string }[] }>("deployments.radios", { id: d.id, state: "timed_out" }, cookie, "GET"),
    );
    expect(listed.items.map((r) => r.uid).sort()).toEqual(uids.slice(1).sort());
    expect(
      data(await call<{ items: unknown[] }>("deployments.radios", { id: d.id, state: "pending" }, cookie, "GET")).items,
    ).toEqual([]);
    const page = await (await request(`/accounts/${acc}/deployments/${d.id}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("Timed out");

    // A radio that reports late leaves "timed out" for what it reported.
    expect((await device(`/deployments/${d.id}/status`, second, { body: { state: "failed", code: "E1" } })).status).toBe(200);
    expect(data(await call<Got>("deployments.get", { id: d.id }, cookie, "GET")).counts.total).toMatchObject({
      timed_out: 1,
      failed: 1,
    });
  });

  it("a phase that a radio's report opens arms the clock for its timeout at once", async () => {
    const acc = await createAccount(orgId, "Clocked fleet");
    await giveSeats(orgId, acc, 12);
    const uids = await registerRadios(orgId, acc, "CLOCK", 10);
    const phase = { successPercent: 100, successAction: "next", errorKind: "count", errorValue: 5, errorMinimum: 0 };
    const plan = {
      phases: [
        { ...phase, share: 50, waitMinutes: 0 },
        { ...phase, share: 100, waitMinutes: 0 },
      ],
      timeoutMinutes: 240,
    };
    const d = data(await call<{ id: string }>("deployments.create", { accountId: acc, plan }, cookie, "POST"));
    const firstPhase = uids.filter((uid) => bucketOf(uid) < 5000);
    expect(firstPhase.length).toBeGreaterThan(0);
    // Nothing else would wake the clock: no alarm is set when the last report of phase one arrives
    // (a first radio call re-arms it once per isolate: made before the alarm is deleted).
    expect((await device("/check-in", firstPhase[0] ?? "", { body: {} })).status).toBe(200);
    const clocks = env.DEPLOYMENT_CLOCK;
    if (!clocks) throw new Error("DEPLOYMENT_CLOCK is not bound");
    const clock = clocks.get(clocks.idFromName("clock"));
    const alarm = () => runInDurableObject(clock, (_: unknown, state: DurableObjectState) => state.storage.getAlarm());
    await runInDurableObject(clock, (_: unknown, state: DurableObjectState) => state.storage.deleteAlarm());
    for (const uid of firstPhase) {
      expect((await device(`/deployments/${d.id}/status`, uid, { body: { state: "applied" } })).status).toBe(200);
    }
    type Got = { deployment: { state: string; phaseIndex: number; timeoutAt: string | null } };
    const opened = data(await call<Got>("deployments.get", { id: d.id }, cookie, "GET")).deployment;
    expect(opened).toMatchObject({ state: "running", phaseIndex: 1 });
    expect(Date.parse(opened.timeoutAt ?? "") - Date.now()).toBeGreaterThan(235 * 60_000);
    expect(await alarm()).toBe(Date.parse(opened.timeoutAt ?? ""));
  });

  it("refuses a timeout outside 5 minutes to 7 days", async () => {
    const answer = await call(
      "deployments.create",
      { accountId, plan: { ...allAtOnceWith(), timeoutMinutes: 1 } },
      cookie,
      "POST",
    );
    expect(answer.error?.data.code).toBe("BAD_REQUEST");
  });
});

describe("the confirm form", () => {
  const form = (more: Record<string, string>) => ({
    planKind: "phases",
    shares: "10, 50, 100",
    successPercent: "90",
    successAction: "next",
    errorKind: "count",
    errorValue: "5",
    errorMinimum: "0",
    waitMinutes: "0",
    successPerPhase: "",
    errorPerPhase: "",
    startAt: "",
    timeoutMinutes: "1440",
    switchover: "delivery",
    switchoverAt: "",
    maxDelayMinutes: "60",
    note: "",
    ...more,
  });

  it("takes a scheduled start and per-phase thresholds without JavaScript", async () => {
    const acc = await createAccount(orgId, "Planned fleet");
    await giveSeats(orgId, acc, 5);
    await registerRadios(orgId, acc, "PLAN", 2);
    const start = new Date(Date.now() + 3 * 3_600_000).toISOString().slice(0, 16);
    const answer = await postForm(
      `/accounts/${acc}/confirm-deployment`,
      form({ successPerPhase: "100, 95, 90", errorPerPhase: "1 2 3", startAt: start, timeoutMinutes: "120" }),
      { Cookie: cookie },
    );
    expect(answer.status).toBe(303);
    const id = decodeURIComponent(answer.headers.get("location")?.split("/").pop()?.split("?")[0] ?? "");
    type Got = {
      deployment: {
        state: string;
        plan: { startAt: string; timeoutMinutes: number; phases: { successPercent: number; errorValue: number }[] };
      };
    };
    const { deployment } = data(await call<Got>("deployments.get", { id }, cookie, "GET"));
    expect(deployment.state).toBe("scheduled");
    expect(deployment.plan.startAt).toBe(`${start}:00.000Z`);
    expect(deployment.plan.timeoutMinutes).toBe(120);
    expect(deployment.plan.phases.map((p) => [p.successPercent, p.errorValue])).toEqual([
      [100, 1],
      [95, 2],
      [90, 3],
    ]);
  });

  it("refuses a list that does not give one value per phase, a past start and a bad timeout, with field messages in the user's language", async () => {
    const acc = await createAccount(orgId, "Refused plan fleet");
    await giveSeats(orgId, acc, 5);
    const answer = await postForm(
      `/accounts/${acc}/confirm-deployment`,
      form({ successPerPhase: "100, 95", errorPerPhase: "1, 2, 300000", startAt: "2020-01-01T10:00", timeoutMinutes: "2" }),
      { Cookie: cookie },
    );
    expect(answer.status).toBe(400);
    const html = await answer.text();
    expect(html.match(/Give one whole number per phase/g)?.length).toBe(2);
    expect(html).toContain("Choose a time in the future.");
    expect(html).toContain("The timeout must be between 5 minutes and 7 days");
    const none = data(await call<{ items: unknown[] }>("deployments.list", { accountId: acc }, cookie, "GET"));
    expect(none.items).toEqual([]);
  });
});

describe("deployments through the protocol", () => {
  let deploymentId = "";

  it("gives the desired revision and its config with an ETag, then 304 while unchanged", async () => {
    await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
      .bind(JSON.stringify({ ntpServers: ["time.example.com"] }), accountId)
      .run();
    const created = data(await call<{ id: string; state: string }>("deployments.create", { accountId }, cookie, "POST"));
    deploymentId = created.id;
    expect(created.state).toBe("running");
    const uid = radios[0] ?? "";
    const checkIn = (await (await device("/check-in", uid, { body: {} })).json()) as CheckIn;
    expect(checkIn.desiredRevision?.number).toBe(1);
    expect(checkIn.deployment?.id).toBe(deploymentId);
    const config = await device("/config", uid);
    expect(config.status).toBe(200);
    const etag = config.headers.get("etag") ?? "";
    expect(etag).toBe(checkIn.configEtag);
    const body = (await config.json()) as { config: { network: { ntpServers: string[] } } };
    expect(body.config.network.ntpServers).toEqual(["time.example.com"]);
    const again = await device("/config", uid, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);
  });

  it("takes reports once: the same report twice changes nothing, a final one cannot be replaced", async () => {
    const uid = radios[0] ?? "";
    const path = `/deployments/${deploymentId}/status`;
    expect((await device(path, uid, { body: { state: "delivered" } })).status).toBe(200);
    const applied = await device(path, uid, { body: { state: "applied" } });
    expect(await applied.json()).toMatchObject({ state: "applied", changed: true });
    const repeat = await device(path, uid, { body: { state: "applied" } });
    expect(await repeat.json()).toMatchObject({ state: "applied", changed: false });
    // An older progress state after the final one is ignored, as docs/device-protocol.md says.
    const late = await device(path, uid, { body: { state: "delivered" } });
    expect({ status: late.status, body: await late.json() }).toMatchObject({
      status: 200,
      body: { state: "applied", changed: false },
    });
    expect((await device(path, uid, { body: { state: "failed" } })).status).toBe(409);
    expect((await device(path, uid, { body: { state: "exploded" } })).status).toBe(400);
    const reported = await env.DB.prepare("SELECT reported_revision FROM devices WHERE uid = ?")
      .bind(uid)
      .first<{ reported_revision: string }>();
    const got = data(
      await call<{ deployment: { revisionId: string }; counts: { total: Record<string, number> } }>(
        "deployments.get",
        { id: deploymentId },
        cookie,
        "GET",
      ),
    );
    expect(reported?.reported_revision).toBe(got.deployment.revisionId);
    // One radio (radios[5]) is retired: five targeted, one applied, four pending.
    expect(got.counts.total).toMatchObject({ applied: 1, pending: 4 });
  });

  it("the radio's page and the registry show the protocol's desired revision and deploy's drift", async () => {
    const uid = radios[0] ?? "";
    const checkIn = (await (await device("/check-in", uid, { body: {} })).json()) as CheckIn;
    const revision = data(
      await call<{ desired: { number: number } | null; reported: { number: number | null } | null; sync: string }>(
        "devices.revision",
        { uid },
        cookie,
        "GET",
      ),
    );
    expect(revision).toMatchObject({ desired: checkIn.desiredRevision, reported: { number: 1 }, sync: "inSync" });
    const page = await (
      await request(`/accounts/${accountId}/registry/devices/view/${uid}`, { headers: { Cookie: cookie } })
    ).text();
    const slot = page.slice(
      page.indexOf('data-slot="desired-revision"'),
      page.indexOf("</div>", page.indexOf('data-slot="desired-revision"')),
    );
    expect(slot).toContain('data-drift="inSync"');
    expect(slot).toContain("Desired: revision 1");
    expect(slot).toContain("In sync");
    // A radio that checked in but has not applied it yet: the same revision, pending.
    const waiting = data(await call<{ desired: unknown; sync: string }>("devices.revision", { uid: radios[1] }, cookie, "GET"));
    expect(waiting).toMatchObject({ desired: checkIn.desiredRevision, sync: "pending" });
    const registry = await (await request(`/accounts/${accountId}/registry/devices`, { headers: { Cookie: cookie } })).text();
    expect(registry).toMatch(/data-count="inSync"><dt[^>]*>In sync:<\/dt><dd[^>]*><a[^>]*>1<\/a><\/dd>/);
    const counts = data(await call<{ upToDate: number }>("devices.getConfiguredDeviceCounts", { accountId }, cookie, "GET"));
    expect(counts.upToDate).toBe(1);
  });

  it("does not know another tenant's deployment", async () => {
    const otherOrg = await createOrganization("Other");
    const otherAccount = await createAccount(otherOrg, "Other fleet");
    await giveSeats(otherOrg, otherAccount, 2);
    const [stranger = ""] = await registerRadios(otherOrg, otherAccount, "OTHER", 1);
    const answer = await device(`/deployments/${deploymentId}/status`, stranger, { body: { state: "delivered" } });
    expect(answer.status).toBe(404);
    const outsider = await createUser({ role: "owner", orgId: otherOrg });
    const outsiderCookie = await sessionCookie(outsider.email);
    const seen = await call("deployments.get", { id: deploymentId }, outsiderCookie, "GET");
    expect(seen.error?.data.code).toBe("NOT_FOUND");
    const acted = await call("deployments.act", { id: deploymentId, action: "pause" }, outsiderCookie, "POST");
    expect(acted.error?.data.code).toBe("NOT_FOUND");
  });

  it("answers a report about an unknown command 404 (commands: tests/worker/commands.test.ts)", async () => {
    const answer = await device("/commands/abc/status", radios[0] ?? "", { body: { state: "delivered" } });
    expect(answer.status).toBe(404);
    expect(await answer.json()).toMatchObject({ error: { code: "NOT_FOUND" } });
  });
});

describe("state machine", () => {
  it("answers CONFLICT for illegal transitions and logs every legal one", async () => {
    const d = data(await call<{ id: string }>("deployments.create", { accountId, note: "second" }, cookie, "POST"));
    expect(data(await call<{ state: string }>("deployments.act", { id: d.id, action: "pause" }, cookie, "POST")).state).toBe(
      "paused",
    );
    expect((await call("deployments.act", { id: d.id, action: "pause" }, cookie, "POST")).error?.data.code).toBe("CONFLICT");
    expect(data(await call<{ state: string }>("deployments.act", { id: d.id, action: "resume" }, cookie, "POST")).state).toBe(
      "running",
    );
    expect((await call("deployments.act", { id: d.id, action: "resume" }, cookie, "POST")).error?.data.code).toBe("CONFLICT");
    expect(data(await call<{ state: string }>("deployments.act", { id: d.id, action: "cancel" }, cookie, "POST")).state).toBe(
      "cancelled",
    );
    for (const action of ["pause", "resume", "advance", "cancel"]) {
      expect((await call("deployments.act", { id: d.id, action }, cookie, "POST")).error?.data.code).toBe("CONFLICT");
    }
    const logged = await env.DB.prepare(
      "SELECT count(*) AS n FROM activity_logs WHERE entity_type = 'deployment' AND entity_id = ?",
    )
      .bind(d.id)
      .first<{ n: number }>();
    expect(logged?.n).toBe(4);
  });

  it("refuses viewers", async () => {
    const viewer = await createUser({ role: "viewer", orgId });
    const viewerCookie = await sessionCookie(viewer.email);
    expect((await call("deployments.create", { accountId }, viewerCookie, "POST")).error?.data.code).toBe("FORBIDDEN");
  });
});

describe("phases and thresholds", () => {
  it("pauses in the same request that reported the failure crossing the error threshold", { timeout: 30_000 }, async () => {
    const org = await createOrganization("Phased");
    const acc = await createAccount(org, "Phased fleet");
    await giveSeats(org, acc, 50);
    const uids = await registerRadios(org, acc, "PHASE", 16);
    const owner = await createUser({ role: "owner", orgId: org });
    const ownerCookie = await sessionCookie(owner.email);
    const plan = {
      phases: [
        {
          share: 50,
          successPercent: 100,
          successAction: "next",
          errorKind: "count",
          errorValue: 2,
          errorMinimum: 0,
          waitMinutes: 0,
        },
        {
          share: 100,
          successPercent: 100,
          successAction: "next",
          errorKind: "percent",
          errorValue: 50,
          errorMinimum: 2,
          waitMinutes: 0,
        },
      ],
    };
    const d = data(await call<{ id: string }>("deployments.create", { accountId: acc, plan }, ownerCookie, "POST"));
    const firstPhase = uids.filter((uid) => bucketOf(uid) < 5000);
    const secondPhase = uids.filter((uid) => bucketOf(uid) >= 5000);
    expect(firstPhase.length).toBeGreaterThan(2);
    // A radio of the second phase is not included yet.
    const early = (await (await device("/check-in", secondPhase[0] ?? "", { body: {} })).json()) as CheckIn;
    expect(early.desiredRevision).toBeNull();
    expect((await device(`/deployments/${d.id}/status`, secondPhase[0] ?? "", { body: { state: "delivered" } })).status).toBe(
      409,
    );
    await device(`/deployments/${d.id}/status`, firstPhase[0] ?? "", { body: { state: "failed", code: "E42" } });
    const still = data(await call<{ deployment: { state: string } }>("deployments.get", { id: d.id }, ownerCookie, "GET"));
    expect(still.deployment.state).toBe("running");
    await device(`/deployments/${d.id}/status`, firstPhase[1] ?? "", { body: { state: "rejected" } });
    const paused = data(
      await call<{ deployment: { state: string; pauseReason: string } }>("deployments.get", { id: d.id }, ownerCookie, "GET"),
    );
    expect(paused.deployment).toMatchObject({ state: "paused", pauseReason: "error-threshold" });
    // Paused: a radio that had not started does not start.
    const waiting = (await (await device("/check-in", firstPhase[2] ?? "", { body: {} })).json()) as CheckIn;
    expect(waiting.desiredRevision).toBeNull();
    // Resume, and the rest of phase one applying opens phase two.
    data(await call("deployments.act", { id: d.id, action: "resume" }, ownerCookie, "POST"));
    await device(`/deployments/${d.id}/status`, firstPhase[0] ?? "", { body: { state: "applied" } }); // refused: final already
    for (const uid of firstPhase.slice(2)) await device(`/deployments/${d.id}/status`, uid, { body: { state: "applied" } });
    const afterSuccess = data(
      await call<{ deployment: { state: string; phaseIndex: number } }>("deployments.get", { id: d.id }, ownerCookie, "GET"),
    );
    // Phase one needs 100 % applied: two failed, so it waits for a person.
    expect(afterSuccess.deployment).toMatchObject({ state: "running", phaseIndex: 0 });
    data(await call("deployments.act", { id: d.id, action: "advance" }, ownerCookie, "POST"));
    const opened = (await (await device("/check-in", secondPhase[0] ?? "", { body: {} })).json()) as CheckIn;
    expect(opened.deployment?.id).toBe(d.id);
    for (const uid of secondPhase) await device(`/deployments/${d.id}/status`, uid, { body: { state: "applied" } });
    const done = data(
      await call<{ deployment: { state: string }; counts: { phases: { targeted: number }[] } }>(
        "deployments.get",
        { id: d.id },
        ownerCookie,
        "GET",
      ),
    );
    expect(done.deployment.state).toBe("finished");
    expect(done.counts.phases.map((p) => p.targeted)).toEqual([firstPhase.length, secondPhase.length]);
  });
});

describe("cancel and roll back", () => {
  it("cancel keeps finished radios and never starts the others; roll back deploys the earlier revision again", async () => {
    const org = await createOrganization("Rollback");
    const acc = await createAccount(org, "Rollback fleet");
    await giveSeats(org, acc, 5);
    const [a = "", b = ""] = await registerRadios(org, acc, "RB", 2);
    const owner = await createUser({ role: "owner", orgId: org });
    const ownerCookie = await sessionCookie(owner.email);
    await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
      .bind(JSON.stringify({ dnsServers: ["1.1.1.1"] }), acc)
      .run();
    const first = data(await call<{ id: string }>("deployments.create", { accountId: acc }, ownerCookie, "POST"));
    for (const uid of [a, b]) await device(`/deployments/${first.id}/status`, uid, { body: { state: "applied" } });
    await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
      .bind(JSON.stringify({ dnsServers: ["9.9.9.9"] }), acc)
      .run();
    const second = data(await call<{ id: string }>("deployments.create", { accountId: acc }, ownerCookie, "POST"));
    await device(`/deployments/${second.id}/status`, a, { body: { state: "applied" } });
    data(await call("deployments.act", { id: second.id, action: "cancel" }, ownerCookie, "POST"));
    const checkA = (await (await device("/check-in", a, { body: {} })).json()) as CheckIn;
    const checkB = (await (await device("/check-in", b, { body: {} })).json()) as CheckIn;
    expect(checkA.desiredRevision?.number).toBe(2);
    expect(checkB.desiredRevision?.number).toBe(1);
    const counts = data(
      await call<{ counts: { total: Record<string, number> } }>("deployments.get", { id: second.id }, ownerCookie, "GET"),
    );
    expect(counts.counts.total).toMatchObject({ applied: 1, cancelled: 1 });
    const rolled = data(await call<{ id: string }>("deployments.rollback", { id: second.id }, ownerCookie, "POST"));
    const afterA = (await (await device("/check-in", a, { body: {} })).json()) as CheckIn;
    expect(afterA.deployment?.id).toBe(rolled.id);
    expect(afterA.desiredRevision?.number).toBe(1);
    const revisions = await env.DB.prepare("SELECT count(*) AS n FROM revisions WHERE account_id = ?")
      .bind(acc)
      .first<{ n: number }>();
    expect(revisions?.n).toBe(2);
  });
});

describe("decisions, not reports, say what a radio is told (issue 23)", () => {
  it("a phased deployment never sends a radio outside its open phase back to a revision a later decision replaced", async () => {
    const org = await createOrganization("Decisions");
    const acc = await createAccount(org, "Decisions fleet");
    await giveSeats(org, acc, 50);
    const uids = await registerRadios(org, acc, "DEC", 40);
    const owner = await createUser({ role: "owner", orgId: org });
    const ownerCookie = await sessionCookie(owner.email);
    // A radio in the last bucket range: outside the first phase (30 %) of the phased deployment.
    const late = uids.find((uid) => bucketOf(uid) >= 5_000) ?? "";
    expect(late).not.toBe("");
    const setConfig = (dns: string) =>
      env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
        .bind(JSON.stringify({ dnsServers: [dns] }), acc)
        .run();
    const twoPhases = {
      phases: [
        {
          share: 30,
          successPercent: 100,
          successAction: "next",
          errorKind: "count",
          errorValue: 5,
          errorMinimum: 0,
          waitMinutes: 0,
        },
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
    };
    await setConfig("1.1.1.1");
    const a = data(await call<{ id: string }>("deployments.create", { accountId: acc }, ownerCookie, "POST"));
    data(await call("deployments.act", { id: a.id, action: "advance" }, ownerCookie, "POST"));
    // B goes to everybody; the radio is told B and has not reported yet.
    await setConfig("9.9.9.9");
    const b = data(await call<{ id: string }>("deployments.create", { accountId: acc }, ownerCookie, "POST"));
    const toldB = (await (await device("/check-in", late, { body: {} })).json()) as CheckIn;
    expect(toldB.deployment?.id).toBe(b.id);
    // C in two phases, the radio in phase 2: it keeps B, never A from the finished deployment.
    await setConfig("8.8.8.8");
    data(await call("deployments.create", { accountId: acc, plan: twoPhases }, ownerCookie, "POST"));
    const toldAfterC = (await (await device("/check-in", late, { body: {} })).json()) as CheckIn;
    expect(toldAfterC.deployment?.id).toBe(b.id);
    expect(toldAfterC.desiredRevision).toEqual(toldB.desiredRevision);
    // The same after a roll back: D rolls back to B's predecessor for everybody, then E goes
    // out in two phases; the radio outside E's open phase keeps the roll back's revision.
    const rolled = data(await call<{ id: string }>("deployments.rollback", { id: b.id }, ownerCookie, "POST"));
    const toldRollback = (await (await device("/check-in", late, { body: {} })).json()) as CheckIn;
    expect(toldRollback.deployment?.id).toBe(rolled.id);
    await setConfig("4.4.4.4");
    data(await call("deployments.create", { accountId: acc, plan: twoPhases }, ownerCookie, "POST"));
    const toldAfterE = (await (await device("/check-in", late, { body: {} })).json()) as CheckIn;
    expect(toldAfterE.deployment?.id).toBe(rolled.id);
  });

  it("an older progress report after a final one answers changed:false; another final state is a conflict", async () => {
    const org = await createOrganization("Late reports");
    const acc = await createAccount(org, "Late reports fleet");
    await giveSeats(org, acc, 5);
    const [uid = ""] = await registerRadios(org, acc, "LATE", 1);
    const owner = await createUser({ role: "owner", orgId: org });
    const ownerCookie = await sessionCookie(owner.email);
    const d = data(await call<{ id: string }>("deployments.create", { accountId: acc }, ownerCookie, "POST"));
    const report = async (state: string) => {
      const response = await device(`/deployments/${d.id}/status`, uid, { body: { state } });
      return { status: response.status, body: (await response.json()) as { changed?: boolean; state?: string } };
    };
    expect(await report("applied")).toMatchObject({ status: 200, body: { changed: true, state: "applied" } });
    expect(await report("delivered")).toMatchObject({ status: 200, body: { changed: false, state: "applied" } });
    expect(await report("applying")).toMatchObject({ status: 200, body: { changed: false, state: "applied" } });
    expect(await report("applied")).toMatchObject({ status: 200, body: { changed: false } });
    expect((await report("failed")).status).toBe(409);
  });

  it("confirming twice with one key (a double click, a retried post, two tabs) makes one deployment", async () => {
    const org = await createOrganization("Twice");
    const acc = await createAccount(org, "Twice fleet");
    await giveSeats(org, acc, 5);
    await registerRadios(org, acc, "TWICE", 2);
    const owner = await createUser({ role: "owner", orgId: org });
    const ownerCookie = await sessionCookie(owner.email);
    const input = { accountId: acc, idempotencyKey: "next-1" };
    const [one, two] = await Promise.all([
      call<{ id: string }>("deployments.create", input, ownerCookie, "POST"),
      call<{ id: string }>("deployments.create", input, ownerCookie, "POST"),
    ]);
    expect(data(two).id).toBe(data(one).id);
    // The confirm form carries the key of the deployment it is about to make; posted twice, one deployment.
    const page = await (await request(`/accounts/${acc}/confirm-deployment`, { headers: { Cookie: ownerCookie } })).text();
    const key = /name="idempotencyKey" value="([^"]+)"/.exec(page)?.[1] ?? "";
    expect(key).toBe("next-2");
    for (let i = 0; i < 2; i++) {
      const posted = await postForm(
        `/accounts/${acc}/confirm-deployment`,
        { ...planDefaults, planKind: "all", idempotencyKey: key },
        { Cookie: ownerCookie },
      );
      expect(posted.status).toBe(303);
    }
    const second = await env.DB.prepare("SELECT id FROM deployments WHERE account_id = ? AND number = 2")
      .bind(acc)
      .first<{ id: string }>();
    const rolled = await Promise.all(
      [0, 1].map(() =>
        call<{ id: string }>("deployments.rollback", { id: second?.id, idempotencyKey: "next-3" }, ownerCookie, "POST"),
      ),
    );
    expect(data(rolled[1] as Answer<{ id: string }>).id).toBe(data(rolled[0] as Answer<{ id: string }>).id);
    const { n } = (await env.DB.prepare("SELECT count(*) AS n FROM deployments WHERE account_id = ?").bind(acc).first<{
      n: number;
    }>()) ?? { n: 0 };
    expect(n).toBe(3);
  });
});
