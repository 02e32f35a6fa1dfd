import { isApprovalExpired } from "@/schema/fleet/approval";
import { activityStatement } from "../data/activity-logs";
import type { Db } from "../data/db";
import { awaitingOf, endApprovalStatement, findApproval, holdUntilExpiryStatement } from "../data/deployment-approval";
import type { Deployment } from "../data/deployments";

/** The engine's SYSTEM_ACTOR (deployment-engine.ts imports this module, so it is not imported back). */
const SYSTEM = { id: "system", email: "system" };

/**
 * The clock's gate on a due scheduled deployment (the only place scheduled deployments start):
 * one waiting for approval never starts. Past its expiry it ends (cancelled, approval 'expired',
 * an activity entry by the system); before it, its next step goes back to the expiry. Answers
 * whether the clock must leave it alone.
 */
export async function heldForApproval(db: Db, d: Deployment, now: Date): Promise<boolean> {
  const approval = await findApproval(db, d.id);
  if (approval.approval !== "pending") return false;
  if (!isApprovalExpired(awaitingOf(d, approval), now)) {
    await holdUntilExpiryStatement(db, d.id, approval.expiresAt ?? now.toISOString()).run();
    return true;
  }
  const at = now.toISOString();
  await db.batch([
    endApprovalStatement(db, { id: d.id, outcome: "expired", by: null, note: "", at }),
    activityStatement(db, {
      orgId: d.orgId,
      accountId: d.accountId,
      actor: SYSTEM,
      action: "update",
      entityType: "deployment",
      entityId: d.id,
      entityLabel: `#${d.number}`,
      diff: { state: { before: d.state, after: "cancelled" }, approval: { before: "pending", after: "expired" } },
      deployable: false,
    }),
  ]);
  return true;
}
