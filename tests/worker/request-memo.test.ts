import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { createCaller } from "@/server/api/router";
import { permissionsOf } from "@/server/auth/roles";
import type { SessionUser } from "@/server/auth/sessions";
import type { D1Database } from "@/server/cloudflare";
import { requestScoped } from "@/server/data/request-memo";
import { translatorFor } from "@/server/i18n/i18n";
import { defaultSettings } from "@/server/settings";
import { createAccount, createOrganization } from "./fixtures";
import { ORIGIN } from "./helpers";

// The per-request memo of tenant checks: one read per account and request, and never the
// account as it was before a write in the same request.

let orgId: string;
let otherOrgId: string;
let accountId: string;

beforeAll(async () => {
  orgId = await createOrganization("Memo dealer");
  otherOrgId = await createOrganization("Memo stranger");
  accountId = await createAccount(orgId, "Memo fleet");
});

/** A request's database handle over the test binding, counting the reads of the accounts table. */
function scopedCounting(): { db: D1Database; accountReads: () => number } {
  let reads = 0;
  const counted = new Proxy(env.DB as D1Database, {
    get(target, property) {
      if (property === "prepare")
        return (sql: string) => {
          if (/^\s*SELECT a\.id/.test(sql)) reads += 1;
          return target.prepare(sql);
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return { db: requestScoped(counted), accountReads: () => reads };
}

function callerOver(db: D1Database, org = orgId) {
  const user: SessionUser = {
    id: "usr_memo",
    sessionId: "ses_memo",
    email: "owner@memo.test",
    name: "Owner",
    orgId: org,
    role: "owner",
    language: "en",
    permissions: permissionsOf("owner"),
  };
  return createCaller({ env, db, user, language: "en", origin: ORIGIN, t: translatorFor("en", defaultSettings.brandNamespace) });
}

describe("per-request memo of accountInScope", () => {
  it("reads the account once however many procedures check it", async () => {
    const { db, accountReads } = scopedCounting();
    const caller = callerOver(db);
    await Promise.all([caller.accounts.details({ id: accountId }), caller.accounts.details({ id: accountId })]);
    await caller.sites.list({ accountId });
    expect(accountReads()).toBe(1);
  });

  it("a write then a read in one request sees the new value", async () => {
    const { db } = scopedCounting();
    const caller = callerOver(db);
    const before = await caller.accounts.details({ id: accountId });
    const after = await caller.accounts.update({
      id: accountId,
      version: before.version,
      name: "Memo fleet renamed",
      subscriptionLevel: before.subscriptionLevel,
      timezone: before.timezone,
    });
    expect(after.name).toBe("Memo fleet renamed");
    expect(after.version).toBe(before.version + 1);
    const read = await caller.accounts.details({ id: accountId });
    expect(read.name).toBe("Memo fleet renamed");
    // and a stale edit in the same request is refused against the new version
    await expect(
      caller.accounts.update({ ...after, id: accountId, version: before.version, name: "Stale", timezone: after.timezone }),
    ).rejects.toMatchObject({ code: "CONFLICT" });
  });

  it("keeps tenants apart: another organization's caller on the same handle gets NOT_FOUND", async () => {
    const { db } = scopedCounting();
    await callerOver(db).accounts.details({ id: accountId });
    await expect(callerOver(db, otherOrgId).accounts.details({ id: accountId })).rejects.toMatchObject({ code: "NOT_FOUND" });
  });

  it("the bare binding (scripts, other tests) is not memoized", async () => {
    const caller = callerOver(env.DB as D1Database);
    expect((await caller.accounts.details({ id: accountId }))._id).toBe(accountId);
  });
});
