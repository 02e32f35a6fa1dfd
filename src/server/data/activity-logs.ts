import { type Db, newId, now, statement } from "./db";

export type ActivityAction = "create" | "update" | "delete";

/** A field's value before and after a change; absent on create (before) and delete (after). */
export type Diff = Record<string, { before?: unknown; after?: unknown }>;

export type ActivityEntryInput = {
  orgId: string;
  accountId: string | null;
  actor: { id: string; email: string };
  action: ActivityAction;
  entityType: string;
  entityId: string;
  entityLabel: string;
  diff: Diff;
  /** A configuration change the radios receive once deployed (sites, locations, profiles, rules, network config). */
  deployable: boolean;
};

/** The changed fields between two records, for the log's readable diff. */
export function diffOf(before: Record<string, unknown> | null, after: Record<string, unknown> | null): Diff {
  const keys = new Set([...Object.keys(before ?? {}), ...Object.keys(after ?? {})]);
  const diff: Diff = {};
  for (const key of keys) {
    const a = before?.[key];
    const b = after?.[key];
    if (JSON.stringify(a) !== JSON.stringify(b)) diff[key] = { ...(before ? { before: a } : {}), ...(after ? { after: b } : {}) };
  }
  return diff;
}

/**
 * The log entry for a change, to put in the same batch right after the statement that makes
 * the change: it is written only if that statement changed a row (SQLite's changes()), so a
 * stale write (version mismatch, nothing updated) leaves no entry behind.
 */
export function activityStatement(db: Db, entry: ActivityEntryInput) {
  return statement(
    db,
    `INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, created_at)
     SELECT ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ? WHERE changes() > 0`,
    newId("log"),
    entry.orgId,
    entry.accountId,
    entry.actor.id,
    entry.actor.email,
    entry.action,
    entry.entityType,
    entry.entityId,
    entry.entityLabel,
    JSON.stringify(entry.diff),
    entry.deployable ? 1 : 0,
    now(),
  );
}
