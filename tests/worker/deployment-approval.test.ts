import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { listActivity } from "@/server/data/activity-logs";
import { listMail } from "@/server/data/mail-outbox";
import { setPreferences } from "@/server/data/notifications";
import { stepDueDeployments } from "@/server/fleet/deployment-engine";
import { type Answer, call, data } from "./api-calls";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// Four-eyes approval of deployments (issue 25): an account that asks for it makes each deployment
// wait, telling radios nothing, until a second person with create-deployments (never its author)
// approves or rejects it with a note; nobody deciding in time expires it. Every step is logged.

type Created = { id: string; number: number; state: string };
type Got = {
  deployment: { state: string; version: number; revisionId: string };
  approval: { approval: string; decidedBy: string | null; note: string; expiresAt: string | null };
};
type CheckIn = { desiredRevision: { id: string } | null; deployment: { id: string } | null };

const HOUR = 3_600_000;
let orgId = "";
let author = { id: "", email: "", cookie: "" };
let second = { id: "", email: "", cookie: "" };
let technician = "";

async function person(role: "owner" | "configurator" | "technician") {
  const user = await createUser({ role, orgId });
  return { ...user, cookie: await sessionCookie(user.email) };
}

/** An account asking for approval (expiring after `hours`), with `radios` radios. */
async function approvingAccount(name: string, radios = 2, hours = 48) {
  const accountId = await createAccount(orgId, name);
  await giveSeats(orgId, accountId, radios + 1);
  const uids = await registerRadios(orgId, accountId, `APR${crypto.randomUUID().slice(0, 6)}`, radios);
  const { version } = data(await call<{ version: number }>("accounts.details", { id: accountId }, author.cookie, "GET"));
  const saved = await call(
    "accounts.setApproval",
    { id: accountId, version, required: true, expiryHours: hours },
    author.cookie,
    "POST",
  );
  expect(saved.error).toBeUndefined();
  return { accountId, uids };
}

async function checkIn(uid: string): Promise<CheckIn> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: "{}",
  });
  expect(response.status).toBe(200);
  return response.json();
}

const get = async (id: string) => data(await call<Got>("deployments.get", { id }, author.cookie, "GET"));
const errorOf = (answer: Answer) => (answer as { error?: { message: string; data: { code: string; httpStatus: number } } }).error;

async function deploymentLog(accountId: string, deploymentId: string) {
  const entries = await listActivity(env.DB, { accountId, limit: 50 });
  return entries
    .filter((e) => e.entityId === deploymentId)
    .reverse()
    .map((e) => {
      const diff = e.diff as Record<string, { after?: unknown } | undefined>;
      return { by: e.actorEmail, approval: diff.approval?.after, state: diff.state?.after };
    });
}

beforeAll(async () => {
  orgId = await createOrganization("Four eyes");
  author = await person("owner");
  second = await person("configurator");
  technician = (await person("technician")).cookie;
});

