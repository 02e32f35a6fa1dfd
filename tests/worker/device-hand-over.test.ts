import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { bearer, giveSeats, registerRadios } from "./fleet-fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Hand-over of a radio to another management server (issue 23): a person with manage-devices
// chooses an https address, the radio is told at its next check-in, confirms at the one after,
// the hand-over is cancellable until then, and each step is an activity entry.

type Answer<T = unknown> = { result?: { data: T }; error?: { message: string; data: { code: string; httpStatus: number } } };

async function call<T = unknown>(path: string, input: unknown, cookie: string, method: "GET" | "POST" = "POST") {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
        });
  return { status: response.status, body: (await response.json()) as Answer<T> };
}

type CheckIn = { redirect: { url: string } | null };

async function checkIn(uid: string, body: Record<string, unknown> = {}): Promise<CheckIn> {
  const response = await request("/device/v1/check-in", {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  expect(response.status).toBe(200);
  return response.json();
}

async function entries(uid: string) {
  const { results } = await env.DB.prepare(
    "SELECT actor_email, diff FROM activity_logs WHERE entity_type = 'device' AND entity_id = ? ORDER BY created_at, rowid",
  )
    .bind(uid)
    .all<{ actor_email: string; diff: string }>();
  return results.map((row) => ({ actor: row.actor_email, diff: JSON.parse(row.diff) as Record<string, unknown> }));
}

let technician = "";
let technicianEmail = "";
let viewer = "";
let outsider = "";
let accountId = "";
let radios: string[] = [];

beforeAll(async () => {
  const owner = await createUser({ role: "technician" });
  technicianEmail = owner.email;
  accountId = await createAccount(owner.orgId, "Hand-over fleet");
  await giveSeats(owner.orgId, accountId, 10);
  radios = await registerRadios(owner.orgId, accountId, "HANDOVER", 4);
  technician = await sessionCookie(owner.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId: owner.orgId })).email);
  outsider = await sessionCookie((await createUser({ role: "owner" })).email);
});

describe("hand-over over the device protocol", () => {
  it("tells the radio at its next check-in and takes its confirmation at the one after", async () => {
    const uid = radios[0] ?? "";
    expect((await checkIn(uid)).redirect).toBeNull();
    const asked = await call("deviceRedirects.request", { uid, accountId, url: "https://fleet.example.net/device" }, technician);
    expect(asked.status).toBe(200);

    const told = await checkIn(uid);
    expect(told.redirect).toEqual({ url: "https://fleet.example.net/device" });
    const page = await call<{ redirect: { confirmedAt: string | null } }>(
      "deviceRedirects.get",
      { uid, accountId },
      technician,
      "GET",
    );
    expect(page.body.result?.data.redirect?.confirmedAt).toBeNull();

    expect((await checkIn(uid, { redirectAccepted: true })).redirect).toBeNull();
    const after = await call<{ redirect: { url: string; confirmedAt: string | null } }>(
      "deviceRedirects.get",
      { uid, accountId },
      technician,
      "GET",
    );
    expect(after.body.result?.data.redirect?.url).toBe("https://fleet.example.net/device");
    expect(after.body.result?.data.redirect?.confirmedAt).toMatch(/^\d{4}-/);
    // A repeated confirmation changes nothing and logs nothing more.
    await checkIn(uid, { redirectAccepted: true });

    expect(await entries(uid)).toEqual([
      { actor: technicianEmail, diff: { handOver: { before: null, after: "https://fleet.example.net/device" } } },
      { actor: uid, diff: { handOverConfirmed: { before: null, after: "https://fleet.example.net/device" } } },
    ]);
  });

  it("cancels before the radio confirmed (it is told nothing more), and refuses to cancel after", async () => {
    const uid = radios[1] ?? "";
    await call("deviceRedirects.request", { uid, accountId, url: "https://other.example.org" }, technician);
    expect((await checkIn(uid)).redirect).toEqual({ url: "https://other.example.org/" });
    const cancelled = await call("deviceRedirects.cancel", { uid, accountId }, technician);
    expect(cancelled.status).toBe(200);
    expect((await checkIn(uid)).redirect).toBeNull();
    // Accepting a hand-over that was withdrawn confirms nothing.
    await checkIn(uid, { redirectAccepted: true });
    const state = await call<{ redirect: unknown }>("deviceRedirects.get", { uid, accountId }, technician, "GET");
    expect(state.body.result?.data.redirect).toBeNull();
    expect((await entries(uid)).map((e) => e.diff)).toEqual([
      { handOver: { before: null, after: "https://other.example.org/" } },
      { handOver: { before: "https://other.example.org/", after: null } },
    ]);

    await call("deviceRedirects.request", { uid, accountId, url: "https://other.example.org" }, technician);
    await checkIn(uid, { redirectAccepted: true });
    const late = await call("deviceRedirects.cancel", { uid, accountId }, technician);
    expect(late.status).toBe(409);
    expect(late.body.error?.message).toBe("The radio has confirmed the hand-over: it now answers to the other server.");
    const again = await call("deviceRedirects.request", { uid, accountId, url: "https://third.example.org" }, technician);
    expect(again.status).toBe(409);
    expect((await checkIn(uid)).redirect).toBeNull();
  });

  it("refuses addresses that are not https server addresses with a clear 400", async () => {
    const uid = radios[2] ?? "";
    for (const url of [
      "http://fleet.example.net",
      "fleet.example.net",
      "javascript:alert(1)",
      "https://user:pw@fleet.example.net",
      "https://localhost",
      "",
      "https://x".padEnd(600, "x"),
    ]) {
      const answer = await call("deviceRedirects.request", { uid, accountId, url }, technician);
      expect(answer.status, url).toBe(400);
      expect(answer.body.error?.message, url).toMatch(/https|address|long/i);
    }
    expect((await checkIn(uid)).redirect).toBeNull();
  });

  it("another tenant's radio is not found, and without manage-devices nothing changes", async () => {
    const uid = radios[3] ?? "";
    const foreign = await call("deviceRedirects.request", { uid, url: "https://evil.example.com" }, outsider);
    expect(foreign.status).toBe(404);
    expect((await call("deviceRedirects.get", { uid }, outsider, "GET")).status).toBe(404);
    expect((await call("deviceRedirects.cancel", { uid }, outsider)).status).toBe(404);
    const refused = await call("deviceRedirects.request", { uid, accountId, url: "https://fleet.example.net" }, viewer);
    expect(refused.status).toBe(403);
    expect((await call("deviceRedirects.cancel", { uid, accountId }, viewer)).status).toBe(403);
    // The viewer may still see the state inside the account.
    expect((await call("deviceRedirects.get", { uid, accountId }, viewer, "GET")).status).toBe(200);
    expect((await checkIn(uid)).redirect).toBeNull();
    expect(await entries(uid)).toEqual([]);
  });
});

