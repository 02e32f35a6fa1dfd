import { all, type Db, first, newId, now, statement } from "./db";
import { containsText } from "./fts";

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

/** An update of one radio (its secret, its status, its hand-over …), logged under the radio. */
export function deviceUpdateStatement(
  db: Db,
  device: { orgId: string; accountId: string | null; uid: string; name: string },
  actor: { id: string; email: string },
  diff: Diff,
  deployable = false,
) {
  return activityStatement(db, {
    orgId: device.orgId,
    accountId: device.accountId,
    actor,
    action: "update",
    entityType: "device",
    entityId: device.uid,
    entityLabel: device.name || device.uid,
    diff,
    deployable,
  });
}

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

/** A log entry as it is read back: the diff parsed, the actor by the email they had then. */
export type ActivityEntry = {
  id: string;
  createdAt: string;
  actorEmail: string;
  action: ActivityAction;
  entityType: string;
  entityId: string;
  entityLabel: string;
  diff: Diff;
  deployable: boolean;
  /** Null while the change is not deployed (DESIGN.md §3). */
  deploymentId: string | null;
};

type EntryRow = {
  id: string;
  created_at: string;
  actor_email: string;
  action: ActivityAction;
  entity_type: string;
  entity_id: string;
  entity_label: string;
  diff: string;
  deployable: number;
  deployment_id: string | null;
};

const entryColumns = "id, created_at, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, deployment_id";

function parsedDiff(text: string): Diff {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Diff) : {};
  } catch {
    return {};
  }
}

function toEntry(row: EntryRow): ActivityEntry {
  return {
    id: row.id,
    createdAt: row.created_at,
    actorEmail: row.actor_email,
    action: row.action,
    entityType: row.entity_type,
    entityId: row.entity_id,
    entityLabel: row.entity_label,
    diff: parsedDiff(row.diff),
    deployable: row.deployable === 1,
    deploymentId: row.deployment_id,
  };
}

/** Where the previous page ended: the last entry's time and id (the list's order). */
export type ActivityPosition = { createdAt: string; id: string };

export type ActivityFilter = {
  entityType?: string;
  /** Part of the actor's email, any case. */
  actor?: string;
  /** Instants (ISO, UTC): from inclusive, until exclusive. */
  from?: string;
  until?: string;
};

/**
 * An account's log, newest first, one page after `after`. Keyset paging on (created_at, id):
 * the row-value comparison seeks into the (account_id, created_at, id) index, so page 400
 * costs what page 1 does, and entries written in the same millisecond are neither skipped
 * nor repeated (ids break the tie).
 */
export async function listActivity(
  db: Db,
  {
    accountId,
    after,
    limit,
    filter = {},
  }: { accountId: string; after?: ActivityPosition | null; limit: number; filter?: ActivityFilter },
): Promise<ActivityEntry[]> {
  const where: string[] = [];
  const params: (string | number)[] = [];
  if (after) {
    where.push("(created_at, id) < (?, ?)");
    params.push(after.createdAt, after.id);
  }
  if (filter.entityType) {
    where.push("entity_type = ?");
    params.push(filter.entityType);
  }
  if (filter.from) {
    where.push("created_at >= ?");
    params.push(filter.from);
  }
  if (filter.until) {
    where.push("created_at < ?");
    params.push(filter.until);
  }
  const rest = where.map((condition) => ` AND ${condition}`).join("");
  const order = "ORDER BY created_at DESC, id DESC LIMIT ?";
  if (!filter.actor) {
    const rows = await all<EntryRow>(
      db,
      `SELECT ${entryColumns} FROM activity_logs WHERE account_id = ?${rest} ${order}`,
      accountId,
      ...params,
      limit,
    );
    return rows.map(toEntry);
  }
  // By actor (migration 0020): the account's few actors are matched by part of their email,
  // then each matching actor's newest `limit` entries are one index range; the page is the
  // newest `limit` of those. The cost follows the number of actors, not of entries.
  const rows = await all<EntryRow>(
    db,
    `SELECT ${entryColumns} FROM activity_logs WHERE rowid IN (
       SELECT picked.value FROM activity_actors a, json_each((
         SELECT json_group_array(rowid) FROM (
           SELECT rowid FROM activity_logs INDEXED BY activity_logs_account_actor
           WHERE account_id = a.account_id AND actor_email = a.actor_email${rest} ${order})
       )) picked
       WHERE a.account_id = ? AND ${containsText("a.actor_email")})
     ${order}`,
    ...params,
    limit,
    accountId,
    filter.actor,
    limit,
  );
  return rows.map(toEntry);
}

const pendingWhere = "account_id = ? AND deployable = 1 AND deployment_id IS NULL";

/**
 * The account's configuration changes not deployed yet (spec §4), newest first, and how many
 * there are. The count is a counter the activity triggers keep (pending_change_counts,
 * migration 0010), so the banner on every account page reads one row however many wait.
 */
export async function listChangesToDeploy(
  db: Db,
  accountId: string,
  limit: number,
): Promise<{ items: ActivityEntry[]; count: number }> {
  const counted = statement(db, "SELECT count FROM pending_change_counts WHERE account_id = ?", accountId);
  if (limit <= 0) {
    const row = await counted.first<{ count: number }>();
    return { items: [], count: Math.max(0, row?.count ?? 0) };
  }
  const [rows, count] = await db.batch<EntryRow | { count: number }>([
    statement(
      db,
      `SELECT ${entryColumns} FROM activity_logs WHERE ${pendingWhere} ORDER BY created_at DESC, id DESC LIMIT ?`,
      accountId,
      limit,
    ),
    counted,
  ]);
  return {
    items: ((rows?.results ?? []) as EntryRow[]).map(toEntry),
    count: Math.max(0, (count?.results[0] as { count: number } | undefined)?.count ?? 0),
  };
}

/** The newest configuration change of the account (deployed or not), or null. */
export async function lastConfigurationActivity(db: Db, accountId: string): Promise<ActivityEntry | null> {
  const row = await first<EntryRow>(
    db,
    `SELECT ${entryColumns} FROM activity_logs WHERE account_id = ? AND deployable = 1 ORDER BY created_at DESC, id DESC LIMIT 1`,
    accountId,
  );
  return row ? toEntry(row) : null;
}

/** One entity's newest entries (a radio's recent activity), from the activity_logs_entity index. */
export async function listEntityActivity(db: Db, entityType: string, entityId: string, limit: number): Promise<ActivityEntry[]> {
  const rows = await all<EntryRow>(
    db,
    `SELECT ${entryColumns} FROM activity_logs WHERE entity_type = ? AND entity_id = ? ORDER BY created_at DESC LIMIT ?`,
    entityType,
    entityId,
    limit,
  );
  return rows.map(toEntry);
}
