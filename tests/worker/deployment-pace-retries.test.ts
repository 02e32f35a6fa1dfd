import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { planDefaults } from "@/routes/deployments/plan-form";
import { allAtOnce } from "@/schema/fleet/deployment-plan";
import { paceSteps } from "@/schema/fleet/pace-and-retries";
import { bucketOf } from "@/schema/fleet/rollout";
import { findDeployment } from "@/server/data/deployments";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { call, data } from "./api-calls";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// Pace and automatic retries (issue 25, after AWS IoT Jobs' maximumPerMinute, exponential rate
// and retry config). Each phase is offered a few radios a minute by the clock (a simulated one
// here), one row written a step; an exponential rate grows only while the phase's successes
// hold; a pause stops it. A radio's failure with attempts left is a retry after a doubling
// backoff, and only its last failure counts against the thresholds.

let cookie = "";
let orgId = "";

async function told(uids: string[]): Promise<string[]> {
  const answers = await Promise.all(
    uids.map(async (uid) => {
      const response = await request("/device/v1/check-in", {
        method: "POST",
        headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
        body: "{}",
      });
      const body = (await response.json()) as { deployment: { id: string } | null };
      return body.deployment ? uid : null;
    }),
  );
  return answers.filter((uid): uid is string => uid !== null);
}

async function fleet(name: string, radios: number) {
  const accountId = await createAccount(orgId, name);
  await giveSeats(orgId, accountId, radios);
  const uids = await registerRadios(orgId, accountId, name.toUpperCase(), radios);
  return { accountId, uids };
}

/** The clock `minutes` after the deployment's pace started (its first step is due at once). */
async function clockAt(deploymentId: string, start: string, minutes: number) {
  await stepDueDeployments(env, new Date(Date.parse(start) + minutes * 60_000 + 1_000));
  const d = await findDeployment(env.DB, deploymentId);
  if (!d) throw new Error("gone");
  return d;
}

beforeAll(async () => {
  const owner = await createUser({ role: "owner" });
  orgId = owner.orgId;
  cookie = await sessionCookie(owner.email);
});

describe("a fixed pace", () => {
  it("offers about N radios a minute, only to them, until every radio of the phase has it", async () => {
    const { accountId, uids } = await fleet("paced", 40);
    const plan = { ...allAtOnce(), pace: { maximumPerMinute: 10 } };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const opened = await findDeployment(env.DB, created.id);
    const start = opened?.paceAt ?? "";
    expect(start).not.toBe("");

    // The first minute is offered as the phase opens; the clock offers 10 more a minute.
    const seen: number[] = [];
    for (let minute = -1; minute < 3; minute++) {
      const d = minute < 0 ? opened : await clockAt(created.id, start, minute);
      const offered = await told(uids);
      // Exactly the radios below the bound are told.
      const bound = d?.pacedTo ?? 10_000;
      expect(offered.sort()).toEqual(uids.filter((uid) => bucketOf(uid) < bound).sort());
      expect(d?.paceOffered).toBe(Math.min(40, 10 * (minute + 2)));
      seen.push(offered.length);
    }
    expect(seen[0]).toBeLessThan(40);
    expect(seen.every((n, i) => i === 0 || n >= (seen[i - 1] ?? 0))).toBe(true);
    const done = await findDeployment(env.DB, created.id);
    expect(done).toMatchObject({ pacedTo: null, paceAt: null, paceOffered: 40 });
    expect(await told(uids)).toHaveLength(40);
    // The radios' timeout counts from the last step, so the last ones offered get all of it.
    expect(Date.parse(done?.timeoutAt ?? "")).toBeGreaterThan(Date.parse(start) + 3 * 60_000);
  });

  it("a paused deployment stops offering; resumed, it goes on from where it was", async () => {
    const { accountId, uids } = await fleet("pausing", 30);
    const plan = { ...allAtOnce(), pace: { maximumPerMinute: 10 } };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const start = (await findDeployment(env.DB, created.id))?.paceAt ?? "";
    const before = await findDeployment(env.DB, created.id);
    data(await call("deployments.act", { id: created.id, action: "pause" }, cookie, "POST"));
    const paused = await clockAt(created.id, start, 5);
    expect(paused.paceOffered).toBe(before?.paceOffered);
    expect(await told(uids)).toEqual([]); // paused: only radios that reported keep it, and none did
    data(await call("deployments.act", { id: created.id, action: "resume" }, cookie, "POST"));
    const resumed = await clockAt(created.id, start, 6);
    expect(resumed.paceOffered).toBeGreaterThan(before?.paceOffered ?? 0);
  });
});