describe("the hand-over page without JavaScript", () => {
  const page = (uid: string) => `/accounts/${accountId}/registry/devices/redirect/${uid}`;
  const get = (uid: string, cookie: string) => request(page(uid), { headers: { Cookie: cookie } });
  const post = (uid: string, fields: Record<string, string>, cookie: string) => postForm(page(uid), fields, { Cookie: cookie });

  it("requests, shows the waiting state, refuses junk with the typed value, cancels, and refuses to cancel once confirmed", async () => {
    const uid = radios[2] ?? "";
    expect(await (await get(uid, technician)).text()).toContain("No hand-over: this radio answers to this server.");

    const junk = await post(uid, { do: "request", url: "http://fleet.example.net" }, technician);
    expect(junk.status).toBe(400);
    const junkHtml = await junk.text();
    expect(junkHtml).toContain("The address must start with https://");
    expect(junkHtml).toContain('value="http://fleet.example.net"');

    const asked = await post(uid, { do: "request", url: "https://fleet.example.net" }, technician);
    expect(asked.status).toBe(303);
    const waiting = await (await get(uid, technician)).text();
    expect(waiting).toContain("Waiting for the radio: it is told to move to https://fleet.example.net/");
    expect(waiting).toContain("Cancel the hand-over");

    expect((await post(uid, { do: "cancel" }, technician)).status).toBe(303);
    expect(await (await get(uid, technician)).text()).toContain("No hand-over");

    await post(uid, { do: "request", url: "https://fleet.example.net" }, technician);
    await checkIn(uid);
    await checkIn(uid, { redirectAccepted: true });
    const confirmed = await (await get(uid, technician)).text();
    expect(confirmed).toContain("Handed over: the radio confirmed at");
    expect(confirmed).not.toContain("Cancel the hand-over");
    const late = await post(uid, { do: "cancel" }, technician);
    expect(late.status).toBe(409);
    expect(await late.text()).toContain("The radio has confirmed the hand-over");
  });

  it("is not found for another tenant and refused without manage-devices", async () => {
    const uid = radios[3] ?? "";
    expect((await get(uid, outsider)).status).toBe(404);
    expect((await request(`/devices/redirect/${uid}`, { headers: { Cookie: outsider } })).status).toBe(404);
    expect((await post(uid, { do: "request", url: "https://evil.example.com" }, outsider)).status).toBe(404);
    expect((await get(uid, viewer)).status).toBe(403);
    expect((await post(uid, { do: "request", url: "https://fleet.example.net" }, viewer)).status).toBe(403);
    expect((await checkIn(uid)).redirect).toBeNull();
  });
});
