import { z } from "zod";

/**
 * Four-eyes approval of a deployment (issue 25, after hawkBit's approval workflow): pure rules
 * only, not yet wired to the accounts settings, the engine or a migration. A confirmed deployment
 * of an account that asks for approval waits in "awaiting-approval"; a second person decides.
 */
export const MAX_APPROVAL_HOURS = 7 * 24;

export const approvalSettingSchema = z.object({
  required: z.boolean(),
  expiryHours: z
    .number("validation.ApprovalExpiry")
    .int("validation.ApprovalExpiry")
    .min(1, "validation.ApprovalExpiry")
    .max(MAX_APPROVAL_HOURS, "validation.ApprovalExpiry"),
});
export type ApprovalSetting = z.infer<typeof approvalSettingSchema>;

export type AwaitingDeployment = {
  authorId: string;
  state: string;
  version: number;
  /** When nobody's decision counts any more (confirmed at + expiry). */
  expiresAt: Date;
  /** Start later (the plan's startAt), or null: at once. */
  startAt: Date | null;
};

/** Why a decision is refused; each maps to a translated message under errors.approval. */
export type ApprovalRefusal = "author" | "not-awaiting" | "expired" | "stale";

export function approvalExpiresAt(confirmedAt: Date, setting: ApprovalSetting): Date {
  return new Date(confirmedAt.getTime() + setting.expiryHours * 60 * 60_000);
}

/** The clock's verdict: an awaiting deployment nobody decided on in time is cancelled as expired. */
export function isApprovalExpired(deployment: AwaitingDeployment, now: Date): boolean {
  return deployment.state === "awaiting-approval" && now.getTime() >= deployment.expiresAt.getTime();
}

/**
 * Whether `deciderId` may approve or reject now, and the state it leads to. Approval starts the
 * deployment (or schedules it when its start lies ahead); rejection cancels it. The author never
 * decides on their own deployment; `version` guards against deciding on what someone already changed.
 */
export function decideApproval(
  deployment: AwaitingDeployment,
  decision: { deciderId: string; approve: boolean; version: number | undefined; now: Date },
): { ok: true; state: "running" | "scheduled" | "cancelled" } | { ok: false; refusal: ApprovalRefusal } {
  if (deployment.state !== "awaiting-approval") return { ok: false, refusal: "not-awaiting" };
  if (decision.version !== undefined && decision.version !== deployment.version) return { ok: false, refusal: "stale" };
  if (isApprovalExpired(deployment, decision.now)) return { ok: false, refusal: "expired" };
  if (decision.deciderId === deployment.authorId) return { ok: false, refusal: "author" };
  if (!decision.approve) return { ok: true, state: "cancelled" };
  const later = deployment.startAt !== null && deployment.startAt.getTime() > decision.now.getTime();
  return { ok: true, state: later ? "scheduled" : "running" };
}
