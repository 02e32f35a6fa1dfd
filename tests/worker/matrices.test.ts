import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { appRouter } from "@/server/api/router";
import type { ProcedureMeta } from "@/server/api/trpc";
import { permissionsOf, type Role, roles } from "@/server/auth/roles";
import { createAccount, createOrganization, createUser, sessionCookie } from "./fixtures";
import { ORIGIN, request } from "./helpers";
import { procedureSamples, type Tenant } from "./procedure-samples";

type ProcedureDef = { type: "query" | "mutation" | "subscription"; meta?: ProcedureMeta };

/** Every procedure of the router, read from the router itself. */
const procedures = Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: ProcedureDef }>).map(
  ([path, p]) => ({
    path,
    type: p._def.type,
    meta: p._def.meta ?? {},
  }),
);

async function call(path: string, type: string, input: unknown, cookie: string) {
  const response =
    type === "query"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers: { Cookie: cookie } })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { Cookie: cookie, Origin: ORIGIN, "Content-Type": "application/json" },
        });
  const body = (await response.json()) as { error?: { data?: { code?: string } } };
  return body.error?.data?.code ?? "OK";
}

/** A fingerprint of every row of every table, to prove a refused call changed nothing. */
async function databaseFingerprint(): Promise<string> {
  const tables = await env.DB.prepare(
    "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE '\\_%' ESCAPE '\\' AND name NOT IN ('throttles', 'sessions', 'd1_migrations')",
  ).all<{ name: string }>();
  const parts: string[] = [];
  for (const { name } of tables.results) {
    const rows = await env.DB.prepare(`SELECT * FROM "${name}" ORDER BY 1`).all();
    parts.push(`${name}:${JSON.stringify(rows.results)}`);
  }
  return parts.join("\n");
}

async function makeTenant(label: string): Promise<Tenant & { cookies: Record<Role, string> }> {
  const orgId = await createOrganization(`${label} dealer`);
  const childOrgId = await createOrganization(`${label} customer`, orgId);
  const accountId = await createAccount(childOrgId, "Matrix fleet");
  const subscriptionId = `sub_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const allocationId = `alc_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const siteId = `site_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const locationId = `loc_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const profileId = `prf_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const ruleId = `rule_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const templateId = `prf_tpl_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const revisionId = `rev_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const deploymentId = `dep_${label}_${crypto.randomUUID().slice(0, 8)}`;
  const deviceUid = `MTX-${label}-${crypto.randomUUID().slice(0, 8)}`;
  const buttons = JSON.stringify({ side1: "monitor", side2: "scan", top: "none", emergency: "emergency-alarm" });
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES (?, ?, 'Matrix plan', 10, '2026-01-01')",
    ).bind(subscriptionId, childOrgId),
    env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES (?, ?, ?, 2)").bind(
      allocationId,
      subscriptionId,
      accountId,
    ),
    env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, 'Matrix site')").bind(siteId, accountId),
    env.DB.prepare("INSERT INTO locations (id, account_id, site_id, name) VALUES (?, ?, ?, 'Matrix room')").bind(
      locationId,
      accountId,
      siteId,
    ),
    env.DB.prepare(
      "INSERT INTO profiles (id, org_id, account_id, type, name, settings) VALUES (?, ?, ?, 'buttons', 'Matrix radios', ?), (?, ?, NULL, 'buttons', 'Matrix template', ?)",
    ).bind(profileId, childOrgId, accountId, buttons, templateId, orgId, buttons),
    env.DB.prepare("INSERT INTO rules (id, account_id, name, priority) VALUES (?, ?, 'Matrix rule', 1)").bind(ruleId, accountId),
    env.DB.prepare("INSERT INTO rule_profiles (rule_id, profile_id, position) VALUES (?, ?, 1)").bind(ruleId, profileId),
    env.DB.prepare("INSERT INTO rule_sets (account_id, version) VALUES (?, 1)").bind(accountId),
    env.DB.prepare("INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES (?, ?, 1, 'x', '{}')").bind(
      revisionId,
      accountId,
    ),
    env.DB.prepare(
      `INSERT INTO deployments (id, account_id, org_id, number, revision_id, previous_revision_id, state, plan, switchover, targeted, created_by)
       VALUES (?, ?, ?, 1, ?, ?, 'running', '{"phases":[{"share":100,"successPercent":100,"successAction":"next","errorKind":"count","errorValue":1,"errorMinimum":0,"waitMinutes":0}]}', '{"mode":"delivery"}', 0, 'matrix')`,
    ).bind(deploymentId, accountId, childOrgId, revisionId, revisionId),
    env.DB.prepare(
      "INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash) VALUES (?, ?, ?, 'Northwind', 'XR-7', 'x')",
    ).bind(deviceUid, childOrgId, accountId),
  ]);
  const cookies = {} as Record<Role, string>;
  let userId = "";
  for (const role of roles) {
    const user = await createUser({ orgId, role });
    userId ||= user.id;
    cookies[role] = await sessionCookie(user.email);
  }
  return {
    orgId,
    childOrgId,
    accountId,
    userId,
    subscriptionId,
    allocationId,
    siteId,
    locationId,
    profileId,
    ruleId,
    templateId,
    deploymentId,
    deviceUid,
    cookies,
  };
}

