import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { registerRadios } from "./fleet-fixtures";
import { postForm } from "./helpers";

// The registry's "Assign a radio of the inventory" (issue 23), as a browser without JavaScript
// posts it: no free seat is a message on the form (it was an empty 422); a radio of another
// account is moved only after a second step that names that account; the seats of both
// accounts stay exact.

let owner = "";
let viewer = "";
let harbor = "";
let lakeside = "";
let lakesideRadio = "";
let free: string[] = [];

const assignPath = () => `/accounts/${harbor}/registry/devices/add`;
const post = (fields: Record<string, string>, cookie = owner, headers: Record<string, string> = {}) =>
  postForm(assignPath(), { intent: "assign", place: "", ...fields }, { Cookie: cookie, ...headers });

async function radio(uid: string) {
  return env.DB.prepare("SELECT account_id, version FROM devices WHERE uid = ?")
    .bind(uid)
    .first<{ account_id: string | null; version: number }>();
}

/** Seats in use as the accounts table keeps them, and as a recount of the radios gives them. */
async function seatsInUse(accountId: string) {
  const row = await env.DB.prepare(
    `SELECT devices_in_use AS kept, (SELECT count(*) FROM devices WHERE account_id = ?1 AND status = 'active') AS counted
     FROM accounts WHERE id = ?1`,
  )
    .bind(accountId)
    .first<{ kept: number; counted: number }>();
  expect(row?.kept).toBe(row?.counted);
  return row?.kept;
}

beforeAll(async () => {
  const orgId = await createOrganization("Assign dealer");
  owner = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
  viewer = await sessionCookie((await createUser({ orgId, role: "viewer" })).email);
  harbor = await createAccount(orgId, "Harbor ferries");
  lakeside = await createAccount(orgId, "Lakeside buses");
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_assign', ?, 'Plan', 10, '2026-01-01')",
    ).bind(orgId),
    env.DB.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_assign_h', 'sub_assign', ?, 1), ('alc_assign_l', 'sub_assign', ?, 2)",
    ).bind(harbor, lakeside),
  ]);
  [lakesideRadio = ""] = await registerRadios(orgId, lakeside, "ASG-LAKE", 1);
  free = await registerRadios(orgId, null as unknown as string, "ASG-FREE", 2);
  // A radio of another tenant, which must read as unknown.
  const stranger = await createOrganization("Assign stranger");
  await registerRadios(stranger, null as unknown as string, "ASG-STRANGE", 1);
});

describe("assign a radio of the inventory", () => {
  it("assigns a radio of no account at once; with no free seat left says so on the form, in the person's language", async () => {
    const first = await post({ uid: free[0] ?? "" });
    expect(first.status).toBe(303);
    expect((await radio(free[0] ?? ""))?.account_id).toBe(harbor);
    expect(await seatsInUse(harbor)).toBe(1);

    const full = await post({ uid: free[1] ?? "" });
    expect(full.status).toBe(422);
    const html = await full.text();
    expect(html).toContain("This account has no free seats. Allocate more seats to it, or unassign a radio first.");
    expect(html).toContain(`value="${free[1]}"`);
    expect((await radio(free[1] ?? ""))?.account_id).toBeNull();

    const spanish = await post({ uid: free[1] ?? "" }, owner, { "Accept-Language": "es-MX" });
    expect(await spanish.text()).toContain("Esta cuenta no tiene licencias libres.");
  });

  it("asks before taking a radio out of another account, naming it, and moves it only when confirmed", async () => {
    const asked = await post({ uid: lakesideRadio });
    expect(asked.status).toBe(200);
    const question = await asked.text();
    expect(question).toContain(`${lakesideRadio} is assigned to Lakeside buses`);
    expect(question).toContain("Move it to Harbor ferries");
    expect(question).toContain("data-confirm-move");
    expect((await radio(lakesideRadio))?.account_id).toBe(lakeside);
    const version = String((await radio(lakesideRadio))?.version);

    // Confirmed, but Harbor's one seat is taken: the seat message, nothing moved.
    const noSeat = await post({ uid: lakesideRadio, fromAccount: lakeside, version });
    expect(noSeat.status).toBe(422);
    expect(await noSeat.text()).toContain("This account has no free seats.");
    expect((await radio(lakesideRadio))?.account_id).toBe(lakeside);

    await env.DB.prepare("UPDATE allocations SET quantity = 2 WHERE id = 'alc_assign_h'").run();
    expect(await seatsInUse(lakeside)).toBe(1);
    const moved = await post({ uid: lakesideRadio, fromAccount: lakeside, version });
    expect(moved.status).toBe(303);
    expect((await radio(lakesideRadio))?.account_id).toBe(harbor);
    expect(await seatsInUse(harbor)).toBe(2);
    expect(await seatsInUse(lakeside)).toBe(0);
  });

  it("a confirmation made on an older state of the radio asks again instead of moving it", async () => {
    await env.DB.prepare("UPDATE devices SET account_id = ? WHERE uid = ?")
      .bind(lakeside, free[1] ?? "")
      .run();
    const before = await radio(free[1] ?? "");
    const stale = await post({ uid: free[1] ?? "", fromAccount: lakeside, version: String((before?.version ?? 0) - 1) });
    expect(stale.status).toBe(409);
    const html = await stale.text();
    expect(html).toContain("data-confirm-move");
    expect(html).toContain("Someone else changed this");
    expect((await radio(free[1] ?? ""))?.account_id).toBe(lakeside);
    // Posted words are never shown: the account named is the radio's own.
    const spoofed = await post({ uid: free[1] ?? "", fromAccount: "acc_spoof", fromName: "Spoofed fleet" });
    expect(await spoofed.text()).not.toContain("Spoofed fleet");
  });

  it("another tenant's radio is unknown here, and a viewer changes nothing", async () => {
    const stranger = await post({ uid: "ASG-STRANGE-000001" });
    expect(stranger.status).toBe(404);
    expect(await stranger.text()).not.toContain("data-confirm-move");
    expect((await radio("ASG-STRANGE-000001"))?.account_id).toBeNull();
    const refused = await post({ uid: free[0] ?? "" }, viewer);
    expect(refused.status).toBe(403);
  });
});