describe("a deployment waiting for approval", () => {
  it("tells radios nothing and never starts on its own, even when the clock runs", async () => {
    const { accountId, uids } = await approvingAccount("Waiting");
    const [uid = ""] = uids;
    const before = await checkIn(uid);
    const d = data(await call<Created>("deployments.create", { accountId, note: "new channel" }, author.cookie, "POST"));
    expect(d.state).toBe("scheduled");
    const got = await get(d.id);
    expect(got.approval.approval).toBe("pending");
    expect(Date.parse(got.approval.expiresAt ?? "") - Date.now()).toBeGreaterThan(47 * HOUR);
    // The radio's answer is what it was: the pending deployment is nowhere in it.
    expect(await checkIn(uid)).toMatchObject({ desiredRevision: before.desiredRevision, deployment: before.deployment });
    await stepDueDeployments(env, new Date(Date.now() + HOUR));
    expect((await get(d.id)).deployment.state).toBe("scheduled");
    expect((await checkIn(uid)).deployment?.id).not.toBe(d.id);
    // Its plan's start time coming does not start it either.
    const later = data(
      await call<Created>(
        "deployments.create",
        { accountId, plan: { ...planWithStart(new Date(Date.now() + HOUR)) } },
        author.cookie,
        "POST",
      ),
    );
    await stepDueDeployments(env, new Date(Date.now() + 2 * HOUR));
    expect((await get(later.id)).deployment.state).toBe("scheduled");
    expect((await get(later.id)).approval.approval).toBe("pending");
  });

  it("cannot be approved by its author nor by someone without create-deployments; a second person approves it and it starts", async () => {
    const { accountId, uids } = await approvingAccount("Approved");
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    const own = errorOf(await call("deployments.approve", { id: d.id }, author.cookie, "POST"));
    expect(own?.data).toMatchObject({ code: "FORBIDDEN", httpStatus: 403 });
    expect(own?.message).toMatch(/someone else/);
    const without = errorOf(await call("deployments.approve", { id: d.id }, technician, "POST"));
    expect(without?.data.code).toBe("FORBIDDEN");
    const { version } = (await get(d.id)).deployment;
    const stale = errorOf(await call("deployments.approve", { id: d.id, version: version + 1 }, second.cookie, "POST"));
    expect(stale?.data.code).toBe("CONFLICT");
    expect((await get(d.id)).approval.approval).toBe("pending");

    const approved = data(
      await call<{ state: string }>("deployments.approve", { id: d.id, version, note: "checked" }, second.cookie, "POST"),
    );
    expect(approved.state).toBe("running");
    const after = await get(d.id);
    expect(after.approval).toMatchObject({ approval: "approved", decidedBy: second.email, note: "checked" });
    expect((await checkIn(uids[0] ?? "")).desiredRevision?.id).toBe(after.deployment.revisionId);
    // Deciding twice is a conflict, not a second start.
    expect(errorOf(await call("deployments.approve", { id: d.id }, second.cookie, "POST"))?.data.code).toBe("CONFLICT");
    expect(await deploymentLog(accountId, d.id)).toEqual([
      { by: author.email, approval: "pending", state: "scheduled" },
      { by: second.email, approval: "approved", state: undefined },
      { by: "system", approval: undefined, state: "running" },
    ]);
  });

  it("approved before a later start time waits for it, then starts", async () => {
    const { accountId } = await approvingAccount("Approved later");
    const d = data(
      await call<Created>(
        "deployments.create",
        { accountId, plan: planWithStart(new Date(Date.now() + 2 * HOUR)) },
        author.cookie,
        "POST",
      ),
    );
    expect(data(await call<{ state: string }>("deployments.approve", { id: d.id }, second.cookie, "POST")).state).toBe(
      "scheduled",
    );
    await stepDueDeployments(env, new Date(Date.now() + HOUR));
    expect((await get(d.id)).deployment.state).toBe("scheduled");
    await stepDueDeployments(env, new Date(Date.now() + 3 * HOUR));
    expect((await get(d.id)).deployment.state).toBe("running");
  });

  it("is rejected only with a note, and then ends cancelled without a radio hearing of it", async () => {
    const { accountId, uids } = await approvingAccount("Rejected");
    const before = await checkIn(uids[0] ?? "");
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    const noNote = errorOf(await call("deployments.reject", { id: d.id, note: "  " }, second.cookie, "POST"));
    expect(noNote?.data.code).toBe("BAD_REQUEST");
    expect(errorOf(await call("deployments.reject", { id: d.id, note: "mine" }, author.cookie, "POST"))?.data.code).toBe(
      "FORBIDDEN",
    );
    expect(errorOf(await call("deployments.reject", { id: d.id, note: "no" }, technician, "POST"))?.data.code).toBe("FORBIDDEN");
    const rejected = data(
      await call<{ state: string }>("deployments.reject", { id: d.id, note: "Wrong channel plan" }, second.cookie, "POST"),
    );
    expect(rejected.state).toBe("cancelled");
    expect((await get(d.id)).approval).toMatchObject({
      approval: "rejected",
      note: "Wrong channel plan",
      decidedBy: second.email,
    });
    expect((await checkIn(uids[0] ?? "")).desiredRevision).toEqual(before.desiredRevision);
    expect(errorOf(await call("deployments.approve", { id: d.id }, second.cookie, "POST"))?.data.code).toBe("CONFLICT");
    expect(await deploymentLog(accountId, d.id)).toEqual([
      { by: author.email, approval: "pending", state: "scheduled" },
      { by: second.email, approval: "rejected", state: "cancelled" },
    ]);
  });

  it("expires when nobody decides in time: the clock ends it, logged by the system, and a late decision is refused", async () => {
    const { accountId } = await approvingAccount("Expiring", 1, 6);
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    await stepDueDeployments(env, new Date(Date.now() + 5 * HOUR));
    expect((await get(d.id)).approval.approval).toBe("pending");
    await stepDueDeployments(env, new Date(Date.now() + 7 * HOUR));
    const after = await get(d.id);
    expect(after.deployment.state).toBe("cancelled");
    expect(after.approval.approval).toBe("expired");
    expect(errorOf(await call("deployments.approve", { id: d.id }, second.cookie, "POST"))?.data.code).toBe("CONFLICT");
    expect(await deploymentLog(accountId, d.id)).toEqual([
      { by: author.email, approval: "pending", state: "scheduled" },
      { by: "system", approval: "expired", state: "cancelled" },
    ]);
  });

  it("tells the people who chose it that it waits for approval", async () => {
    const { accountId } = await approvingAccount("Announced");
    await setPreferences(env.DB, second.id, accountId, ["deployment.awaiting-approval"]);
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    const subjects = (await listMail(env.DB, { to: second.email })).map((m) => m.subject);
    expect(subjects).toContain(`Deployment #${d.number} waits for approval`);
  });

  it("an account without the setting deploys at once, as before", async () => {
    const accountId = await createAccount(orgId, "No approval");
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    // Started at once; with no radio in the account, nothing is left to wait for.
    expect(d.state).toBe("finished");
    expect((await get(d.id)).approval.approval).toBe("none");
    expect(errorOf(await call("deployments.approve", { id: d.id }, second.cookie, "POST"))?.data.code).toBe("CONFLICT");
  });
});

