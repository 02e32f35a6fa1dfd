import { beforeAll, describe, expect, it } from "vitest";
import { permissionsOf, roles } from "@/server/auth/roles";
import { databaseFingerprint } from "./database-fingerprint";
import { ORIGIN, request } from "./helpers";
import { procedureSamples, type Tenant } from "./procedure-samples";
import { procedures } from "./procedures";
import { makeTenant } from "./tenant";

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

  it("guards every read of network settings with edit-network-config, like their writes (spec §6)", () => {
    const network = procedures.filter((p) => /networkconfig/i.test(p.path));
    expect(network.length).toBeGreaterThanOrEqual(7);
    expect(network.filter((p) => p.meta.permission !== "edit-network-config").map((p) => p.path)).toEqual([]);
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
