import { beforeAll, describe, expect, it } from "vitest";
import { integratorProcedures } from "@/server/api/integrator-procedures";
import { databaseFingerprint } from "./database-fingerprint";
import { ORIGIN, request } from "./helpers";
import { procedureSamples } from "./procedure-samples";
import { procedures } from "./procedures";
import { makeTenant } from "./tenant";

// A token limited to one account (issue 27) reaches nothing of a sibling account of the same
// organization, nor the organization itself: every procedure a token may call, with the sibling's
// ids, is refused and writes nothing.

type Answer = { result?: { data: unknown }; error?: { message: string; data: { code: string; httpStatus: number } } };

let home: Awaited<ReturnType<typeof makeTenant>>;
let sibling: Awaited<ReturnType<typeof makeTenant>>;
let token = "";

async function call(path: string, type: string, input: unknown): Promise<{ status: number; body: Answer }> {
  const headers = { Authorization: `Bearer ${token}` };
  const response =
    type === "query"
      ? await request(`/api/${path}?input=${encodeURIComponent(JSON.stringify(input))}`, { headers })
      : await request(`/api/${path}`, {
          method: "POST",
          body: JSON.stringify(input),
          headers: { ...headers, Origin: ORIGIN, "Content-Type": "application/json" },
        });
  return { status: response.status, body: (await response.json()) as Answer };
}

/** Every row but the counters and the token's own last use, to prove nothing was written. */
const fingerprint = () => databaseFingerprint(["api_tokens"]);

beforeAll(async () => {
  home = await makeTenant("Lim");
  sibling = await makeTenant("Sib", { orgId: home.orgId, childOrgId: home.childOrgId });
  const response = await request("/api/apiTokens.create", {
    method: "POST",
    body: JSON.stringify({ name: "Only home", role: "owner", accountIds: [home.accountId], expiresInDays: 7 }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: home.cookies.owner },
  });
  token = ((await response.json()) as { result: { data: { token: string } } }).result.data.token;
});

describe("a token limited to one account", () => {
  it("works in its account, and lists only that account", async () => {
    expect((await call("sites.list", "query", { accountId: home.accountId })).status).toBe(200);
    expect((await call("devices.details", "query", { uid: home.deviceUid })).status).toBe(200);
    const accounts = await call("accounts.list", "query", { orgId: home.orgId });
    const items = (accounts.body.result?.data as { items?: { _id: string }[] } | undefined)?.items ?? [];
    expect(items.map((a) => a._id)).toEqual([home.accountId]);
  });

  it("is refused every integrator procedure with a sibling account's ids, and writes nothing", async () => {
    const before = await fingerprint();
    const leaks: string[] = [];
    let checked = 0;
    // Reads first, so that no write of a leak hides a read's.
    const ordered = procedures
      .filter((p) => integratorProcedures.has(p.path))
      .sort((a, b) => (a.type === b.type ? 0 : a.type === "query" ? -1 : 1));
    for (const procedure of ordered) {
      const sample = procedureSamples[procedure.path];
      if (!sample) {
        leaks.push(`${procedure.path}: no sample`);
        continue;
      }
      const input = sample(sibling);
      const { status, body } = await call(procedure.path, procedure.type, input);
      checked += 1;
      if (procedure.path === "accounts.list") {
        // The organization's accounts, as far as the token sees them: its own alone.
        const items = (body.result?.data as { items?: { _id: string }[] } | undefined)?.items ?? [];
        if (items.map((a) => a._id).join() !== home.accountId) leaks.push(`accounts.list → ${JSON.stringify(items)}`);
        continue;
      }
      // Refused: not found, forbidden, or (a foreign id inside an input) bad request; never a 5xx.
      if (!body.error || status >= 500 || !["NOT_FOUND", "FORBIDDEN", "BAD_REQUEST"].includes(body.error.data.code)) {
        leaks.push(`${procedure.path} → ${status} ${body.error?.data.code ?? JSON.stringify(body.result?.data).slice(0, 120)}`);
      }
    }
    expect(leaks).toEqual([]);
    expect(checked).toBe(integratorProcedures.size);
    expect(await fingerprint()).toBe(before);
  }, 120_000);

  it("is refused the organization's own frame (the same calls without an account), and writes nothing", async () => {
    const before = await fingerprint();
    const leaks: string[] = [];
    for (const procedure of procedures.filter((p) => integratorProcedures.has(p.path))) {
      const input = procedureSamples[procedure.path]?.(sibling);
      if (!input || typeof input !== "object" || !("accountId" in input)) continue;
      const { accountId: _account, ...orgFrame } = input as Record<string, unknown>;
      const { status, body } = await call(procedure.path, procedure.type, orgFrame);
      // Refused (FORBIDDEN above its accounts, or bad input where an account is required); never answered.
      if (!body.error || status >= 500)
        leaks.push(`${procedure.path} → ${status} ${JSON.stringify(body.result?.data).slice(0, 120)}`);
    }
    expect(leaks).toEqual([]);
    expect(await fingerprint()).toBe(before);
  }, 120_000);
});

describe("a token for every account", () => {
  it("calls every integrator procedure with its own ids without a server error, as a person would", async () => {
    const own = await makeTenant("Whole");
    const made = await request("/api/apiTokens.create", {
      method: "POST",
      body: JSON.stringify({ name: "Everything", role: "owner", accountIds: null, expiresInDays: 7 }),
      headers: { Origin: ORIGIN, "Content-Type": "application/json", Cookie: own.cookies.owner },
    });
    token = ((await made.json()) as { result: { data: { token: string } } }).result.data.token;
    const failures: string[] = [];
    const ordered = procedures
      .filter((p) => integratorProcedures.has(p.path))
      .sort((a, b) => (a.type === b.type ? 0 : a.type === "query" ? -1 : 1));
    for (const procedure of ordered) {
      const { status, body } = await call(procedure.path, procedure.type, procedureSamples[procedure.path]?.(own) ?? {});
      // The same answers a person of that role gets: never a 5xx, never "not for tokens" nor "sign in".
      if (status >= 500 || ["UNAUTHORIZED", "FORBIDDEN"].includes(body.error?.data.code ?? "")) {
        failures.push(`${procedure.path} → ${status} ${body.error?.message ?? ""}`);
      }
    }
    expect(failures).toEqual([]);
  }, 120_000);
});
