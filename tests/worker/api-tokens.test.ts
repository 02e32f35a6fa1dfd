import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createApp } from "@/server/app";
import { sha256Hex } from "@/server/auth/crypto";
import type { D1Database } from "@/server/cloudflare";
import { type Counted, counting } from "./d1-counting";
import { ORIGIN, postForm, request } from "./helpers";
import { makeTenant } from "./tenant";

// API tokens (issue 27): made once by a person who may edit users, then the only credential of
// a script calling the procedures and the listed downloads, with the role and accounts it was given.

type Answer = {
  result?: { data: unknown };
  error?: { message: string; code: number; data: { code: string; httpStatus: number; fieldErrors?: Record<string, string[]> } };
};

let home: Awaited<ReturnType<typeof makeTenant>>;

async function callWith(headers: Record<string, string>, path: string, input: unknown, method: "GET" | "POST" = "POST") {
  const response =
    method === "GET"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Origin: ORIGIN, "Content-Type": "application/json", ...headers },
        });
  return { response, body: (await response.json()) as Answer };
}

const asOwner = (path: string, input: unknown, method: "GET" | "POST" = "POST") =>
  callWith({ Cookie: home.cookies.owner }, path, input, method);
const withToken = (token: string, path: string, input: unknown, method: "GET" | "POST" = "POST", extra = {}) =>
  callWith({ Authorization: `Bearer ${token}`, ...extra }, path, input, method);

let counter = 0;
async function makeToken(input: Record<string, unknown> = {}, cookie = home.cookies.owner) {
  counter += 1;
  const { body } = await callWith({ Cookie: cookie }, "apiTokens.create", {
    name: `Script ${counter}`,
    role: "configurator",
    accountIds: null,
    expiresInDays: 30,
    ...input,
  });
  const data = body.result?.data as { id: string; token: string } | undefined;
  if (!data) throw new Error(JSON.stringify(body));
  return data;
}

beforeAll(async () => {
  home = await makeTenant("Tok");
});

describe("creating a token", () => {
  it("answers the secret once and stores only its hash and hint", async () => {
    const { id, token } = await makeToken({ name: "ERP sync" });
    expect(token).toMatch(/^ctk_[A-Za-z0-9_-]{43}$/);
    const row = await env.DB.prepare("SELECT * FROM api_tokens WHERE id = ?").bind(id).first<Record<string, unknown>>();
    expect(row?.token_hash).toBe(await sha256Hex(token));
    expect(row?.token_hint).toBe(token.slice(4, 12));
    expect(JSON.stringify(row)).not.toContain(token);
    const listed = (await asOwner("apiTokens.list", {}, "GET")).body;
    const shown = ((listed.result?.data ?? []) as { id: string; state: string }[]).find((t) => t.id === id);
    expect(shown?.state).toBe("active");
    expect(JSON.stringify(listed)).not.toContain(token);
    expect(JSON.stringify(listed)).not.toContain(String(row?.token_hash));
    // The making is in the log, naming the token.
    const entry = await env.DB.prepare(
      "SELECT actor_email, action FROM activity_logs WHERE entity_type = 'api-token' AND entity_id = ?",
    )
      .bind(id)
      .first();
    expect(entry).toEqual({ actor_email: expect.stringContaining("@"), action: "create" });
  });

  it("refuses a role above the creator's, a case agent, and bad input, with a 4xx on the field", async () => {
    const admin = await callWith({ Cookie: home.cookies.admin }, "apiTokens.create", {
      name: "Too high",
      role: "owner",
      accountIds: null,
      expiresInDays: 30,
    });
    expect(admin.body.error?.data.code).toBe("BAD_REQUEST");
    expect(admin.body.error?.message).toMatch(/role above your own/);
    for (const input of [
      { name: "Agent", role: "case-agent", accountIds: null, expiresInDays: 30 },
      { name: "", role: "viewer", accountIds: null, expiresInDays: 30 },
      { name: "Too long", role: "viewer", accountIds: null, expiresInDays: 367 },
      { name: "Past", role: "viewer", accountIds: null, expiresAt: "2020-01-01" },
      { name: "None", role: "viewer", accountIds: null },
      { name: "Empty limit", role: "viewer", accountIds: [], expiresInDays: 30 },
    ]) {
      const { response, body } = await asOwner("apiTokens.create", input);
      expect(response.status, JSON.stringify(input)).toBe(400);
      expect(body.error?.message).toBeTruthy();
    }
    await makeToken({ name: "Twice" });
    expect(
      (await asOwner("apiTokens.create", { name: "Twice", role: "viewer", accountIds: null, expiresInDays: 1 })).body.error?.data
        .code,
    ).toBe("CONFLICT");
  });

  it("refuses an account of another tenant, and people without edit-users", async () => {
    const away = await makeTenant("TokAway");
    const foreign = await asOwner("apiTokens.create", {
      name: "Foreign",
      role: "viewer",
      accountIds: [away.accountId],
      expiresInDays: 30,
    });
    expect(foreign.body.error?.data.code).toBe("NOT_FOUND");
    const viewer = await callWith({ Cookie: home.cookies.viewer }, "apiTokens.create", {
      name: "Viewer's",
      role: "viewer",
      accountIds: null,
      expiresInDays: 30,
    });
    expect(viewer.body.error?.data.code).toBe("FORBIDDEN");
  });
});

