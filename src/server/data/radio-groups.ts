import type { GroupFilter } from "@/schema/fleet/target";
import { activityStatement } from "./activity-logs";
import { all, type Db, first, newId, now, statement } from "./db";
import { storedGroupFilter } from "./targets";

/**
 * Saved groups (issue 25, migration 0032): a named filter over an account's radios, kept per
 * account and evaluated whenever it is counted or targeted (data/targets.ts), so its count is
 * live and saving it writes one row whatever its size. Every change is an activity entry.
 */
export type RadioGroup = {
  id: string;
  accountId: string;
  name: string;
  filter: GroupFilter;
  version: number;
  updatedAt: string;
};

type Row = { id: string; account_id: string; name: string; filter: string; version: number; updated_at: string };

const columns = "id, account_id, name, filter, version, updated_at";

function toGroup(row: Row): RadioGroup {
  return {
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    filter: storedGroupFilter(row.filter),
    version: row.version,
    updatedAt: row.updated_at,
  };
}

/** An account's groups by name (a handful per account; capped so a page stays small). */
export async function listGroups(db: Db, accountId: string, limit = 200): Promise<RadioGroup[]> {
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM radio_groups WHERE account_id = ? ORDER BY name COLLATE NOCASE LIMIT ?`,
    accountId,
    limit,
  );
  return rows.map(toGroup);
}

/** A group of this account, or null (another account's id is no group here). */
export async function findGroup(db: Db, accountId: string, id: string): Promise<RadioGroup | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM radio_groups WHERE id = ? AND account_id = ?`, id, accountId);
  return row ? toGroup(row) : null;
}

/** Whether the account already has a group of this name (other than `exceptId`), compared without case. */
export async function groupNameTaken(db: Db, accountId: string, name: string, exceptId: string | null = null): Promise<boolean> {
  const row = await first<{ n: number }>(
    db,
    "SELECT count(*) AS n FROM radio_groups WHERE account_id = ? AND name = ? COLLATE NOCASE AND id IS NOT ?",
    accountId,
    name,
    exceptId,
  );
  return (row?.n ?? 0) > 0;
}

type Actor = { id: string; email: string };
type Scope = { orgId: string; accountId: string; actor: Actor };

/** Saves a new group and its activity entry (one batch); returns the statements and the new id. */
export function createGroupStatements(db: Db, scope: Scope, input: { name: string; filter: GroupFilter }) {
  const id = newId("grp");
  const at = now();
  return {
    id,
    statements: [
      statement(
        db,
        "INSERT INTO radio_groups (id, account_id, name, filter, created_by, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)",
        id,
        scope.accountId,
        input.name,
        JSON.stringify(input.filter),
        scope.actor.id,
        at,
        at,
      ),
      activityStatement(db, {
        ...scope,
        action: "create",
        entityType: "radioGroup",
        entityId: id,
        entityLabel: input.name,
        diff: { name: { after: input.name }, filter: { after: input.filter } },
        deployable: false,
      }),
    ],
  };
}

/** Replaces a group's name and filter at `version` (no change, no entry, if it moved on meanwhile). */
export function updateGroupStatements(db: Db, scope: Scope, before: RadioGroup, input: { name: string; filter: GroupFilter }) {
  return [
    statement(
      db,
      "UPDATE radio_groups SET name = ?, filter = ?, updated_at = ?, version = version + 1 WHERE id = ? AND account_id = ? AND version = ?",
      input.name,
      JSON.stringify(input.filter),
      now(),
      before.id,
      scope.accountId,
      before.version,
    ),
    activityStatement(db, {
      ...scope,
      action: "update",
      entityType: "radioGroup",
      entityId: before.id,
      entityLabel: input.name,
      diff: { name: { before: before.name, after: input.name }, filter: { before: before.filter, after: input.filter } },
      deployable: false,
    }),
  ];
}

/** Deletes a group at `version`, with its activity entry. */
export function deleteGroupStatements(db: Db, scope: Scope, before: RadioGroup) {
  return [
    statement(
      db,
      "DELETE FROM radio_groups WHERE id = ? AND account_id = ? AND version = ?",
      before.id,
      scope.accountId,
      before.version,
    ),
    activityStatement(db, {
      ...scope,
      action: "delete",
      entityType: "radioGroup",
      entityId: before.id,
      entityLabel: before.name,
      diff: { name: { before: before.name }, filter: { before: before.filter } },
      deployable: false,
    }),
  ];
}
