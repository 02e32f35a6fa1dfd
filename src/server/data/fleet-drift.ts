import { type Db, first } from "./db";

/**
 * Drift (DESIGN.md §7) of an account's radios, in one pass over its devices' index: in sync
 * (reported the revision now deployed), failed (failed or rejected it), drifted (reported a
 * revision no deployment of the account sent), overdue (not seen within the expected
 * interval), pending (the rest: not there yet), never deployed (the account has deployed
 * nothing yet: nothing is pending, there is no configuration to wait for). Radios never seen
 * count as overdue.
 */
export type DriftCounts = {
  total: number;
  inSync: number;
  pending: number;
  failed: number;
  drifted: number;
  overdue: number;
  neverDeployed: number;
};

/** Three poll intervals without a check-in: overdue. */
export const OVERDUE_AFTER_MS = 3 * 5 * 60_000;

export async function driftCounts(db: Db, accountId: string, now = new Date()): Promise<DriftCounts> {
  const overdueBefore = new Date(now.getTime() - OVERDUE_AFTER_MS).toISOString();
  const row = await first<Record<keyof DriftCounts | "deployed", number | null>>(
    db,
    `WITH current AS (
       SELECT d.id AS deployment_id, d.revision_id FROM deployments d
       WHERE d.account_id = ?1 AND d.state IN ('running', 'paused', 'finished') ORDER BY d.number DESC LIMIT 1
     )
     SELECT count(*) AS total, (SELECT count(*) FROM current) AS deployed,
       sum(v.reported_revision IS NOT NULL AND v.reported_revision = (SELECT revision_id FROM current)) AS inSync,
       sum(v.last_seen_at IS NULL OR v.last_seen_at < ?2) AS overdue,
       sum(v.reported_revision IS NOT NULL AND NOT EXISTS (SELECT 1 FROM revisions r WHERE r.id = v.reported_revision AND r.account_id = ?1)) AS drifted,
       sum(EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = (SELECT deployment_id FROM current) AND x.uid = v.uid
                   AND x.state IN ('failed', 'rejected'))) AS failed
     FROM devices v WHERE v.account_id = ?1 AND v.status = 'active'`,
    accountId,
    overdueBefore,
  );
  const total = row?.total ?? 0;
  const inSync = row?.inSync ?? 0;
  const failed = row?.failed ?? 0;
  const drifted = row?.drifted ?? 0;
  const overdue = row?.overdue ?? 0;
  // A radio is counted once: in sync, failed and drifted exclude each other; what is left is
  // pending while a deployment exists, and never deployed before the account's first one.
  const rest = Math.max(0, total - inSync - failed - drifted);
  const deployed = (row?.deployed ?? 0) > 0;
  return { total, inSync, failed, drifted, overdue, pending: deployed ? rest : 0, neverDeployed: deployed ? 0 : rest };
}

/** One radio's drift: desired vs reported revision, for the inventory's columns. */
export function driftOf(input: {
  desiredRevisionId: string | null;
  reportedRevisionId: string | null;
  accountRevisionIds: ReadonlySet<string>;
  failed: boolean;
  lastSeenAt: string | null;
  now?: Date;
}): "in-sync" | "pending" | "failed" | "drifted" | "overdue" | "never-deployed" {
  const now = input.now ?? new Date();
  if (!input.lastSeenAt || now.getTime() - Date.parse(input.lastSeenAt) > OVERDUE_AFTER_MS) return "overdue";
  if (input.reportedRevisionId && !input.accountRevisionIds.has(input.reportedRevisionId)) return "drifted";
  if (input.failed) return "failed";
  if (input.desiredRevisionId && input.reportedRevisionId === input.desiredRevisionId) return "in-sync";
  // Nothing deployed to it yet: not "pending" (nothing is on its way) nor "in sync".
  return input.desiredRevisionId ? "pending" : "never-deployed";
}