let home: Awaited<ReturnType<typeof makeTenant>>;
let other: Awaited<ReturnType<typeof makeTenant>>;

beforeAll(async () => {
  home = await makeTenant("Home");
  other = await makeTenant("Other");
});

describe("the matrices cover the whole router", () => {
  it("has a sample input for every procedure", () => {
    const missing = procedures.map((p) => p.path).filter((path) => !(path in procedureSamples));
    expect(missing).toEqual([]);
  });

  it("marks every procedure but the public ones as signed-in", () => {
    const open = procedures.filter((p) => !p.meta.signedIn).map((p) => p.path);
    expect(open).toEqual([]);
  });
});

// Each case calls every procedure of the router: the budget grows with the router, not per call.
describe("permission matrix: each role × each procedure", { timeout: 60_000 }, () => {
  // Reads first, so mutations that delete the sample account run last.
  const ordered = [...procedures].sort((a, b) => (a.type === b.type ? 0 : a.type === "query" ? -1 : 1));
  for (const role of roles) {
    it(`${role}: FORBIDDEN exactly where the role lacks the procedure's permission`, async () => {
      const granted = permissionsOf(role);
      const wrong: string[] = [];
      for (const procedure of ordered) {
        const sample = procedureSamples[procedure.path];
        if (!sample) continue;
        const code = await call(procedure.path, procedure.type, sample(home), home.cookies[role]);
        const shouldRefuse = procedure.meta.permission !== undefined && !granted[procedure.meta.permission];
        if (shouldRefuse !== (code === "FORBIDDEN") || code === "UNAUTHORIZED") wrong.push(`${procedure.path} → ${code}`);
      }
      expect(wrong).toEqual([]);
      // Every procedure in turn, over HTTP: the matrix grows with the router.
    }, 60_000);
  }

  it("refuses every procedure without a session", async () => {
    const answers = await Promise.all(
      procedures.map(async (p) => `${p.path} → ${await call(p.path, p.type, procedureSamples[p.path]?.(home) ?? {}, "")}`),
    );
    expect(answers.filter((a) => !a.endsWith("UNAUTHORIZED"))).toEqual([]);
  }, 60_000);
});

describe("tenant isolation: another organization's owner, with this organization's ids", { timeout: 60_000 }, () => {
  // A tenant no other test has touched, so every id still exists and a refusal means isolation.
  let target: Tenant;
  beforeAll(async () => {
    target = await makeTenant("Target");
  });

  it("answers NOT_FOUND or FORBIDDEN to every call that names an id, and changes nothing", async () => {
    const before = await databaseFingerprint();
    const leaks: string[] = [];
    for (const procedure of procedures) {
      const sample = procedureSamples[procedure.path];
      if (!sample) continue;
      const input = sample(target);
      // Calls that name nothing of this tenant (e.g. a search over the caller's own tree) are not isolation cases.
      const names = JSON.stringify(input) ?? "";
      if (
        ![
          target.orgId,
          target.childOrgId,
          target.accountId,
          target.userId,
          target.subscriptionId,
          target.allocationId,
          target.siteId,
          target.locationId,
          target.profileId,
          target.ruleId,
          target.templateId,
          target.deploymentId,
          target.deviceUid,
        ].some((id) => names.includes(id))
      )
        continue;
      const code = await call(procedure.path, procedure.type, input, other.cookies.owner);
      if (code !== "NOT_FOUND" && code !== "FORBIDDEN") leaks.push(`${procedure.path} → ${code}`);
    }
    expect(leaks).toEqual([]);
    expect(await databaseFingerprint()).toBe(before);
  }, 60_000);
});