describe("what a pace step costs", () => {
  it("leaves the account's fleet version alone and names only the radios it offers in the change log", async () => {
    const { accountId, uids } = await fleet("cheap", 50);
    const plan = { ...allAtOnce(), pace: { maximumPerMinute: 10 } };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const opened = await findDeployment(env.DB, created.id);
    const version = async () =>
      (
        await env.DB.prepare("SELECT version FROM fleet_versions WHERE account_id = ?")
          .bind(accountId)
          .first<{ version: number }>()
      )?.version;
    const lastSeq = async () =>
      (await env.DB.prepare("SELECT max(seq) AS seq FROM radio_changes").first<{ seq: number }>())?.seq ?? 0;
    const loggedSince = async (seq: number) =>
      (
        await env.DB.prepare("SELECT uid FROM radio_changes WHERE seq > ? AND uid LIKE 'CHEAP-%' ORDER BY uid")
          .bind(seq)
          .all<{ uid: string }>()
      ).results.map((row) => row.uid);
    const [versionBefore, seqBefore] = [await version(), await lastSeq()];
    const stepped = await clockAt(created.id, opened?.paceAt ?? "", 0);
    const bound = (d: { pacedTo: number | null } | null) => d?.pacedTo ?? 10_000;
    const newlyOffered = uids.filter((uid) => bucketOf(uid) >= bound(opened) && bucketOf(uid) < bound(stepped)).sort();
    expect(newlyOffered.length).toBeGreaterThan(0);
    expect(await version()).toBe(versionBefore);
    expect(await loggedSince(seqBefore)).toEqual(newlyOffered);
    // And those radios are told at once; a pause (a decision) moves the version as before.
    expect((await told(uids)).sort()).toEqual(uids.filter((uid) => bucketOf(uid) < bound(stepped)).sort());
    data(await call("deployments.act", { id: created.id, action: "pause" }, cookie, "POST"));
    expect(await version()).toBeGreaterThan(versionBefore ?? 0);
  });
});

describe("an exponential pace", () => {
  it("grows by its factor while successes hold, and stops growing when failures take the phase below its success rate", () => {
    const pace = { exponential: { start: 2, factor: 2 }, maximumPerMinute: 16 };
    let state = { offered: 0, rate: 2 };
    const offered: number[] = [];
    for (let minute = 0; minute < 5; minute++) {
      state = paceSteps(pace, state, 1, 1_000, true);
      offered.push(state.offered);
    }
    expect(offered).toEqual([2, 6, 14, 30, 46]); // 2, 4, 8, 16, then capped at 16
    const held = paceSteps(pace, { offered: 0, rate: 2 }, 3, 1_000, false);
    expect(held).toEqual({ offered: 6, rate: 2 });
  });

  it("on the engine: a failing phase keeps the first rate", async () => {
    const { accountId, uids } = await fleet("growing", 60);
    const plan = {
      phases: [{ ...allAtOnce().phases[0], successPercent: 90, errorKind: "count", errorValue: 50 }],
      pace: { exponential: { start: 4, factor: 2 } },
    };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const first = await findDeployment(env.DB, created.id);
    const start = first?.paceAt ?? "";
    expect(first).toMatchObject({ paceOffered: 4, paceRate: 8 });
    for (const uid of await told(uids))
      await request(`/device/v1/deployments/${created.id}/status`, {
        method: "POST",
        headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
        body: JSON.stringify({ state: "failed" }),
      });
    const second = await clockAt(created.id, start, 0);
    expect(second.paceRate).toBe(8); // held: the phase's successes are below 90 %
    expect(second.paceOffered).toBe(4 + 8);
  });
});