describe("calling with a token", () => {
  it("reaches an integrator procedure with the token's permissions, and no other procedure", async () => {
    const { token } = await makeToken({ role: "viewer" });
    const sites = await withToken(token, "sites.list", { accountId: home.accountId }, "GET");
    expect(sites.response.status).toBe(200);
    // A viewer token cannot create a deployment, as a viewer cannot.
    const create = await withToken(token, "deployments.create", { accountId: home.accountId, note: "token" });
    expect(create.response.status).toBe(403);
    expect(create.body.error?.data.code).toBe("FORBIDDEN");
    // The screens' own procedures (people, tokens) are not for tokens, whatever the role.
    const { token: ownerToken } = await makeToken({ role: "owner" });
    for (const [path, input] of [
      ["users.list", { orgId: home.orgId }],
      ["apiTokens.list", {}],
    ] as const) {
      const answer = await withToken(ownerToken, path, input, "GET");
      expect(answer.response.status, path).toBe(403);
      expect(answer.body.error?.message).toMatch(/API tokens can't use this procedure/);
    }
    const made = await withToken(ownerToken, "apiTokens.create", {
      name: "Child",
      role: "viewer",
      accountIds: null,
      expiresInDays: 1,
    });
    expect(made.response.status).toBe(403);
  });

  it("answers 401 with WWW-Authenticate for a malformed, unknown, expired or revoked token, translated, never the cookie", async () => {
    const { id, token } = await makeToken();
    const { token: expired, id: expiredId } = await makeToken();
    await env.DB.prepare("UPDATE api_tokens SET expires_at = '2020-01-01T00:00:00.000Z' WHERE id = ?").bind(expiredId).run();
    expect((await withToken(token, "sites.list", { accountId: home.accountId }, "GET")).response.status).toBe(200);
    const revoked = await asOwner("apiTokens.revoke", { id, version: 1 });
    expect(revoked.body.result?.data).toEqual({ ok: true });
    for (const credential of [token, expired, "ctk_short", `ctk_${"A".repeat(43)}`, "", "not a token"]) {
      const { response, body } = await withToken(credential, "sites.list", { accountId: home.accountId }, "GET", {
        // A session cookie sent along does not stand in for the refused token.
        Cookie: home.cookies.owner,
      });
      expect(response.status, credential).toBe(401);
      expect(response.headers.get("WWW-Authenticate")).toMatch(/^Bearer/);
      expect(body.error?.data.code).toBe("UNAUTHORIZED");
      expect(body.error?.code).toBe(-32001);
    }
    const french = await withToken(token, "sites.list", { accountId: home.accountId }, "GET", { "Accept-Language": "fr-CA" });
    expect(french.body.error?.message).toMatch(/jeton/);
    // Revoking shows in the log and in the list.
    const list = ((await asOwner("apiTokens.list", {}, "GET")).body.result?.data ?? []) as { id: string; state: string }[];
    expect(list.find((t) => t.id === id)?.state).toBe("revoked");
    expect(list.find((t) => t.id === expiredId)?.state).toBe("expired");
    const logged = await env.DB.prepare(
      "SELECT action, diff FROM activity_logs WHERE entity_type = 'api-token' AND entity_id = ? ORDER BY created_at",
    )
      .bind(id)
      .all<{ action: string; diff: string }>();
    expect(logged.results.map((entry) => entry.action)).toEqual(["create", "update"]);
    expect(JSON.parse(logged.results[1]?.diff ?? "{}")).toEqual({ state: { before: "active", after: "revoked" } });
    expect((await asOwner("apiTokens.revoke", { id, version: 2 })).body.error?.data.code).toBe("CONFLICT");
  });

  it("writes each change with the token as its actor, shown readably in the log", async () => {
    const { id, token } = await makeToken({ name: "Pipeline" });
    // As a script sends it: no Origin, no cookie, JSON.
    const added = await request("/api/sites.add", {
      method: "POST",
      body: JSON.stringify({ accountId: home.accountId, name: "Site from a script" }),
      headers: { Authorization: `Bearer ${token}`, "Content-Type": "application/json" },
    });
    expect(added.status).toBe(200);
    const entry = await env.DB.prepare(
      "SELECT actor_id, actor_email FROM activity_logs WHERE entity_type = 'site' AND entity_label = 'Site from a script'",
    ).first();
    expect(entry).toEqual({ actor_id: id, actor_email: "api-token:Pipeline" });
    const page = await request(`/accounts/${home.accountId}/activity-logs`, { headers: { Cookie: home.cookies.owner } });
    expect(await page.text()).toContain("API token “Pipeline”");
    const spanish = await request(`/accounts/${home.accountId}/activity-logs`, {
      headers: { Cookie: `${home.cookies.owner}; lang=es-MX` },
    });
    expect(await spanish.text()).toContain("Token de API «Pipeline»");
  });

  it("shows a token as the author on the pages that name who did something", async () => {
    const { token } = await makeToken({ name: "Pinger" });
    const sent = await withToken(token, "commands.send", { uid: home.deviceUid, accountId: home.accountId, type: "ping" });
    expect(sent.response.status).toBe(200);
    const history = await request(`/accounts/${home.accountId}/registry/devices/${home.deviceUid}/commands`, {
      headers: { Cookie: home.cookies.owner },
    });
    expect(history.status).toBe(200);
    expect(await history.text()).toContain("API token “Pinger”");
    // A deployment started by a token: its list and its page name the token.
    await env.DB.prepare("UPDATE deployments SET created_by = 'api-token:Releaser' WHERE id = ?").bind(home.deploymentId).run();
    for (const path of [
      `/accounts/${home.accountId}/deployments`,
      `/accounts/${home.accountId}/deployments/${home.deploymentId}`,
    ]) {
      const page = await request(path, { headers: { Cookie: home.cookies.owner } });
      expect(page.status, path).toBe(200);
      expect(await page.text(), path).toContain("API token “Releaser”");
    }
  });

  it("records the last use (time, address, country) at most once a minute", async () => {
    const { id, token } = await makeToken();
    const before = await env.DB.prepare("SELECT last_used_at FROM api_tokens WHERE id = ?").bind(id).first();
    expect(before).toEqual({ last_used_at: null });
    await withToken(token, "sites.list", { accountId: home.accountId }, "GET", { "CF-Connecting-IP": "203.0.113.7" });
    const first = await env.DB.prepare("SELECT last_used_at, last_used_address FROM api_tokens WHERE id = ?")
      .bind(id)
      .first<{ last_used_at: string; last_used_address: string }>();
    expect(first?.last_used_address).toBe("203.0.113.7");
    await withToken(token, "sites.list", { accountId: home.accountId }, "GET", { "CF-Connecting-IP": "198.51.100.1" });
    const second = await env.DB.prepare("SELECT last_used_at, last_used_address FROM api_tokens WHERE id = ?").bind(id).first();
    // Within the minute: not written again.
    expect(second).toEqual(first);
    await env.DB.prepare("UPDATE api_tokens SET last_used_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").bind(id).run();
    await withToken(token, "sites.list", { accountId: home.accountId }, "GET", { "CF-Connecting-IP": "198.51.100.1" });
    const third = await env.DB.prepare("SELECT last_used_address FROM api_tokens WHERE id = ?").bind(id).first();
    expect(third).toEqual({ last_used_address: "198.51.100.1" });
    // Cloudflare's country of the caller, when it knows one.
    await env.DB.prepare("UPDATE api_tokens SET last_used_at = '2026-01-01T00:00:00.000Z' WHERE id = ?").bind(id).run();
    const input = encodeURIComponent(JSON.stringify({ accountId: home.accountId }));
    const fromCanada = new Request(`${ORIGIN}/api/sites.list?input=${input}`, {
      headers: { Authorization: `Bearer ${token}`, "CF-Connecting-IP": "192.0.2.44" },
      cf: { country: "CA" },
    } as RequestInit);
    expect((await createApp().request(fromCanada, undefined, env)).status).toBe(200);
    const fourth = await env.DB.prepare("SELECT last_used_address, last_used_country FROM api_tokens WHERE id = ?")
      .bind(id)
      .first();
    expect(fourth).toEqual({ last_used_address: "192.0.2.44", last_used_country: "CA" });
    // The list shows it.
    const page = await request("/settings/api-tokens", { headers: { Cookie: home.cookies.owner } });
    expect(await page.text()).toContain("192.0.2.44 · CA");
  });

  it("costs one read to find the token and one write to count the call (last use: one write a minute)", async () => {
    const { token } = await makeToken();
    const input = encodeURIComponent(JSON.stringify({ accountId: home.accountId }));
    const measure = async (headers: Record<string, string>) => {
      const counted: Counted = { calls: 0, statements: [] };
      const response = await createApp().request(new Request(`${ORIGIN}/api/sites.list?input=${input}`, { headers }), undefined, {
        ...env,
        DB: counting(env.DB as D1Database, counted),
      });
      expect(response.status).toBe(200);
      return counted.statements;
    };
    const firstCall = await measure({ Authorization: `Bearer ${token}` });
    const laterCall = await measure({ Authorization: `Bearer ${token}` });
    const withCookie = await measure({ Cookie: home.cookies.owner });
    // The token's lookup takes the place of the session's read (each one round trip); then one
    // write counts the call, and the first call of a minute writes the last use.
    expect(laterCall.length).toBe(withCookie.length + 1);
    expect(laterCall.filter((sql) => sql.startsWith("INSERT INTO throttles"))).toHaveLength(1);
    expect(firstCall.length).toBe(withCookie.length + 2);
    expect(firstCall.filter((sql) => sql.startsWith("UPDATE api_tokens SET last_used_at"))).toHaveLength(1);
  });

  it("answers 429 with Retry-After once the token's window is spent", async () => {
    const { token } = await makeToken();
    const app = createApp();
    const limited = { ...env, API_TOKEN_RATE_LIMIT: "3" };
    const call = () =>
      app.request(
        new Request(`${ORIGIN}/api/sites.list?input=${encodeURIComponent(JSON.stringify({ accountId: home.accountId }))}`, {
          headers: { Authorization: `Bearer ${token}` },
        }),
        undefined,
        limited,
      );
    const statuses: number[] = [];
    let last: Response | undefined;
    for (let i = 0; i < 4; i++) {
      last = await call();
      statuses.push(last.status);
    }
    // A sliding window: the fourth call is refused even when a minute's edge falls between them.
    expect(statuses).toEqual([200, 200, 200, 429]);
    const retryAfter = Number(last?.headers.get("Retry-After"));
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    // The rest of this minute and at most a share of the next (while this minute's calls weigh).
    expect(retryAfter).toBeLessThanOrEqual(120);
    const body = (await last?.json()) as Answer;
    expect(body.error?.data.code).toBe("TOO_MANY_REQUESTS");
    expect(body.error?.message).toMatch(/too many calls/);
  });

  it("downloads a listed CSV with the token, and no page", async () => {
    const { token } = await makeToken({ role: "viewer" });
    const csv = await request(`/accounts/${home.accountId}/activity-logs/export.csv`, {
      headers: { Authorization: `Bearer ${token}` },
    });
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toMatch(/text\/csv/);
    expect(await csv.text()).toContain("Site from a script");
    for (const path of [
      `/accounts/${home.accountId}/registry/devices/export.csv`,
      `/accounts/${home.accountId}/reports/inventory?format=csv`,
    ]) {
      const download = await request(path, { headers: { Authorization: `Bearer ${token}` } });
      expect(download.status, path).toBe(200);
      expect(download.headers.get("Content-Type"), path).toMatch(/text\/csv/);
      await download.text();
    }
    const refused = await request(`/accounts/${home.accountId}/activity-logs/export.csv`, {
      headers: { Authorization: "Bearer ctk_nothing" },
    });
    expect(refused.status).toBe(401);
    // A page is not a token's: the header is not a credential there.
    const page = await request(`/accounts/${home.accountId}/activity-logs`, { headers: { Authorization: `Bearer ${token}` } });
    expect(page.status).toBe(401);
    expect(await page.text()).not.toContain("Site from a script");
  });
});

describe("the screens", () => {
  it("lists tokens with their state and links the API reference", async () => {
    const page = await request("/settings/api-tokens", { headers: { Cookie: home.cookies.owner } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('href="/docs/api"');
    expect(html).toContain("ERP sync");
    expect(html).toContain('data-token-state="revoked"');
    expect(html).toContain('href="/settings/api-tokens/add"');
    const viewer = await request("/settings/api-tokens", { headers: { Cookie: home.cookies.viewer } });
    expect(viewer.status).toBe(403);
  });

  it("creates a token without JavaScript: the answer is the secret, once, not cached", async () => {
    const answer = await postForm(
      "/settings/api-tokens/add",
      { name: "From the form", role: "technician", scope: "some", accountIds: home.accountId, expiresInDays: "90" },
      { Cookie: home.cookies.owner },
    );
    expect(answer.status).toBe(200);
    expect(answer.headers.get("Cache-Control")).toBe("no-store");
    const html = await answer.text();
    const secret = /value="(ctk_[A-Za-z0-9_-]{43})"/.exec(html)?.[1];
    expect(secret).toBeTruthy();
    expect(html).toContain("it is not shown again");
    const row = await env.DB.prepare("SELECT role, account_ids FROM api_tokens WHERE name = 'From the form'").first();
    expect(row).toEqual({ role: "technician", account_ids: JSON.stringify([home.accountId]) });
    // The list never shows it again.
    const list = await (await request("/settings/api-tokens", { headers: { Cookie: home.cookies.owner } })).text();
    expect(list).not.toContain(secret);
    expect(list).toContain(`ctk_${secret?.slice(4, 12)}`);
    // Bad input: the form again with the error on its field.
    const bad = await postForm(
      "/settings/api-tokens/add",
      { name: "", role: "viewer", scope: "all", expiresInDays: "90" },
      { Cookie: home.cookies.owner },
    );
    expect(bad.status).toBe(400);
    expect(await bad.text()).toContain("Enter the token’s name.");
  });

  it("offers a search when the accounts do not all fit the form, and limits to one found", async () => {
    const inserts = Array.from({ length: 101 }, (_, i) =>
      env.DB.prepare("INSERT INTO accounts (id, org_id, name) VALUES (?, ?, ?)").bind(
        `acc_many_${i}_${crypto.randomUUID().slice(0, 6)}`,
        home.childOrgId,
        `Fleet ${String(i).padStart(3, "0")}`,
      ),
    );
    await env.DB.batch(inserts);
    const far = `acc_far_${crypto.randomUUID().slice(0, 6)}`;
    await env.DB.prepare("INSERT INTO accounts (id, org_id, name) VALUES (?, ?, 'Zulu harbour tugs')")
      .bind(far, home.childOrgId)
      .run();
    const form = await (await request("/settings/api-tokens/add", { headers: { Cookie: home.cookies.owner } })).text();
    expect(form).toContain("Find accounts by name");
    expect(form).not.toContain("Zulu harbour tugs");
    const found = await (
      await request("/settings/api-tokens/add?search=zulu", { headers: { Cookie: home.cookies.owner } })
    ).text();
    expect(found).toContain("Zulu harbour tugs");
    expect(found).toContain('action="/settings/api-tokens/add?search=zulu"');
    const made = await postForm(
      "/settings/api-tokens/add?search=zulu",
      { name: "Tugs only", role: "viewer", scope: "some", accountIds: far, expiresInDays: "30" },
      { Cookie: home.cookies.owner },
    );
    expect(made.status).toBe(200);
    const row = await env.DB.prepare("SELECT account_ids FROM api_tokens WHERE name = 'Tugs only'").first();
    expect(row).toEqual({ account_ids: JSON.stringify([far]) });
  });

  it("revokes from its page, at once", async () => {
    const { id, token } = await makeToken({ name: "To revoke" });
    const confirm = await request(`/settings/api-tokens/revoke/${id}`, { headers: { Cookie: home.cookies.owner } });
    expect(await confirm.text()).toContain("Revoke the API token “To revoke”?");
    const done = await postForm(`/settings/api-tokens/revoke/${id}`, { version: "1" }, { Cookie: home.cookies.owner });
    expect(done.status).toBe(303);
    expect(done.headers.get("Location")).toBe("/settings/api-tokens");
    expect((await withToken(token, "sites.list", { accountId: home.accountId }, "GET")).response.status).toBe(401);
    const missing = await request("/settings/api-tokens/revoke/tok_missing", { headers: { Cookie: home.cookies.owner } });
    expect(missing.status).toBe(404);
  });
});
