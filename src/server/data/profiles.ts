import { type ProfileSettings, type ProfileType, readSettings } from "@/schema/profiles";
import { all, type Bindable, type Db, first, newId, now, statement } from "./db";
import { ftsQuery, ftsRowids } from "./fts";
import {
  COUNT_CAP,
  type Cursor,
  cappedCount,
  keysetWhere,
  type Order,
  order,
  type Page,
  pageOf,
  type Total,
  totalOf,
} from "./keyset";
import { searchedPage } from "./searched-page";

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

/**
 * The list's orders (keyset, DESIGN.md §8), each an index of migrations 0009/0020 within a
 * scope; SQLite appends the rowid to every index, which makes each key unique.
 */
const orders: Record<ProfileSort, Order> = {
  name: order("asc", ["name COLLATE NOCASE", "rowid"]),
  "-name": order("desc", ["name COLLATE NOCASE", "rowid"]),
  type: order("asc", ["type", "name COLLATE NOCASE", "rowid"]),
  "-type": order("desc", ["type", "name COLLATE NOCASE", "rowid"]),
  updated: order("asc", ["updated_at", "rowid"]),
  "-updated": order("desc", ["updated_at", "rowid"]),
};

/** How many keys a cursor of the sort has: a cursor of another length is not one of ours. */
export function profileSortArity(sort: ProfileSort): number {
  return orders[sort].columns.length;
}

type Keyed = Row & { sort_name: string; sort_updated: string; sort_rowid: number };

function keyOf(sort: ProfileSort): (row: Keyed) => Bindable[] {
  if (sort === "type" || sort === "-type") return (row) => [row.type, row.sort_name, row.sort_rowid];
  if (sort === "updated" || sort === "-updated") return (row) => [row.sort_updated, row.sort_rowid];
  return (row) => [row.sort_name, row.sort_rowid];
}

/**
 * One page of a scope's profiles (of one type, when asked), searched by name through
 * profiles_fts, paged by cursor, with a count capped at COUNT_CAP; rows and count in one batch
 * (a search: in one statement, `searchedPage`).
 */
export async function listProfiles(
  db: Db,
  {
    scope,
    type = null,
    search = "",
    sort = "name",
    limit = 25,
    cursor = null,
  }: {
    scope: ProfileScope;
    type?: ProfileType | null;
    search?: string;
    sort?: ProfileSort;
    limit?: number;
    cursor?: Cursor | null;
  },
): Promise<Page<ProfileSummary> & { total: Total }> {
  const query = ftsQuery(search);
  if (search.trim() && !query) return { items: [], next: null, previous: null, total: totalOf(0) };
  const [where, scopeId] = scopeWhere(scope);
  const filters = [where];
  const params: Bindable[] = [scopeId];
  if (type) {
    filters.push("type = ?");
    params.push(type);
  }
  const page = keysetWhere(orders[sort], cursor, limit);
  const finish = (rows: Keyed[], total: number | undefined) => ({
    ...pageOf(rows, page, keyOf(sort), toSummary),
    total: totalOf(total),
  });
  if (query) {
    const found = await searchedPage<Keyed>(db, {
      table: "profiles",
      columns,
      filter: filters.join(" AND "),
      params,
      query,
      keys: ["type"],
      page,
    });
    if (found) return finish(found.rows, found.total);
    // More than COUNT_CAP match: the page is read in the sort's index order.
    const matches = ftsRowids("profiles", query);
    filters.push(`rowid IN (${matches.sql})`);
    params.push(...matches.params);
  }
  const filter = filters.join(" AND ");
  const pageStatement = statement(
    db,
    `SELECT ${columns}, name AS sort_name, updated_at AS sort_updated, rowid AS sort_rowid FROM profiles
     WHERE ${filter} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`,
    ...params,
    ...page.params,
    page.limit,
  );
  if (query) return finish((await pageStatement.all<Keyed>()).results, COUNT_CAP + 1);
  const [rows, counted] = await db.batch<Keyed | { total: number }>([
    pageStatement,
    statement(db, cappedCount(`SELECT 1 FROM profiles WHERE ${filter}`), ...params),
  ]);
  return finish((rows?.results ?? []) as Keyed[], (counted?.results[0] as { total: number } | undefined)?.total);
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