describe("the confirm form, without JavaScript", () => {
  it("saves a pace, and refuses a rate or factor out of range on its field", async () => {
    const { accountId } = await fleet("formpace", 5);
    const path = `/accounts/${accountId}/confirm-deployment`;
    const refused = await postForm(
      path,
      { ...planDefaults, planKind: "all", paceKind: "exponential", paceStart: "0", paceFactor: "9" },
      { Cookie: cookie },
    );
    expect(refused.status).toBe(400);
    const html = await refused.text();
    expect(html).toContain("Enter a number of radios a minute between 1 and 10,000.");
    expect(html).toContain("The growth factor must be between 1.1 and 5.");
    const saved = await postForm(
      path,
      { ...planDefaults, planKind: "all", paceKind: "fixed", pacePerMinute: "25", idempotencyKey: "next-1" },
      { Cookie: cookie },
    );
    expect(saved.status).toBe(303);
    const id = decodeURIComponent(saved.headers.get("location")?.split("/").pop()?.split("?")[0] ?? "");
    expect((await findDeployment(env.DB, id))?.plan.pace).toEqual({ maximumPerMinute: 25 });
    const page = await (await request(`/accounts/${accountId}/deployments/${id}`, { headers: { Cookie: cookie } })).text();
    expect(page).toContain("At most 25 radios a minute");
  });
});

describe("automatic retries per radio", () => {
  async function status(uid: string, id: string, state: string) {
    const response = await request(`/device/v1/deployments/${id}/status`, {
      method: "POST",
      headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
      body: JSON.stringify({ state, code: "E42" }),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  }

  it("a failure with attempts left is a retry after a doubling backoff, not a failure; the last one fails and counts", async () => {
    const { accountId, uids } = await fleet("retrying", 3);
    const plan = {
      phases: [{ ...allAtOnce().phases[0], errorKind: "count", errorValue: 1 }],
      retries: { attempts: 2, backoffMinutes: 5 },
    };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const uid = uids[0] ?? "";
    await told([uid]);

    const first = await status(uid, created.id, "failed");
    expect(first).toMatchObject({ status: 200, body: { changed: true, retry: { attempt: 1 } } });
    const notBefore = Date.parse((first.body.retry as { notBefore: string }).notBefore);
    expect(notBefore - Date.now()).toBeGreaterThan(4 * 60_000);
    // The radio's check-in says it may try again, and when; the deployment did not pause (error count 1).
    const checkIn = (await (
      await request("/device/v1/check-in", {
        method: "POST",
        headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
        body: "{}",
      })
    ).json()) as { deployment: { yourState: string; retry?: { attempt: number } } };
    expect(checkIn.deployment).toMatchObject({ yourState: "delivered", retry: { attempt: 1 } });
    expect((await findDeployment(env.DB, created.id))?.state).toBe("running");

    // The same report twice changes nothing; the second failure doubles the backoff.
    expect((await status(uid, created.id, "delivered")).body).toMatchObject({ changed: false });
    const second = await status(uid, created.id, "failed");
    expect(second.body).toMatchObject({ changed: true, retry: { attempt: 2 } });
    expect(Date.parse((second.body.retry as { notBefore: string }).notBefore) - Date.now()).toBeGreaterThan(9 * 60_000);

    // Out of attempts: failed, counted, and the error threshold pauses the deployment.
    const last = await status(uid, created.id, "failed");
    expect(last.body).toMatchObject({ changed: true, state: "failed" });
    expect(last.body.retry).toBeUndefined();
    expect((await findDeployment(env.DB, created.id))?.state).toBe("paused");
    const got = data(
      await call<{ counts: { total: Record<string, number> } }>("deployments.get", { id: created.id }, cookie, "GET"),
    );
    expect(got.counts.total.failed).toBe(1);
  });

  it("a radio that succeeds on a retry counts as applied", async () => {
    const { accountId, uids } = await fleet("recovering", 2);
    const plan = { ...allAtOnce(), retries: { attempts: 1, backoffMinutes: 1 } };
    const created = data(await call<{ id: string }>("deployments.create", { accountId, plan }, cookie, "POST"));
    const uid = uids[0] ?? "";
    await told([uid]);
    expect((await status(uid, created.id, "failed")).body).toMatchObject({ retry: { attempt: 1 } });
    expect((await status(uid, created.id, "applying")).body).toMatchObject({ changed: true });
    expect((await status(uid, created.id, "applied")).body).toMatchObject({ changed: true });
    const got = data(
      await call<{ counts: { total: Record<string, number> } }>("deployments.get", { id: created.id }, cookie, "GET"),
    );
    expect(got.counts.total).toMatchObject({ applied: 1 });
    expect(got.counts.total.failed ?? 0).toBe(0);
  });
});
