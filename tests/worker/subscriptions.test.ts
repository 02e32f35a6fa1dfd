import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, postForm, request } from "./helpers";

// Subscriptions and allocations through the typed procedures (and their screens): who may do
// what, tenants, stale versions, the activity log, and seats that are never over-allocated,
// not even when many people allocate at the same moment.

type Answer<T = unknown> = {
  result?: { data: T };
  error?: { code: number; message: string; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

type ShownSubscription = {
  id: string;
  orgId: string;
  plan: string;
  quantity: number;
  allocated: number;
  free: number;
  status: string;
  effectiveStatus: string;
  version: number;
};
type ShownAllocation = { id: string; subscriptionId: string; accountId: string; quantity: number; version: number };

async function query<T = unknown>(path: string, input: unknown, cookie: string): Promise<Answer<T>> {
  const response = await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, {
    headers: { Cookie: cookie },
  });
  return response.json();
}

async function mutate<T = unknown>(path: string, input: unknown, cookie: string): Promise<Answer<T>> {
  const response = await request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: cookie },
  });
  return response.json();
}

function data<T>(answer: Answer<T>): T {
  if (!answer.result) throw new Error(`expected a result, got ${JSON.stringify(answer.error)}`);
  return answer.result.data;
}

const CODES = { FORBIDDEN: -32003, NOT_FOUND: -32004, CONFLICT: -32009, PRECONDITION_FAILED: -32012, BAD_REQUEST: -32600 };

let dealer: string;
let customer: string;
let sibling: string;
let otherTenant: string;
let busAccount: string;
let railAccount: string;
let siblingAccount: string;
let otherAccount: string;
let owner: string;
let viewer: string;
let technician: string;
let customerOwner: string;
let outsider: string;

const period = { startsAt: "2025-01-01", endsAt: "2099-12-31" };

async function addSubscription(input: { orgId?: string; plan?: string; quantity: number; status?: string }, cookie = owner) {
  return data(
    await mutate<ShownSubscription>(
      "subscriptions.add",
      { orgId: customer, plan: "Fleet Advanced", ...period, ...input },
      cookie,
    ),
  );
}

