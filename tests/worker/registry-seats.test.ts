import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createUser, sessionCookie } from "./fixtures";
import { registerRadios } from "./fleet-fixtures";
import { postForm, request } from "./helpers";

// The registry's seat screens in the account's frame (spec §6: registry/subscriptions allocate,
// deallocate, editAllocation/{allocationId}): plain forms that work without JavaScript, the
// settings procedures' permission and tenancy, and another account's allocation not found.

let owner = "";
let viewer = "";
let orgId = "";
let account = "";
let otherAccount = "";
let subscription = "";

const seats = (path: string) => `/accounts/${account}/registry/subscriptions${path}`;
const get = (path: string, cookie = owner) => request(path, { headers: { Cookie: cookie } });

async function allocationsOf(accountId: string) {
  const { results } = await env.DB.prepare("SELECT id, quantity, version FROM allocations WHERE account_id = ? ORDER BY id")
    .bind(accountId)
    .all<{ id: string; quantity: number; version: number }>();
  return results;
}

beforeAll(async () => {
  const user = await createUser({ role: "owner" });
  orgId = user.orgId;
  owner = await sessionCookie(user.email);
  viewer = await sessionCookie((await createUser({ role: "viewer", orgId })).email);
  account = await createAccount(orgId, "Seat fleet");
  otherAccount = await createAccount(orgId, "Other seat fleet");
  subscription = `sub_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES (?, ?, 'Fleet Pro', 50, '2025-01-01')",
    ).bind(subscription, orgId),
    env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES (?, ?, ?, 4)").bind(
      `alc_other_${crypto.randomUUID().slice(0, 6)}`,
      subscription,
      otherAccount,
    ),
  ]);
});

describe("registry seat screens", () => {
  it("allocate, edit and take back, in the account's frame, without JavaScript", async () => {
    const page = await (await get(seats("/allocate"))).text();
    expect(page).toContain(`action="${seats("/allocate")}"`);
    expect(page).toContain("Fleet Pro");
    const created = await postForm(seats("/allocate"), { subscriptionId: subscription, quantity: "6" }, { Cookie: owner });
    expect(created.status).toBe(303);
    expect(created.headers.get("location")).toBe(seats(""));
    const [allocation] = await allocationsOf(account);
    expect(allocation?.quantity).toBe(6);

    const list = await (await get(seats(""))).text();
    expect(list).toContain(`href="${seats(`/editAllocation/${allocation?.id}`)}"`);
    expect(list).toContain(`href="${seats(`/deallocate?allocationId=${allocation?.id}`)}"`);
    expect(list).not.toMatch(/\/settings\/(allocations|subscriptions)/);

    const edited = await postForm(
      seats(`/editAllocation/${allocation?.id}`),
      { version: String(allocation?.version), quantity: "3" },
      { Cookie: owner },
    );
    expect(edited.status).toBe(303);
    expect((await allocationsOf(account))[0]?.quantity).toBe(3);
    // The form's version is now stale: CONFLICT on the form, nothing changed.
    const stale = await postForm(
      seats(`/editAllocation/${allocation?.id}`),
      { version: String(allocation?.version), quantity: "9" },
      { Cookie: owner },
    );
    expect(stale.status).toBe(409);
    expect((await allocationsOf(account))[0]?.quantity).toBe(3);

    // Seats in use cannot be taken back: a translated refusal on the form.
    await registerRadios(orgId, account, "SEATS", 2);
    const below = await postForm(
      seats(`/editAllocation/${allocation?.id}`),
      { version: String((allocation?.version ?? 0) + 1), quantity: "1" },
      { Cookie: owner },
    );
    expect(below.status).toBeGreaterThanOrEqual(400);
    expect(below.status).toBeLessThan(500);
    expect((await allocationsOf(account))[0]?.quantity).toBe(3);
    await env.DB.prepare("UPDATE devices SET status = 'retired', account_id = NULL WHERE uid LIKE 'SEATS-%'").run();

    const confirm = await (await get(seats(`/deallocate?allocationId=${allocation?.id}`))).text();
    expect(confirm).toContain("Take back the 3 seats of Fleet Pro from Seat fleet?");
    const taken = await postForm(
      seats(`/deallocate?allocationId=${allocation?.id}`),
      { allocationId: allocation?.id ?? "", version: String((allocation?.version ?? 0) + 1) },
      { Cookie: owner },
    );
    expect(taken.status).toBe(303);
    expect(await allocationsOf(account)).toEqual([]);
  });

  it("another account's allocation is not found through this account; a viewer may not change seats", async () => {
    const [foreign] = await allocationsOf(otherAccount);
    expect((await get(seats(`/editAllocation/${foreign?.id}`))).status).toBe(404);
    expect((await get(seats(`/deallocate?allocationId=${foreign?.id}`))).status).toBe(404);
    const posted = await postForm(seats("/deallocate"), { allocationId: foreign?.id ?? "", version: "1" }, { Cookie: owner });
    expect(posted.status).toBe(404);
    expect((await allocationsOf(otherAccount))[0]?.quantity).toBe(4);
    expect((await get(seats("/allocate"), viewer)).status).toBe(403);
    const refused = await postForm(seats("/allocate"), { subscriptionId: subscription, quantity: "2" }, { Cookie: viewer });
    expect(refused.status).toBe(403);
    expect(await allocationsOf(account)).toEqual([]);
  });
});
