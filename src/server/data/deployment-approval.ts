import type { ApprovalSetting, AwaitingDeployment } from "@/schema/fleet/approval";
import type { D1PreparedStatement } from "../cloudflare";
import { all, type Db, first, statement } from "./db";
import type { Deployment } from "./deployments";

/**
 * Four-eyes approval of deployments (migration 0034): the account's setting, and the decision
 * columns of a deployment. A deployment waiting for approval is `scheduled` with approval
 * 'pending' (radios are told nothing of scheduled deployments) and its next step is its expiry.
 */
export type ApprovalState = "none" | "pending" | "approved" | "rejected" | "expired";

export type DeploymentApproval = {
  approval: ApprovalState;
  /** Who confirmed it (user id): never the one who decides. */
  authorId: string | null;
  decidedBy: string | null;
  note: string;
  decidedAt: string | null;
  expiresAt: string | null;
};

type Row = {
  approval: ApprovalState;
  approval_author_id: string | null;
  approved_by: string | null;
  approval_note: string;
  decided_at: string | null;
  approval_expires_at: string | null;
};

/**
 * A pending approval counts only while the deployment is still scheduled: cancelled or superseded
 * before anyone decided, it waits for nothing any more (it reads as 'none').
 */
const effectiveApproval = "CASE WHEN approval = 'pending' AND state <> 'scheduled' THEN 'none' ELSE approval END";
const columns = `${effectiveApproval} AS approval, approval_author_id, approved_by, approval_note, decided_at, approval_expires_at`;

function toApproval(row: Row): DeploymentApproval {
  return {
    approval: row.approval,
    authorId: row.approval_author_id,
    decidedBy: row.approved_by,
    note: row.approval_note,
    decidedAt: row.decided_at,
    expiresAt: row.approval_expires_at,
  };
}

export const NO_APPROVAL: DeploymentApproval = {
  approval: "none",
  authorId: null,
  decidedBy: null,
  note: "",
  decidedAt: null,
  expiresAt: null,
};

export async function findApproval(db: Db, deploymentId: string): Promise<DeploymentApproval> {
  const row = await first<Row>(db, `SELECT ${columns} FROM deployments WHERE id = ?`, deploymentId);
  return row ? toApproval(row) : NO_APPROVAL;
}

/** The approval states of some deployments (a page of the list), by id. */
export async function approvalsOf(db: Db, ids: string[]): Promise<Map<string, ApprovalState>> {
  if (ids.length === 0) return new Map();
  const rows = await all<{ id: string; approval: ApprovalState }>(
    db,
    `SELECT id, ${effectiveApproval} AS approval FROM deployments WHERE id IN (${ids.map(() => "?").join(", ")})`,
    ...ids,
  );
  return new Map(rows.map((row) => [row.id, row.approval]));
}

/** How many of the account's deployments wait for a decision (the partial index answers it). */
export async function awaitingApprovalCount(db: Db, accountId: string): Promise<number> {
  const row = await first<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM deployments INDEXED BY deployments_awaiting_approval WHERE account_id = ? AND approval = 'pending' AND state = 'scheduled'",
    accountId,
  );
  return row?.n ?? 0;
}

/** The account's approval setting. */
export async function approvalSettingOf(db: Db, accountId: string): Promise<ApprovalSetting> {
  const row = await first<{ required: number; hours: number }>(
    db,
    "SELECT approval_required AS required, approval_expiry_hours AS hours FROM accounts WHERE id = ?",
    accountId,
  );
  return { required: row?.required === 1, expiryHours: row?.hours ?? 72 };
}

/** Sets the account's approval setting if the row is still at `version`; callers check `changes`. */
export function updateApprovalSettingStatement(
  db: Db,
  input: { id: string; version: number } & ApprovalSetting,
): D1PreparedStatement {
  return statement(
    db,
    `UPDATE accounts SET approval_required = ?, approval_expiry_hours = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now'),
       version = version + 1 WHERE id = ? AND version = ?`,
    input.required ? 1 : 0,
    input.expiryHours,
    input.id,
    input.version,
  );
}

/**
 * A deployment just inserted (same batch) waits for approval: pending, its author kept, and its
 * next step the expiry (the clock ends it then unless someone decided).
 */
export function awaitApprovalStatement(db: Db, input: { id: string; authorId: string; expiresAt: string }): D1PreparedStatement {
  return statement(
    db,
    "UPDATE deployments SET approval = 'pending', approval_author_id = ?1, approval_expires_at = ?2, next_step_at = ?2 WHERE id = ?3",
    input.authorId,
    input.expiresAt,
    input.id,
  );
}

/** What the pure rules (schema/fleet/approval.ts) need to know of a deployment. */
export function awaitingOf(d: Deployment, approval: DeploymentApproval): AwaitingDeployment {
  return {
    authorId: approval.authorId ?? "",
    state: d.state === "scheduled" && approval.approval === "pending" ? "awaiting-approval" : d.state,
    version: d.version,
    expiresAt: new Date(approval.expiresAt ?? 0),
    startAt: d.plan.startAt ? new Date(d.plan.startAt) : null,
  };
}

const stillPending = "id = ? AND state = 'scheduled' AND approval = 'pending'";

/**
 * Approves: it stays `scheduled`, its next step its start (now, or the plan's later start), so
 * the clock starts it as any scheduled deployment. Conditional on the version the person saw.
 */
export function approveStatement(
  db: Db,
  input: { id: string; version: number; by: string; note: string; at: string; startAt: string },
): D1PreparedStatement {
  return statement(
    db,
    `UPDATE deployments SET approval = 'approved', approved_by = ?, approval_note = ?, decided_at = ?, next_step_at = ?,
       updated_at = ?, version = version + 1 WHERE ${stillPending} AND version = ?`,
    input.by,
    input.note,
    input.at,
    input.startAt,
    input.at,
    input.id,
    input.version,
  );
}

/** Rejects (a person) or expires (the clock): the deployment ends cancelled, never having told a radio. */
export function endApprovalStatement(
  db: Db,
  input: { id: string; version?: number; outcome: "rejected" | "expired"; by: string | null; note: string; at: string },
): D1PreparedStatement {
  return statement(
    db,
    `UPDATE deployments SET state = 'cancelled', approval = ?, approved_by = ?, approval_note = ?, decided_at = ?, ended_at = ?,
       next_step_at = NULL, timeout_at = NULL, updated_at = ?, version = version + 1
     WHERE ${stillPending}${input.version === undefined ? "" : " AND version = ?"}`,
    input.outcome,
    input.by,
    input.note,
    input.at,
    input.at,
    input.at,
    input.id,
    ...(input.version === undefined ? [] : [input.version]),
  );
}

/** Not yet decided and not yet due to expire: the clock moves its next step back to the expiry. */
export function holdUntilExpiryStatement(db: Db, id: string, expiresAt: string): D1PreparedStatement {
  return statement(db, `UPDATE deployments SET next_step_at = ? WHERE ${stillPending}`, expiresAt, id);
}