describe("the pages, without JavaScript", () => {
  it("the account's settings turn approval on; the second person sees Approve and Reject, the author only the wait", async () => {
    const accountId = await createAccount(orgId, "Pages");
    const settings = `/accounts/edit/${accountId}/general`;
    const page = await (await request(settings, { headers: { Cookie: author.cookie } })).text();
    expect(page).toContain("Deployment approval");
    const { version } = data(await call<{ version: number }>("accounts.details", { id: accountId }, author.cookie, "GET"));
    const bad = await postForm(
      settings,
      { intent: "approval", version: String(version), required: "1", hours: "900" },
      { Cookie: author.cookie },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("between 1 hour and 7 days");
    const saved = await postForm(
      settings,
      { intent: "approval", version: String(version), required: "1", hours: "24" },
      { Cookie: author.cookie },
    );
    expect(saved.status).toBe(303);
    // The confirm page says so before anything is confirmed.
    const confirm = await (
      await request(`/accounts/${accountId}/confirm-deployment`, { headers: { Cookie: author.cookie } })
    ).text();
    expect(confirm).toContain("This account asks for approval: the deployment will wait until a second person");

    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    const href = `/accounts/${accountId}/deployments/${d.id}`;
    const authorView = await (await request(href, { headers: { Cookie: author.cookie } })).text();
    expect(authorView).toContain(`someone other than ${author.email}`);
    expect(authorView).not.toContain('value="approve"');
    const secondView = await (await request(href, { headers: { Cookie: second.cookie } })).text();
    expect(secondView).toContain('value="approve"');
    expect(secondView).toContain('value="reject"');
    const list = await (await request(`/accounts/${accountId}/deployments`, { headers: { Cookie: second.cookie } })).text();
    expect(list).toContain("Deployments waiting for approval: 1");
    const home = await (await request(`/accounts/${accountId}`, { headers: { Cookie: second.cookie } })).text();
    expect(home).toContain("Deployments waiting for approval: 1");

    // A reject without a note comes back with the reason; the author's post is refused; the second person's approves.
    const noNote = await postForm(href, { do: "reject", note: "" }, { Cookie: second.cookie });
    expect(noNote.status).toBe(303);
    expect((await get(d.id)).approval.approval).toBe("pending");
    const own = await postForm(href, { do: "approve", note: "" }, { Cookie: author.cookie });
    expect(own.status).toBe(303);
    expect((await get(d.id)).approval.approval).toBe("pending");
    const approved = await postForm(
      href,
      { do: "approve", note: "ok", version: String((await get(d.id)).deployment.version) },
      { Cookie: second.cookie },
    );
    expect(approved.status).toBe(303);
    expect(approved.headers.get("location")).toContain(href);
    // Started on approval; the account has no radio, so it has nothing to wait for.
    expect((await get(d.id)).deployment.state).toBe("finished");
    const after = await (await request(href, { headers: { Cookie: second.cookie } })).text();
    expect(after).toContain(`Approved by ${second.email}`);
  });

  it("the Reject form with a note ends the deployment and says who rejected it and why", async () => {
    const { accountId } = await approvingAccount("Rejected by form");
    const d = data(await call<Created>("deployments.create", { accountId }, author.cookie, "POST"));
    const href = `/accounts/${accountId}/deployments/${d.id}`;
    const answer = await postForm(href, { do: "reject", note: "Not during the event" }, { Cookie: second.cookie });
    expect(answer.status).toBe(303);
    expect((await get(d.id)).deployment.state).toBe("cancelled");
    const page = await (await request(href, { headers: { Cookie: author.cookie } })).text();
    expect(page).toContain(`Rejected by ${second.email}`);
    expect(page).toContain("Not during the event");
  });
});

describe("the account's approval setting", () => {
  it("is saved on the version it was read at, refuses an expiry out of range and needs edit-configurations", async () => {
    const accountId = await createAccount(orgId, "Setting");
    const { version } = data(await call<{ version: number }>("accounts.details", { id: accountId }, author.cookie, "GET"));
    const set = (input: object, cookie = author.cookie) =>
      call("accounts.setApproval", { id: accountId, version, required: true, ...input }, cookie, "POST");
    expect(errorOf(await set({ expiryHours: 0 }))?.data.code).toBe("BAD_REQUEST");
    expect(errorOf(await set({ expiryHours: 169 }))?.data.code).toBe("BAD_REQUEST");
    expect(errorOf(await set({ expiryHours: 24 }, technician))?.data.code).toBe("FORBIDDEN");
    expect(errorOf(await set({ expiryHours: 24 }))).toBeUndefined();
    expect(errorOf(await set({ expiryHours: 12 }))?.data.code).toBe("CONFLICT");
    const details = data(
      await call<{ approvalRequired: boolean; approvalExpiryHours: number }>(
        "accounts.details",
        { id: accountId },
        author.cookie,
        "GET",
      ),
    );
    expect(details).toMatchObject({ approvalRequired: true, approvalExpiryHours: 24 });
  });
});

function planWithStart(startAt: Date) {
  return {
    startAt: startAt.toISOString(),
    phases: [
      {
        share: 100,
        successPercent: 100,
        successAction: "next",
        errorKind: "count",
        errorValue: 1,
        errorMinimum: 0,
        waitMinutes: 0,
      },
    ],
  };
}
