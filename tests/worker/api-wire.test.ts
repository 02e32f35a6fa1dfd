import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";

type Answer = {
  result?: { data: unknown };
  error?: { code: number; message: string; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

function query(path: string, input: unknown, cookie?: string) {
  const qs = input === undefined ? "" : `?input=${encodeURIComponent(JSON.stringify(input))}`;
  return request(`/api/${path}${qs}`, { headers: cookie ? { Cookie: cookie } : {} });
}

function mutate(path: string, input: unknown, cookie?: string, contentType = "application/json") {
  return request(`/api/${path}`, {
    method: "POST",
    body: JSON.stringify(input),
    headers: { Origin: ORIGIN, "Content-Type": contentType, ...(cookie ? { Cookie: cookie } : {}) },
  });
}

let owner: string;
let viewer: string;
let outsider: string;
let orgId: string;
let accountId: string;
let otherAccountId: string;

beforeAll(async () => {
  orgId = await createOrganization("Dealer");
  const customer = await createOrganization("Customer", orgId);
  const otherOrg = await createOrganization("Another tenant");
  accountId = await createAccount(customer, "Fleet North", "advanced");
  otherAccountId = await createAccount(otherOrg, "Their Fleet");
  owner = await sessionCookie((await createUser({ orgId, role: "owner" })).email);
  viewer = await sessionCookie((await createUser({ orgId, role: "viewer" })).email);
  outsider = await sessionCookie((await createUser({ orgId: otherOrg, role: "owner" })).email);
});

describe("wire format", () => {
  it("answers a query with result.data, lists with value and label", async () => {
    const response = await query("accounts.list", { orgId }, owner);
    expect(response.status).toBe(200);
    const body = (await response.json()) as Answer;
    expect(body.result?.data).toMatchObject({
      // Counted up to 1,000 (`more` says there are more); pages follow `next`/`previous` cursors.
      total: { count: 1, more: false },
      next: null,
      previous: null,
      items: [{ _id: accountId, name: "Fleet North", subscriptionLevel: "advanced", value: accountId, label: "Fleet North" }],
    });
  });

  it("batches with batch=1", async () => {
    const input = { 0: { id: accountId }, 1: { orgId } };
    const response = await request(
      `/api/accounts.details,accounts.list?batch=1&input=${encodeURIComponent(JSON.stringify(input))}`,
      {
        headers: { Cookie: owner },
      },
    );
    const body = (await response.json()) as Answer[];
    expect(body).toHaveLength(2);
    expect(body[0]?.result?.data).toMatchObject({ _id: accountId });
    expect(body[1]?.result?.data).toMatchObject({ total: { count: 1, more: false } });
  });

  it.each([
    ["UNAUTHORIZED", -32001, 401, () => query("accounts.list", { orgId: "x" })],
    ["BAD_REQUEST", -32600, 400, () => query("accounts.list", { orgId: 42 }, owner)],
    [
      "PARSE_ERROR",
      -32700,
      400,
      () =>
        request("/api/accounts.add", {
          method: "POST",
          body: "{not-json",
          headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: owner },
        }),
    ],
    ["NOT_FOUND (procedure)", -32004, 404, () => query("accounts.nope", {}, owner)],
    ["METHOD_NOT_SUPPORTED", -32005, 405, () => query("accounts.add", { orgId, name: "x" }, owner)],
    ["FORBIDDEN", -32003, 403, () => mutate("accounts.add", { orgId, name: "Nope" }, viewer)],
    ["NOT_FOUND (other tenant)", -32004, 404, () => query("accounts.details", { id: otherAccountId }, owner)],
  ])("answers %s with code %i and HTTP %i", async (_, code, status, call) => {
    const response = await call();
    expect(response.status).toBe(status);
    const body = (await response.json()) as Answer;
    expect(body.result).toBeUndefined();
    expect(body.error?.code).toBe(code);
    expect(typeof body.error?.message).toBe("string");
    expect(body.error?.data).not.toHaveProperty("stack.length"); // no stack traces on the wire
  });

  it("gives field messages, translated, for bad input", async () => {
    const response = await request(`/api/accounts.add`, {
      method: "POST",
      body: JSON.stringify({ orgId, name: "" }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: `${owner}; lang=es-MX` },
    });
    const body = (await response.json()) as Answer;
    expect(body.error?.code).toBe(-32600);
    expect(body.error?.data.fieldErrors?.name).toEqual(["Escribe el nombre de la cuenta."]);
  });

  it("refuses bodies that are not JSON", async () => {
    const response = await mutate("accounts.add", { orgId, name: "x" }, owner, "text/plain");
    expect([403, 415]).toContain(response.status);
    expect(await env.DB.prepare("SELECT count(*) AS n FROM accounts WHERE name = 'x'").first<{ n: number }>()).toEqual({ n: 0 });
  });
});

describe("accounts", () => {
  it("adds an account and logs it in the same batch", async () => {
    const response = await mutate(
      "accounts.add",
      { orgId, name: "Harbor Patrol", subscriptionLevel: "essential", timezone: "America/Chicago" },
      owner,
    );
    const created = ((await response.json()) as Answer).result?.data as { _id: string; version: number };
    expect(created).toMatchObject({ name: "Harbor Patrol", timezone: "America/Chicago", version: 1 });
    const log = await env.DB.prepare("SELECT action, entity_type, deployable FROM activity_logs WHERE entity_id = ?")
      .bind(created._id)
      .all();
    expect(log.results).toEqual([{ action: "create", entity_type: "account", deployable: 0 }]);
  });

  it("refuses a stale update with CONFLICT and leaves no log entry", async () => {
    const id = await createAccount(orgId, "Versioned");
    const first = await mutate(
      "accounts.update",
      { id, version: 1, name: "Versioned A", subscriptionLevel: "essential", timezone: "UTC" },
      owner,
    );
    expect(first.status).toBe(200);
    const stale = await mutate(
      "accounts.update",
      { id, version: 1, name: "Versioned B", subscriptionLevel: "advanced", timezone: "UTC" },
      owner,
    );
    expect(stale.status).toBe(409);
    expect(((await stale.json()) as Answer).error?.code).toBe(-32009);
    const row = await env.DB.prepare("SELECT name, version FROM accounts WHERE id = ?").bind(id).first();
    expect(row).toEqual({ name: "Versioned A", version: 2 });
    const logs = await env.DB.prepare("SELECT count(*) AS n FROM activity_logs WHERE entity_id = ?")
      .bind(id)
      .first<{ n: number }>();
    expect(logs?.n).toBe(1);
  });

  it("deletes only when the typed name matches", async () => {
    const id = await createAccount(orgId, "Doomed Fleet");
    const wrong = await mutate("accounts.delete", { id, version: 1, confirmName: "doomed" }, owner);
    expect(((await wrong.json()) as Answer).error?.code).toBe(-32012);
    const right = await mutate("accounts.delete", { id, version: 1, confirmName: "Doomed Fleet" }, owner);
    expect(right.status).toBe(200);
    expect(await env.DB.prepare("SELECT id FROM accounts WHERE id = ?").bind(id).first()).toBeNull();
  });

  it("keeps Wi-Fi passphrases write-only", async () => {
    const id = await createAccount(orgId, "Networked");
    const config = {
      wifi: [{ id: "w1", ssid: "Depot", security: "wpa2-personal", passphrase: "s3cret-pass", priority: 1 }],
      dnsServers: ["1.1.1.1"],
    };
    const saved = await mutate("accounts.updateNetworkConfig", { id, version: 1, config }, owner);
    const text = await saved.text();
    expect(text).not.toContain("s3cret-pass");
    expect(JSON.parse(text).result.data.config.wifi[0]).toMatchObject({ ssid: "Depot", hasPassphrase: true });
    // Saving again without the passphrase keeps it.
    const { passphrase: _, ...withoutSecret } = config.wifi[0] as Record<string, unknown>;
    await mutate("accounts.updateNetworkConfig", { id, version: 2, config: { wifi: [withoutSecret] } }, owner);
    const stored = await env.DB.prepare("SELECT network_config FROM accounts WHERE id = ?")
      .bind(id)
      .first<{ network_config: string }>();
    expect(JSON.parse(stored?.network_config ?? "{}").wifi[0].passphrase).toBe("s3cret-pass");
    const log = await env.DB.prepare(
      "SELECT diff, deployable FROM activity_logs WHERE entity_id = ? AND entity_type = 'network-config'",
    )
      .bind(id)
      .all<{ diff: string; deployable: number }>();
    expect(log.results.every((r) => !r.diff.includes("s3cret-pass") && r.deployable === 1)).toBe(true);
  });

  it("reports a missing WPA passphrase as a field error, not just a message", async () => {
    const id = await createAccount(orgId, "No passphrase yet");
    const config = { wifi: [{ id: "w1", ssid: "Yard", security: "wpa2-personal", priority: 1 }] };
    const response = await mutate("accounts.updateNetworkConfig", { id, version: 1, config }, owner);
    const body = (await response.json()) as Answer;
    expect(body.error?.code).toBe(-32600);
    expect(body.error?.data.fieldErrors?.config?.length).toBe(1);
  });

  it("shows another tenant nothing and lets it change nothing", async () => {
    expect((await query("accounts.list", { orgId }, outsider)).status).toBe(404);
    expect(
      (
        await mutate(
          "accounts.update",
          { id: accountId, version: 1, name: "Hijacked", subscriptionLevel: "essential", timezone: "UTC" },
          outsider,
        )
      ).status,
    ).toBe(404);
    const names = ((await (await query("accounts.publicList", { search: "" }, outsider)).json()) as Answer).result?.data as {
      label: string;
    }[];
    expect(names.map((n) => n.label)).toEqual(["Their Fleet"]);
    expect(await env.DB.prepare("SELECT name FROM accounts WHERE id = ?").bind(accountId).first()).toEqual({
      name: "Fleet North",
    });
  });
});
