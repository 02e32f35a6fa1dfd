import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { listChangesToDeploy } from "@/server/data/activity-logs";
import { createAccount, createOrganization } from "./fixtures";

// The pending-changes banner reads a counter (pending_change_counts) that the activity_logs
// triggers move in the statement that writes, deploys or deletes a change, so its cost does
// not grow with the number of pending changes. This checks the counter stays equal to the
// real count through each of those writes.

let orgId: string;
let accountId: string;

async function insertChanges(count: number, deployable = 1) {
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable)
     SELECT printf('act_pending_%s_%05d', hex(randomblob(4)), i), ?, ?, 'usr_x', 'x@example.com', 'update', 'site', 'site_x', 'Depot', '[]', ? FROM n`,
  )
    .bind(count, orgId, accountId, deployable)
    .run();
}

async function exactCount(): Promise<number> {
  const row = await env.DB.prepare(
    "SELECT count(*) AS n FROM activity_logs WHERE account_id = ? AND deployable = 1 AND deployment_id IS NULL",
  )
    .bind(accountId)
    .first<{ n: number }>();
  return row?.n ?? 0;
}

beforeAll(async () => {
  orgId = await createOrganization("Pending counter org");
  accountId = await createAccount(orgId, "Pending counter fleet");
});

describe("pending changes count", () => {
  it("is zero for an account with no changes", async () => {
    expect((await listChangesToDeploy(env.DB, accountId, 0)).count).toBe(0);
  });

  it("follows changes written, deployed, undeployed and deleted, and ignores non-configuration entries", async () => {
    await insertChanges(5_000);
    await insertChanges(300, 0);
    expect((await listChangesToDeploy(env.DB, accountId, 0)).count).toBe(5_000);

    await env.DB.prepare(
      "UPDATE activity_logs SET deployment_id = 'dep_1' WHERE rowid IN (SELECT rowid FROM activity_logs WHERE account_id = ? AND deployable = 1 LIMIT 1200)",
    )
      .bind(accountId)
      .run();
    expect((await listChangesToDeploy(env.DB, accountId, 0)).count).toBe(3_800);

    await env.DB.prepare(
      "UPDATE activity_logs SET deployment_id = NULL WHERE account_id = ? AND deployment_id = 'dep_1' AND rowid % 2 = 0",
    )
      .bind(accountId)
      .run();
    await env.DB.prepare("DELETE FROM activity_logs WHERE account_id = ? AND rowid % 7 = 0").bind(accountId).run();
    const listed = await listChangesToDeploy(env.DB, accountId, 3);
    expect(listed.count).toBe(await exactCount());
    expect(listed.items).toHaveLength(3);
  });

  it("reads one row of the counter, not the pending entries", async () => {
    const { results } = await env.DB.prepare("EXPLAIN QUERY PLAN SELECT count FROM pending_change_counts WHERE account_id = ?")
      .bind(accountId)
      .all<{ detail: string }>();
    expect(results.map((row) => row.detail).join("\n")).toMatch(/SEARCH pending_change_counts USING INDEX sqlite_autoindex/);
  });
});
