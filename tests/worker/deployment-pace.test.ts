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

// A deployment's pace (issue 25, AWS IoT Jobs' maximumPerMinute and exponential rate): each
// phase is offered a few radios a minute by the clock (a simulated one here), one row written a
// step; an exponential rate grows only while the phase's successes hold; a pause stops it.

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
