import { type ProfileSettings, type ProfileType, readSettings } from "@/schema/profiles";
import { all, type Db, first, newId, now, statement } from "./db";
import { containsText } from "./fts";

/**
 * Profiles (DESIGN.md §3): an account's named radio settings of one type, or, without an
 * account, an organization-wide template. Settings are JSON their type's schema checked.
 */
export type ProfileSummary = {
  id: string;
  orgId: string;
  /** null: an organization-wide template. */
  accountId: string | null;
  type: ProfileType;
  name: string;
  createdAt: string;
  updatedAt: string;
  version: number;
  /** How many rules assign it (templates: always 0). */
  ruleCount: number;
};

export type Profile<T extends ProfileType = ProfileType> = ProfileSummary & { type: T; settings: ProfileSettings[T] };

/** Where profiles live: one account's, or one organization's templates. */
export type ProfileScope = { accountId: string } | { orgId: string };

type Row = {
  id: string;
  org_id: string;
  account_id: string | null;
  type: ProfileType;
  name: string;
  created_at: string;
  updated_at: string;
  version: number;
  rule_count: number;
};

const columns = `id, org_id, account_id, type, name, created_at, updated_at, version,
  (SELECT count(*) FROM rule_profiles WHERE rule_profiles.profile_id = profiles.id) AS rule_count`;

function toSummary(row: Row): ProfileSummary {
  return {
    id: row.id,
    orgId: row.org_id,
    accountId: row.account_id,
    type: row.type,
    name: row.name,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    ruleCount: row.rule_count,
  };
}

export async function findProfile(db: Db, id: string): Promise<Profile | null> {
  const row = await first<Row & { settings: string }>(db, `SELECT ${columns}, settings FROM profiles WHERE id = ?`, id);
  return row ? { ...toSummary(row), settings: readSettings(row.type, row.settings) } : null;
}

/** The SQL condition of a scope and its parameter. */
function scopeWhere(scope: ProfileScope): [string, string] {
  return "accountId" in scope ? ["account_id = ?", scope.accountId] : ["account_id IS NULL AND org_id = ?", scope.orgId];
}

export type ProfileSort = "name" | "-name" | "type" | "-type" | "updated" | "-updated";

const orderBy: Record<ProfileSort, string> = {
  name: "name COLLATE NOCASE ASC, rowid",
  "-name": "name COLLATE NOCASE DESC, rowid",
  type: "type ASC, name COLLATE NOCASE, rowid",
  "-type": "type DESC, name COLLATE NOCASE, rowid",
  updated: "updated_at ASC, rowid",
  "-updated": "updated_at DESC, rowid",
};

/** One page of a scope's profiles (of one type, when asked), with the total for the pager. */
export async function listProfiles(
  db: Db,
  {
    scope,
    type = null,
    search = "",
    sort = "name",
    limit = 25,
    offset = 0,
  }: { scope: ProfileScope; type?: ProfileType | null; search?: string; sort?: ProfileSort; limit?: number; offset?: number },
): Promise<{ items: ProfileSummary[]; total: number }> {
  const [where, scopeId] = scopeWhere(scope);
  const filter = `${where}${type ? " AND type = ?" : ""} AND ${containsText("name")}`;
  const params = type ? [scopeId, type, search.trim()] : [scopeId, search.trim()];
  const [rows, count] = await Promise.all([
    all<Row>(
      db,
      `SELECT ${columns} FROM profiles WHERE ${filter} ORDER BY ${orderBy[sort]} LIMIT ? OFFSET ?`,
      ...params,
      limit,
      offset,
    ),
    first<{ total: number }>(db, `SELECT count(*) AS total FROM profiles WHERE ${filter}`, ...params),
  ]);
  return { items: rows.map(toSummary), total: count?.total ?? 0 };
}

export async function countProfilesOfType(db: Db, scope: ProfileScope, type: ProfileType): Promise<number> {
  const [where, scopeId] = scopeWhere(scope);
  const row = await first<{ n: number }>(db, `SELECT count(*) AS n FROM profiles WHERE ${where} AND type = ?`, scopeId, type);
  return row?.n ?? 0;
}

/** Whether another profile of the scope and type has this name, compared without case. */
export async function profileNameTaken(
  db: Db,
  scope: ProfileScope,
  type: ProfileType,
  name: string,
  exceptId: string | null = null,
): Promise<boolean> {
  const [where, scopeId] = scopeWhere(scope);
  const row = await first<{ found: number }>(
    db,
    `SELECT 1 AS found FROM profiles WHERE ${where} AND type = ? AND name = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1`,
    scopeId,
    type,
    name,
    exceptId,
  );
  return row !== null;
}

/** An account's profiles as choices for a rule (id, name, type), by type and name. */
export async function listProfileOptions(db: Db, accountId: string) {
  return all<{ id: string; name: string; type: ProfileType }>(
    db,
    "SELECT id, name, type FROM profiles WHERE account_id = ? ORDER BY type, name COLLATE NOCASE, rowid",
    accountId,
  );
}

/** Of `ids`, those that are profiles of this account. */
export async function profilesOfAccount(db: Db, accountId: string, ids: string[]) {
  if (ids.length === 0) return [];
  return all<{ id: string; name: string; type: ProfileType }>(
    db,
    "SELECT id, name, type FROM profiles WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))",
    accountId,
    JSON.stringify(ids),
  );
}

export function insertProfileStatement(
  db: Db,
  input: { orgId: string; accountId: string | null; type: ProfileType; name: string; settings: unknown },
) {
  const id = newId("prf");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO profiles (id, org_id, account_id, type, name, settings) VALUES (?, ?, ?, ?, ?, ?)",
      id,
      input.orgId,
      input.accountId,
      input.type,
      input.name,
      JSON.stringify(input.settings),
    ),
  };
}

/** Changes name and settings only at the version the edit was made on (no row changed when stale). */
export function updateProfileStatement(db: Db, input: { id: string; version: number; name: string; settings: unknown }) {
  return statement(
    db,
    "UPDATE profiles SET name = ?, settings = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
    input.name,
    JSON.stringify(input.settings),
    now(),
    input.id,
    input.version,
  );
}

/**
 * Deletes the profile at its version. Rules still pointing at it make this statement (and its
 * batch) fail on the foreign key: callers take it out of them first, in the same batch.
 */
export function deleteProfileStatement(db: Db, input: { id: string; version: number }) {
  return statement(db, "DELETE FROM profiles WHERE id = ? AND version = ?", input.id, input.version);
}