async function seatsGivenOut(subscriptionId: string): Promise<number> {
  const row = await env.DB.prepare("SELECT COALESCE(SUM(quantity), 0) AS n FROM allocations WHERE subscription_id = ?")
    .bind(subscriptionId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

async function activityOf(entityId: string) {
  const { results } = await env.DB.prepare(
    "SELECT action, entity_type, actor_email, deployable, diff FROM activity_logs WHERE entity_id = ? ORDER BY created_at, rowid",
  )
    .bind(entityId)
    .all<{ action: string; entity_type: string; actor_email: string; deployable: number; diff: string }>();
  return results;
}

beforeAll(async () => {
  dealer = await createOrganization("Harbor Dealer");
  customer = await createOrganization("Metro Customer", dealer);
  sibling = await createOrganization("Lakeside Customer", dealer);
  otherTenant = await createOrganization("Other Tenant");
  busAccount = await createAccount(customer, "Bus Operations");
  railAccount = await createAccount(customer, "Rail Maintenance");
  siblingAccount = await createAccount(sibling, "North Campus");
  otherAccount = await createAccount(otherTenant, "Their Yard");
  const ownerUser = await createUser({ orgId: dealer, role: "owner", email: "sub-owner@example.com" });
  owner = await sessionCookie(ownerUser.email);
  viewer = await sessionCookie((await createUser({ orgId: dealer, role: "viewer" })).email);
  technician = await sessionCookie((await createUser({ orgId: dealer, role: "technician" })).email);
  customerOwner = await sessionCookie((await createUser({ orgId: customer, role: "owner" })).email);
  outsider = await sessionCookie((await createUser({ orgId: otherTenant, role: "owner" })).email);
});

describe("subscriptions", () => {
  it("issues a subscription to a customer and logs it in the same batch", async () => {
    const created = await addSubscription({ plan: "Fleet Advanced", quantity: 50 });
    expect(created).toMatchObject({
      orgId: customer,
      plan: "Fleet Advanced",
      quantity: 50,
      allocated: 0,
      free: 50,
      status: "active",
    });
    expect(await activityOf(created.id)).toEqual([
      expect.objectContaining({
        action: "create",
        entity_type: "subscription",
        actor_email: "sub-owner@example.com",
        deployable: 0,
      }),
    ]);
    const list = data(
      await query<{ items: ShownSubscription[]; canIssue: boolean }>("subscriptions.list", { orgId: customer }, owner),
    );
    expect(list.canIssue).toBe(true);
    expect(list.items.map((item) => item.id)).toContain(created.id);
  });

  it("answers bad input with translated field messages", async () => {
    const answer = await mutate(
      "subscriptions.add",
      { orgId: customer, plan: " ", quantity: 0, startsAt: "2025-02-30", endsAt: null },
      owner,
    );
    expect(answer.error?.code).toBe(CODES.BAD_REQUEST);
    expect(answer.error?.data.fieldErrors).toMatchObject({
      plan: ["Enter the plan’s name."],
      quantity: ["Enter at least 1 seat."],
      startsAt: ["The start date must be a real date, like 2026-03-31."],
    });
    const backwards = await mutate(
      "subscriptions.add",
      { orgId: customer, plan: "Backwards", quantity: 1, startsAt: "2025-06-01", endsAt: "2025-05-31" },
      owner,
    );
    expect(backwards.error?.data.fieldErrors).toEqual({ endsAt: ["The end date must be on or after the start date."] });
    const fractional = await mutate("subscriptions.add", { orgId: customer, plan: "Half", quantity: 1.5, ...period }, owner);
    expect(fractional.error?.data.fieldErrors).toEqual({ quantity: ["Enter a whole number of seats."] });
  });

  it("lets a dealer issue only below itself: a customer cannot grant itself seats", async () => {
    const own = await mutate("subscriptions.add", { orgId: dealer, plan: "Self", quantity: 5, ...period }, owner);
    expect(own.error?.code).toBe(CODES.FORBIDDEN);
    const customerSelf = await mutate(
      "subscriptions.add",
      { orgId: customer, plan: "Self", quantity: 5, ...period },
      customerOwner,
    );
    expect(customerSelf.error?.code).toBe(CODES.FORBIDDEN);
    expect(customerSelf.error?.message).toBe("Subscriptions of your own organization are issued by the organization above it.");
    const list = data(
      await query<{ canIssue: boolean; canAllocate: boolean }>("subscriptions.list", { orgId: customer }, customerOwner),
    );
    expect(list).toMatchObject({ canIssue: false, canAllocate: true });
  });

  it("lets the vendor at the root manage its own subscriptions", async () => {
    const vendorId = `org_vendor_${crypto.randomUUID().slice(0, 8)}`;
    await env.DB.prepare("INSERT INTO organizations (id, name, kind) VALUES (?, 'Vendor', 'vendor')").bind(vendorId).run();
    const vendor = await sessionCookie((await createUser({ orgId: vendorId, role: "owner" })).email);
    const created = await addSubscription({ orgId: vendorId, plan: "Vendor demo pool", quantity: 3 }, vendor);
    expect(created.orgId).toBe(vendorId);
  });

  it("refuses a stale edit with CONFLICT and logs nothing for it", async () => {
    const created = await addSubscription({ plan: "Stale test", quantity: 10 });
    const edited = data(
      await mutate<ShownSubscription>(
        "subscriptions.update",
        {
          id: created.id,
          version: created.version,
          plan: "Stale test",
          quantity: 12,
          ...period,
          status: "active",
          reference: "PO-1",
        },
        owner,
      ),
    );
    expect(edited).toMatchObject({ quantity: 12, version: created.version + 1 });
    const stale = await mutate(
      "subscriptions.update",
      { id: created.id, version: created.version, plan: "Overwrite", quantity: 20, ...period, status: "active", reference: "" },
      owner,
    );
    expect(stale.error?.code).toBe(CODES.CONFLICT);
    expect((await activityOf(created.id)).map((entry) => entry.action)).toEqual(["create", "update"]);
    const removeStale = await mutate("subscriptions.remove", { id: created.id, version: created.version }, owner);
    expect(removeStale.error?.code).toBe(CODES.CONFLICT);
  });

  it("never lowers a subscription below the seats it has given out", async () => {
    const created = await addSubscription({ plan: "Lowering", quantity: 10 });
    data(await mutate("subscriptions.allocate", { subscriptionId: created.id, accountId: busAccount, quantity: 6 }, owner));
    const fields = { id: created.id, version: created.version, plan: "Lowering", ...period, status: "active", reference: "" };
    const tooLow = await mutate("subscriptions.update", { ...fields, quantity: 5 }, owner);
    expect(tooLow.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(tooLow.error?.message).toMatch(/already allocated/);
    expect((await env.DB.prepare("SELECT quantity FROM subscriptions WHERE id = ?").bind(created.id).first())?.quantity).toBe(10);
    const exact = data(await mutate<ShownSubscription>("subscriptions.update", { ...fields, quantity: 6 }, owner));
    expect(exact).toMatchObject({ quantity: 6, allocated: 6, free: 0 });
  });

  it("removes a subscription only once its seats are taken back", async () => {
    const created = await addSubscription({ plan: "Removal", quantity: 4 });
    const allocation = data(
      await mutate<ShownAllocation>(
        "subscriptions.allocate",
        { subscriptionId: created.id, accountId: railAccount, quantity: 2 },
        owner,
      ),
    );
    const refused = await mutate("subscriptions.remove", { id: created.id, version: created.version }, owner);
    expect(refused.error?.code).toBe(CODES.PRECONDITION_FAILED);
    data(await mutate("subscriptions.deallocate", { id: allocation.id, version: allocation.version }, owner));
    expect(data(await mutate("subscriptions.remove", { id: created.id, version: created.version }, owner))).toEqual({ ok: true });
    expect((await activityOf(created.id)).map((entry) => entry.action)).toEqual(["create", "delete"]);
    expect((await query("subscriptions.details", { id: created.id }, owner)).error?.code).toBe(CODES.NOT_FOUND);
  });
});

describe("permissions and tenants", () => {
  let subscriptionId: string;
  let allocationId: string;

  beforeAll(async () => {
    subscriptionId = (await addSubscription({ plan: "Tenancy", quantity: 10 })).id;
    allocationId = data(
      await mutate<ShownAllocation>("subscriptions.allocate", { subscriptionId, accountId: busAccount, quantity: 3 }, owner),
    ).id;
  });

  it("refuses people without view-subscriptions-in-organizations", async () => {
    for (const cookie of [viewer, technician]) {
      expect((await query("subscriptions.list", { orgId: customer }, cookie)).error?.code).toBe(CODES.FORBIDDEN);
      expect((await query("subscriptions.allocations", { orgId: customer }, cookie)).error?.code).toBe(CODES.FORBIDDEN);
      const allocate = await mutate("subscriptions.allocate", { subscriptionId, accountId: busAccount, quantity: 1 }, cookie);
      expect(allocate.error?.code).toBe(CODES.FORBIDDEN);
    }
    expect(await seatsGivenOut(subscriptionId)).toBe(3);
  });

  it("lets a viewer read an account's seats (view-subscriptions-in-accounts), not a technician", async () => {
    const seats = data(
      await query<{ seats: number; items: { plan: string }[] }>("subscriptions.forAccount", { accountId: busAccount }, viewer),
    );
    expect(seats.seats).toBeGreaterThanOrEqual(3);
    expect(seats.items.map((item) => item.plan)).toContain("Tenancy");
    expect((await query("subscriptions.forAccount", { accountId: busAccount }, technician)).error?.code).toBe(CODES.FORBIDDEN);
  });

  it("answers NOT_FOUND for another tenant's organization, subscription, allocation or account", async () => {
    expect((await query("subscriptions.list", { orgId: customer }, outsider)).error?.code).toBe(CODES.NOT_FOUND);
    expect((await query("subscriptions.details", { id: subscriptionId }, outsider)).error?.code).toBe(CODES.NOT_FOUND);
    expect((await query("subscriptions.allocation", { id: allocationId }, outsider)).error?.code).toBe(CODES.NOT_FOUND);
    expect((await query("subscriptions.forAccount", { accountId: busAccount }, outsider)).error?.code).toBe(CODES.NOT_FOUND);
    const theirs = await mutate("subscriptions.updateAllocation", { id: allocationId, version: 1, quantity: 1 }, outsider);
    expect(theirs.error?.code).toBe(CODES.NOT_FOUND);
    expect((await mutate("subscriptions.deallocate", { id: allocationId }, outsider)).error?.code).toBe(CODES.NOT_FOUND);
    const intoOther = await mutate("subscriptions.allocate", { subscriptionId, accountId: otherAccount, quantity: 1 }, owner);
    expect(intoOther.error?.code).toBe(CODES.NOT_FOUND);
    const fromOther = await mutate("subscriptions.add", { orgId: customer, plan: "Theirs", quantity: 1, ...period }, outsider);
    expect(fromOther.error?.code).toBe(CODES.NOT_FOUND);
    expect(await seatsGivenOut(subscriptionId)).toBe(3);
  });

  it("gives seats only to accounts in the subscription's organization tree", async () => {
    const answer = await mutate("subscriptions.allocate", { subscriptionId, accountId: siblingAccount, quantity: 1 }, owner);
    expect(answer.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(answer.error?.message).toBe("This account is not in the subscription's organization.");
  });

  it("lets a customer share out its own seats, and shows seats from above as read only", async () => {
    const own = data(
      await mutate<ShownAllocation>(
        "subscriptions.allocate",
        { subscriptionId, accountId: railAccount, quantity: 2 },
        customerOwner,
      ),
    );
    expect(own.quantity).toBe(2);
    const list = data(
      await query<{ items: { accountId: string; canChange: boolean }[] }>(
        "subscriptions.allocations",
        { orgId: customer },
        customerOwner,
      ),
    );
    expect(list.items.find((item) => item.accountId === railAccount)?.canChange).toBe(true);
  });
});

describe("allocations", () => {
  it("adds seats given twice to the same account on one allocation, logged each time", async () => {
    const { id } = await addSubscription({ plan: "Adding up", quantity: 10 });
    const first = data(
      await mutate<ShownAllocation>("subscriptions.allocate", { subscriptionId: id, accountId: busAccount, quantity: 3 }, owner),
    );
    const second = data(
      await mutate<ShownAllocation>("subscriptions.allocate", { subscriptionId: id, accountId: busAccount, quantity: 4 }, owner),
    );
    expect(second).toMatchObject({ id: first.id, quantity: 7, version: 2 });
    const entries = await activityOf(first.id);
    expect(entries.map((entry) => [entry.action, entry.entity_type, entry.deployable])).toEqual([
      ["create", "allocation", 0],
      ["update", "allocation", 0],
    ]);
    expect(JSON.parse(entries[1]?.diff ?? "{}")).toEqual({ quantity: { before: 3, after: 7 } });
  });

  it("refuses more seats than are free, with a clear message and no log entry", async () => {
    const { id } = await addSubscription({ plan: "Few seats", quantity: 5 });
    data(await mutate("subscriptions.allocate", { subscriptionId: id, accountId: busAccount, quantity: 4 }, owner));
    const before = await env.DB.prepare("SELECT count(*) AS n FROM activity_logs").first<{ n: number }>();
    const answer = await mutate("subscriptions.allocate", { subscriptionId: id, accountId: railAccount, quantity: 2 }, owner);
    expect(answer.error?.code).toBe(CODES.CONFLICT);
    expect(answer.error?.message).toMatch(/^Not enough free seats/);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM activity_logs").first<{ n: number }>()).toEqual(before);
    expect(await seatsGivenOut(id)).toBe(4);
  });

  it("edits an allocation at its version: lowering always, raising only into free seats", async () => {
    const { id } = await addSubscription({ plan: "Editing", quantity: 6 });
    const allocation = data(
      await mutate<ShownAllocation>("subscriptions.allocate", { subscriptionId: id, accountId: busAccount, quantity: 2 }, owner),
    );
    const raised = data(
      await mutate<ShownAllocation>("subscriptions.updateAllocation", { id: allocation.id, version: 1, quantity: 6 }, owner),
    );
    expect(raised).toMatchObject({ quantity: 6, version: 2 });
    const stale = await mutate("subscriptions.updateAllocation", { id: allocation.id, version: 1, quantity: 1 }, owner);
    expect(stale.error?.code).toBe(CODES.CONFLICT);
    expect(stale.error?.message).toMatch(/Someone else changed this/);
    const over = await mutate("subscriptions.updateAllocation", { id: allocation.id, version: 2, quantity: 7 }, owner);
    expect(over.error?.code).toBe(CODES.CONFLICT);
    expect(over.error?.message).toMatch(/^Not enough free seats/);
    const lowered = data(
      await mutate<ShownAllocation>("subscriptions.updateAllocation", { id: allocation.id, version: 2, quantity: 1 }, owner),
    );
    expect(lowered.quantity).toBe(1);
    const zero = await mutate("subscriptions.updateAllocation", { id: allocation.id, version: 3, quantity: 0 }, owner);
    expect(zero.error?.code).toBe(CODES.BAD_REQUEST);
    expect((await activityOf(allocation.id)).map((entry) => entry.action)).toEqual(["create", "update", "update"]);
  });

  it("takes seats back, refusing a stale version", async () => {
    const { id } = await addSubscription({ plan: "Taking back", quantity: 3 });
    const allocation = data(
      await mutate<ShownAllocation>("subscriptions.allocate", { subscriptionId: id, accountId: railAccount, quantity: 3 }, owner),
    );
    expect((await mutate("subscriptions.deallocate", { id: allocation.id, version: 9 }, owner)).error?.code).toBe(CODES.CONFLICT);
    expect(data(await mutate("subscriptions.deallocate", { id: allocation.id, version: 1 }, owner))).toEqual({ ok: true });
    expect(await seatsGivenOut(id)).toBe(0);
    expect((await activityOf(allocation.id)).map((entry) => entry.action)).toEqual(["create", "delete"]);
  });

  it("gives no seats of a suspended or expired subscription, but lets them be lowered", async () => {
    const created = await addSubscription({ plan: "Suspended", quantity: 5 });
    const allocation = data(
      await mutate<ShownAllocation>(
        "subscriptions.allocate",
        { subscriptionId: created.id, accountId: busAccount, quantity: 3 },
        owner,
      ),
    );
    data(
      await mutate(
        "subscriptions.update",
        { id: created.id, version: 1, plan: "Suspended", quantity: 5, ...period, status: "suspended", reference: "" },
        owner,
      ),
    );
    const more = await mutate(
      "subscriptions.allocate",
      { subscriptionId: created.id, accountId: railAccount, quantity: 1 },
      owner,
    );
    expect(more.error?.code).toBe(CODES.PRECONDITION_FAILED);
    expect(more.error?.message).toBe("Seats can only be allocated from an active subscription.");
    const raise = await mutate("subscriptions.updateAllocation", { id: allocation.id, version: 1, quantity: 4 }, owner);
    expect(raise.error?.code).toBe(CODES.PRECONDITION_FAILED);
    const lower = await mutate<ShownAllocation>(
      "subscriptions.updateAllocation",
      { id: allocation.id, version: 1, quantity: 2 },
      owner,
    );
    expect(data(lower).quantity).toBe(2);

    const expired = data(
      await mutate<ShownSubscription>(
        "subscriptions.add",
        { orgId: customer, plan: "Expired", quantity: 5, startsAt: "2020-01-01", endsAt: "2020-12-31" },
        owner,
      ),
    );
    expect(expired.effectiveStatus).toBe("expired");
    const late = await mutate(
      "subscriptions.allocate",
      { subscriptionId: expired.id, accountId: busAccount, quantity: 1 },
      owner,
    );
    expect(late.error?.code).toBe(CODES.PRECONDITION_FAILED);
  });

  it("never over-allocates when many allocate at once", async () => {
    const { id } = await addSubscription({ plan: "Rush hour", quantity: 5 });
    const accounts = await Promise.all([1, 2, 3, 4].map((n) => createAccount(customer, `Rush ${n}`)));
    const requests = Array.from({ length: 24 }, (_, n) => ({
      subscriptionId: id,
      accountId: accounts[n % accounts.length],
      quantity: 1 + (n % 2),
    }));
    const answers = await Promise.all(requests.map((input) => mutate("subscriptions.allocate", input, owner)));
    const won = requests.filter((_, n) => answers[n]?.result);
    const lost = answers.filter((answer) => answer.error);
    expect(won.length).toBeGreaterThan(0);
    expect(lost.length).toBeGreaterThan(0);
    expect(lost.every((answer) => answer.error?.code === CODES.CONFLICT)).toBe(true);
    // Never more than the subscription holds, and every seat a winner was told it got is there.
    const given = await seatsGivenOut(id);
    expect(given).toBeLessThanOrEqual(5);
    expect(given).toBe(won.reduce((sum, input) => sum + input.quantity, 0));

    // Raising allocations at once is held to the same limit.
    const rows = (
      await env.DB.prepare("SELECT id, version FROM allocations WHERE subscription_id = ?")
        .bind(id)
        .all<{ id: string; version: number }>()
    ).results;
    await Promise.all(
      rows.map((row) => mutate("subscriptions.updateAllocation", { id: row.id, version: row.version, quantity: 5 }, owner)),
    );
    expect(await seatsGivenOut(id)).toBeLessThanOrEqual(5);
  });

  it("is enforced by the database itself, whatever writes", async () => {
    const { id } = await addSubscription({ plan: "Database guard", quantity: 2 });
    await env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_guard_1', ?, ?, 2)")
      .bind(id, busAccount)
      .run();
    await expect(
      env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_guard_2', ?, ?, 1)")
        .bind(id, railAccount)
        .run(),
    ).rejects.toThrow(/over-allocated/);
    await expect(env.DB.prepare("UPDATE subscriptions SET quantity = 1 WHERE id = ?").bind(id).run()).rejects.toThrow(
      /over-allocated/,
    );
    await expect(env.DB.prepare("UPDATE allocations SET quantity = 3 WHERE id = 'alc_guard_1'").run()).rejects.toThrow(
      /over-allocated/,
    );
    expect(await seatsGivenOut(id)).toBe(2);
  });

  it("gives an account's seats back when the account is deleted", async () => {
    const { id } = await addSubscription({ plan: "Deleted account", quantity: 2 });
    const doomed = await createAccount(customer, "Short-lived");
    data(await mutate("subscriptions.allocate", { subscriptionId: id, accountId: doomed, quantity: 2 }, owner));
    data(await mutate("accounts.delete", { id: doomed, version: 1, confirmName: "Short-lived" }, owner));
    expect(await seatsGivenOut(id)).toBe(0);
  });
});

describe("screens", () => {
  let subscriptionId: string;

  beforeAll(async () => {
    subscriptionId = (await addSubscription({ plan: "Screen Plan", quantity: 4 })).id;
  });

  it("lists an organization's subscriptions with their seats", async () => {
    const response = await request(`/settings/subscriptions?orgId=${customer}`, { headers: { Cookie: owner } });
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toContain("Screen Plan");
    expect(html).toContain('aria-current="page"');
    expect(html).toContain(`/settings/subscriptions/allocate?subscriptionId=${subscriptionId}`);
    expect(html).toContain(`/settings/allocations?orgId=${customer}`); // the Allocations tab keeps ?orgId=
  });

  it("protects the screens from people without view-subscriptions-in-organizations", async () => {
    for (const cookie of [viewer, technician]) {
      for (const path of [`/settings/subscriptions?orgId=${customer}`, "/settings/allocations", "/settings/subscriptions/add"]) {
        const response = await request(path, { headers: { Cookie: cookie } });
        expect(response.status).toBe(403);
        expect(await response.text()).toContain("This route is protected.");
      }
      const post = await postForm(
        `/settings/subscriptions/allocate?subscriptionId=${subscriptionId}`,
        { accountId: busAccount, quantity: "1" },
        { Cookie: cookie },
      );
      expect(post.status).toBe(403);
    }
    expect(await seatsGivenOut(subscriptionId)).toBe(0);
  });

  it("answers another tenant's organization with not found", async () => {
    const response = await request(`/settings/subscriptions?orgId=${customer}`, { headers: { Cookie: outsider } });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain("Screen Plan");
  });

  it("allocates without JavaScript: the form again with the message, then a redirect", async () => {
    const path = `/settings/subscriptions/allocate?subscriptionId=${subscriptionId}`;
    const tooMany = await postForm(path, { accountId: busAccount, quantity: "5" }, { Cookie: owner });
    expect(tooMany.status).toBe(409);
    const html = await tooMany.text();
    expect(html).toContain("Not enough free seats.");
    expect(html).toContain('value="5"'); // what was typed stays
    const missing = await postForm(path, { accountId: "", quantity: "" }, { Cookie: owner });
    expect(missing.status).toBe(400);
    const missingHtml = await missing.text();
    expect(missingHtml).toContain("Choose the account that gets the seats.");
    expect(missingHtml).toContain("Enter the number of seats.");
    const done = await postForm(path, { accountId: busAccount, quantity: "4" }, { Cookie: owner });
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe(`/settings/subscriptions?orgId=${customer}`);
    expect(await seatsGivenOut(subscriptionId)).toBe(4);
  });

  it("answers an island's post with JSON, messages translated", async () => {
    const response = await postForm(
      `/settings/subscriptions/allocate?subscriptionId=${subscriptionId}`,
      { accountId: railAccount, quantity: "1" },
      { Cookie: `${owner}; lang=fr-CA`, Accept: "application/json" },
    );
    expect(response.status).toBe(409);
    expect(await response.json()).toEqual({
      ok: false,
      errors: { quantity: expect.stringMatching(/^Pas assez de licences libres/) },
    });
  });

  it("adds a subscription without JavaScript, with field messages first", async () => {
    const bad = await postForm(
      "/settings/subscriptions/add",
      { orgId: customer, plan: "", quantity: "ten", startsAt: "2025-03-01", endsAt: "2025-02-01", reference: "" },
      { Cookie: owner },
    );
    expect(bad.status).toBe(400);
    const html = await bad.text();
    expect(html).toContain("Enter the plan’s name.");
    expect(html).toContain("Enter a whole number of seats.");
    const good = await postForm(
      "/settings/subscriptions/add",
      { orgId: customer, plan: "Posted Plan", quantity: "7", startsAt: "2025-03-01", endsAt: "", reference: "PO-77" },
      { Cookie: owner },
    );
    expect(good.status).toBe(303);
    const list = await request(good.headers.get("Location") ?? "", { headers: { Cookie: owner } });
    expect(await list.text()).toContain("Posted Plan");
  });
});
