import { type ApprovalRefusal, decideApproval } from "@/schema/fleet/approval";
import { activityStatement } from "../data/activity-logs";
import type { Db } from "../data/db";
import { approveStatement, awaitingOf, endApprovalStatement, findApproval } from "../data/deployment-approval";
import { type Deployment, findDeployment } from "../data/deployments";
import type { Env } from "../env";
import { armClock } from "./arm-deployment-clock";
import { type Actor, stepDueDeployments } from "./deployment-engine";

/** A decision the rules refuse; `refusal` names the translated message (errors.approval.*). */
export class ApprovalRefused extends Error {
  constructor(readonly refusal: ApprovalRefusal) {
    super(`approval refused: ${refusal}`);
  }
}

export type Decision = { actor: Actor; approve: boolean; note: string; version?: number };

/**
 * A second person approves or rejects a deployment waiting for approval (schema/fleet/approval.ts
 * says who may). Approved, it starts now through the clock's own step (or waits for its start
 * time); rejected, it ends cancelled with the note. One conditional write and its activity entry.
 */
export async function decideOnDeployment(
  { db, env }: { db: Db; env: Env },
  d: Deployment,
  decision: Decision,
): Promise<Deployment> {
  const approval = await findApproval(db, d.id);
  const now = new Date();
  const verdict = decideApproval(awaitingOf(d, approval), {
    deciderId: decision.actor.id,
    approve: decision.approve,
    version: decision.version,
    now,
  });
  if (!verdict.ok) throw new ApprovalRefused(verdict.refusal);
  const at = now.toISOString();
  const startAt = verdict.state === "scheduled" && d.plan.startAt ? new Date(d.plan.startAt).toISOString() : at;
  const version = d.version;
  const write = decision.approve
    ? approveStatement(db, { id: d.id, version, by: decision.actor.email, note: decision.note, at, startAt })
    : endApprovalStatement(db, { id: d.id, version, outcome: "rejected", by: decision.actor.email, note: decision.note, at });
  const outcome = decision.approve ? "approved" : "rejected";
  const [written] = await db.batch([
    write,
    activityStatement(db, {
      orgId: d.orgId,
      accountId: d.accountId,
      actor: decision.actor,
      action: "update",
      entityType: "deployment",
      entityId: d.id,
      entityLabel: `#${d.number}`,
      diff: {
        approval: { before: "pending", after: outcome },
        ...(decision.approve ? {} : { state: { before: d.state, after: "cancelled" } }),
        ...(decision.note ? { approvalNote: { after: decision.note } } : {}),
      },
      deployable: false,
    }),
  ]);
  // Someone decided (or the clock expired it) between the read and the write.
  if ((written?.meta.changes ?? 0) === 0) throw new ApprovalRefused("stale");
  if (decision.approve) {
    // Started here, the clock must still wake for its radios' timeout (the next due step).
    const next = verdict.state === "running" ? await stepDueDeployments(env, now) : Date.parse(startAt);
    if (next !== null) await armClock(env, new Date(next));
  }
  return (await findDeployment(db, d.id)) ?? d;
}
