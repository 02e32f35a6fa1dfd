import { parseStoredNetworkConfig, type StoredNetworkConfig } from "@/schema/network-config";
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

export type SubscriptionLevel = "essential" | "advanced";

/** An account as spec §3 names it (`_id`), plus what DESIGN.md §3 adds. */
export type Account = {
  _id: string;
  orgId: string;
  name: string;
  subscriptionLevel: SubscriptionLevel;
  timezone: string;
  /** Months its activity, commands and deployment outcomes stay in D1 before moving to R2 (src/server/retention). */
  retentionMonths: number;
  /** Each deployment waits for a second person's approval (migration 0034), for at most `approvalExpiryHours`. */
  approvalRequired: boolean;
  approvalExpiryHours: number;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  org_id: string;
  name: string;
  subscription_level: SubscriptionLevel;
  timezone: string;
  retention_months: number;
  approval_required: number;
  approval_expiry_hours: number;
  updated_at: string;
  version: number;
};

const columns =
  "id, org_id, name, subscription_level, timezone, retention_months, approval_required, approval_expiry_hours, updated_at, version";

const aliasedColumns = columns
  .split(", ")
  .map((column) => `a.${column}`)
  .join(", ");

function toAccount(row: Row): Account {
  return {
    _id: row.id,
    orgId: row.org_id,
    name: row.name,
    subscriptionLevel: row.subscription_level,
    timezone: row.timezone,
    retentionMonths: row.retention_months,
    approvalRequired: row.approval_required === 1,
    approvalExpiryHours: row.approval_expiry_hours,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export async function findAccount(db: Db, id: string): Promise<Account | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM accounts WHERE id = ?`, id);
  return row ? toAccount(row) : null;
}

/**
 * The account if it belongs to `rootOrgId` or an organization below it, in one read (the
 * tenant check and the row together): anything else is null, as if it did not exist.
 */
export async function findAccountWithin(db: Db, rootOrgId: string, id: string): Promise<Account | null> {
  const row = await first<Row>(
    db,
    `SELECT ${aliasedColumns} FROM accounts a JOIN organization_ancestors t ON t.org_id = a.org_id AND t.ancestor_id = ?
     WHERE a.id = ?`,
    rootOrgId,
    id,
  );
  return row ? toAccount(row) : null;
}

export type AccountSort = "name" | "-name" | "updated" | "-updated" | "level" | "-level";

/**
 * The list's orders, each an index of account_scopes (migration 0010): levels in their order
 * (essential, then advanced), ties by name; the rowid makes every key unique. A descending
 * sort is the exact reverse of its ascending one (for levels: advanced first, names Z→A), so
 * each is one index scanned one way or the other.
 */
const treeOrders: Record<AccountSort, Order> = {
  name: order("asc", ["s.name", "s.account_rowid"]),
  "-name": order("desc", ["s.name", "s.account_rowid"]),
  updated: order("asc", ["s.updated_at", "s.account_rowid"]),
  "-updated": order("desc", ["s.updated_at", "s.account_rowid"]),
  level: order("asc", ["s.level_rank", "s.name", "s.account_rowid"]),
  "-level": order("desc", ["s.level_rank", "s.name", "s.account_rowid"]),
};

type ScopedRow = Row & { sort_name: string; sort_updated: string; sort_level: number; sort_rowid: number };

function sortKey(sort: AccountSort): (row: ScopedRow) => Bindable[] {
  if (sort === "name" || sort === "-name") return (row) => [row.sort_name, row.sort_rowid];
  if (sort === "updated" || sort === "-updated") return (row) => [row.sort_updated, row.sort_rowid];
  return (row) => [row.sort_level, row.sort_name, row.sort_rowid];
}

export function accountSortArity(sort: AccountSort): number {
  return treeOrders[sort].columns.length;
}

/**
 * One page of the accounts of an organization and, by default, of its descendants, and a
 * count capped at COUNT_CAP. Both read one index range of account_scopes (every ancestor's
 * rows side by side, in the sort's order), so neither the tree walk nor a sort nor an OFFSET
 * grows with the number of accounts; a search starts from its FTS5 matches (see below).
 * Sent as one D1 batch (two for a search matching more than COUNT_CAP accounts).
 */
export async function listAccounts(
  db: Db,
  {
    orgId,
    includeDescendants = true,
    search = "",
    sort = "name",
    limit = 50,
    cursor = null,
  }: { orgId: string; includeDescendants?: boolean; search?: string; sort?: AccountSort; limit?: number; cursor?: Cursor | null },
): Promise<Page<Account> & { total: Total }> {
  const query = ftsQuery(search);
  if (search.trim() && !query) return { items: [], next: null, previous: null, total: totalOf(0) };
  const filters = ["s.org_id = ?"];
  const params: Bindable[] = [orgId];
  if (!includeDescendants) {
    filters.push("a.org_id = ?");
    params.push(orgId);
  }
  const from = "account_scopes s JOIN accounts a ON a.rowid = s.account_rowid";
  const page = keysetWhere(treeOrders[sort], cursor, limit);
  const columnsOfPage = `${aliasedColumns},
         s.name AS sort_name, s.updated_at AS sort_updated, s.level_rank AS sort_level, s.account_rowid AS sort_rowid`;
  const pageIn = (source: string, where: string, params: Bindable[]) =>
    statement(
      db,
      `SELECT ${columnsOfPage} FROM ${source} WHERE ${where} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?`,
      ...params,
      ...page.params,
      page.limit,
    );
  const finish = (rows: ScopedRow[], total: number | undefined) => ({
    ...pageOf(rows, page, sortKey(sort), toAccount),
    total: totalOf(total),
  });

  if (query) {
    // A search reads the matches in scope from the FTS index once, at most COUNT_CAP + 1 of
    // them with their sort keys: their number is the count, the page is the first of them in
    // the sort's order, and only that page's accounts are read whole — one statement, whose
    // cost follows the number of matches (capped), not of accounts. Only a search matching
    // more than that reads the page in the sort's index order, checking each row against the
    // matches, as a list without a search does (a second round trip).
    const ownOnly = includeDescendants ? "" : " JOIN accounts own ON own.rowid = s.account_rowid AND own.org_id = ?";
    const counted = await statement(
      db,
      `WITH s AS MATERIALIZED (
         SELECT s.account_rowid, s.name, s.updated_at, s.level_rank FROM accounts_fts f
         CROSS JOIN account_scopes s ON s.account_rowid = f.rowid AND s.org_id = ?${ownOnly}
         WHERE accounts_fts MATCH ? LIMIT ${COUNT_CAP + 1})
       SELECT c.total, ${columnsOfPage} FROM (SELECT count(*) AS total FROM s) c
       LEFT JOIN (SELECT * FROM s WHERE ${page.where} ORDER BY ${page.orderBy} LIMIT ?) s ON 1
       LEFT JOIN accounts a ON a.rowid = s.account_rowid
       ORDER BY ${page.orderBy}`,
      ...(includeDescendants ? [orgId, query] : [orgId, orgId, query]),
      ...page.params,
      page.limit,
    ).all<ScopedRow & { total: number }>();
    const total = counted.results[0]?.total ?? 0;
    // With no row on the page, the count comes back alone, on a row of nulls.
    const few = counted.results.filter((row) => row.sort_rowid !== null);
    if (total <= COUNT_CAP) return finish(few, total);
    const matched = ftsRowids("accounts", query);
    const many = await pageIn(from, `${filters.join(" AND ")} AND s.account_rowid IN (${matched.sql})`, [
      ...params,
      ...matched.params,
    ]).all<ScopedRow>();
    return finish(many.results, total);
  }

  // The count needs the account row only to filter by its own organization.
  const countFrom = includeDescendants ? "account_scopes s" : from;
  const [rows, counted] = await db.batch<ScopedRow | { total: number }>([
    pageIn(from, filters.join(" AND "), params),
    statement(db, cappedCount(`SELECT 1 FROM ${countFrom} WHERE ${filters.join(" AND ")}`), ...params),
  ]);
  return finish(rows?.results as ScopedRow[], (counted?.results[0] as { total: number } | undefined)?.total);
}

/**
 * The account switcher's search across the caller's organization tree: id and name, at most
 * `limit`. With a search, the FTS5 matches are read in their own order and the first `limit`
 * the caller may see are kept (then shown by name), so the cost follows the page, not the
 * number of accounts or of matches; without one, the first names from the scope index.
 */
export async function listAccountNames(
  db: Db,
  { rootOrgId, search = "", limit = 20 }: { rootOrgId: string; search?: string; limit?: number },
): Promise<{ id: string; name: string }[]> {
  const query = ftsQuery(search);
  if (search.trim() && !query) return [];
  if (!query) {
    return all<{ id: string; name: string }>(
      db,
      `SELECT a.id, a.name FROM account_scopes s JOIN accounts a ON a.rowid = s.account_rowid
       WHERE s.org_id = ? ORDER BY s.name, s.account_rowid LIMIT ?`,
      rootOrgId,
      limit,
    );
  }
  const rows = await all<{ id: string; name: string }>(
    db,
    `SELECT a.id, a.name FROM accounts_fts f
       CROSS JOIN account_scopes s ON s.account_rowid = f.rowid AND s.org_id = ?
       JOIN accounts a ON a.rowid = f.rowid
     WHERE accounts_fts MATCH ? LIMIT ?`,
    rootOrgId,
    query,
    limit,
  );
  return rows.sort((x, y) => x.name.localeCompare(y.name, undefined, { sensitivity: "base" }) || x.id.localeCompare(y.id));
}

/** One organization's own accounts (id and name, by name), for choosing where radios go. */
export async function listOrgAccounts(db: Db, orgId: string, limit: number) {
  return all<{ id: string; name: string }>(
    db,
    "SELECT id, name FROM accounts WHERE org_id = ? ORDER BY name COLLATE NOCASE, id LIMIT ?",
    orgId,
    limit,
  );
}

export function insertAccountStatement(
  db: Db,
  input: { orgId: string; name: string; subscriptionLevel: SubscriptionLevel; timezone: string },
) {
  const id = newId("acc");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO accounts (id, org_id, name, subscription_level, timezone) VALUES (?, ?, ?, ?, ?)",
      id,
      input.orgId,
      input.name,
      input.subscriptionLevel,
      input.timezone,
    ),
  };
}

/**
 * Updates the general fields if the row is still at `version` (no lost updates). The
 * statement changes no row when someone else saved first; callers check `changes`.
 */
export function updateAccountStatement(
  db: Db,
  input: { id: string; version: number; name: string; subscriptionLevel: SubscriptionLevel; timezone: string },
) {
  return statement(
    db,
    `UPDATE accounts SET name = ?, subscription_level = ?, timezone = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND version = ?`,
    input.name,
    input.subscriptionLevel,
    input.timezone,
    now(),
    input.id,
    input.version,
  );
}

/** Sets the account's retention if the row is still at `version`; callers check `changes`. */
export function updateRetentionStatement(db: Db, input: { id: string; version: number; months: number }) {
  return statement(
    db,
    "UPDATE accounts SET retention_months = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
    input.months,
    now(),
    input.id,
    input.version,
  );
}

export function deleteAccountStatement(db: Db, id: string, version: number) {
  return statement(db, "DELETE FROM accounts WHERE id = ? AND version = ?", id, version);
}

export async function findAccountNetworkConfig(db: Db, id: string): Promise<StoredNetworkConfig> {
  const row = await first<{ network_config: string }>(db, "SELECT network_config FROM accounts WHERE id = ?", id);
  return parseStoredNetworkConfig(row?.network_config ?? null);
}

export function updateAccountNetworkConfigStatement(db: Db, input: { id: string; version: number; config: StoredNetworkConfig }) {
  return statement(
    db,
    "UPDATE accounts SET network_config = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
    JSON.stringify(input.config),
    now(),
    input.id,
    input.version,
  );
}
