import type { StoredNetworkConfig } from "@/schema/network-config";
import { all, type Db, first, newId, now, statement } from "./db";
import { findLevelNetworkConfig, updateLevelNetworkConfigStatement } from "./level-network-config";

/** A site of an account (DESIGN.md §3); a null time zone is the account's. */
export type Site = {
  _id: string;
  accountId: string;
  name: string;
  address: string;
  timezone: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
  locationCount: number;
};

type Row = {
  id: string;
  account_id: string;
  name: string;
  address: string;
  timezone: string | null;
  created_at: string;
  updated_at: string;
  version: number;
  location_count: number;
};

const columns = `id, account_id, name, address, timezone, created_at, updated_at, version,
  (SELECT count(*) FROM locations WHERE locations.site_id = sites.id) AS location_count`;

function toSite(row: Row): Site {
  return {
    _id: row.id,
    accountId: row.account_id,
    name: row.name,
    address: row.address,
    timezone: row.timezone,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
    locationCount: row.location_count,
  };
}

/** A LIKE pattern that finds `search` anywhere, its wildcards taken literally. */
export function likePattern(search: string): string {
  return `%${search.trim().replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
}

/** A site of this account, or null (another account's id is no site here). */
export async function findSite(db: Db, accountId: string, id: string): Promise<Site | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM sites WHERE id = ? AND account_id = ?`, id, accountId);
  return row ? toSite(row) : null;
}

export type SiteSort = "name" | "-name" | "updated" | "-updated";

/** Ties are broken by rowid, which the (account_id, name) index holds: a name sort needs only the index. */
const orderBy: Record<SiteSort, string> = {
  name: "name COLLATE NOCASE ASC, rowid",
  "-name": "name COLLATE NOCASE DESC, rowid DESC",
  updated: "updated_at ASC, rowid",
  "-updated": "updated_at DESC, rowid DESC",
};

/**
 * One page of an account's sites and the total for the pager. The page is chosen among rowids
 * first (from the sites_account_name index alone when sorting by name), then only its rows are
 * read and their locations counted, so a deep page costs about what the first does.
 */
export async function listSites(
  db: Db,
  {
    accountId,
    search = "",
    sort = "name",
    limit = 25,
    offset = 0,
  }: { accountId: string; search?: string; sort?: SiteSort; limit?: number; offset?: number },
): Promise<{ items: Site[]; total: number }> {
  const pattern = likePattern(search);
  const [rows, count] = await Promise.all([
    all<Row>(
      db,
      `WITH page AS (
         SELECT rowid AS row FROM sites WHERE account_id = ? AND name LIKE ? ESCAPE '\\'
         ORDER BY ${orderBy[sort]} LIMIT ? OFFSET ?)
       SELECT ${columns} FROM sites WHERE rowid IN (SELECT row FROM page) ORDER BY ${orderBy[sort]}`,
      accountId,
      pattern,
      limit,
      offset,
    ),
    first<{ total: number }>(
      db,
      "SELECT count(*) AS total FROM sites WHERE account_id = ? AND name LIKE ? ESCAPE '\\'",
      accountId,
      pattern,
    ),
  ]);
  return { items: rows.map(toSite), total: count?.total ?? 0 };
}

/** Sites as choices (id and name, by name), for the location forms' site picker. */
export async function listSiteOptions(db: Db, accountId: string, limit: number): Promise<{ id: string; name: string }[]> {
  return all<{ id: string; name: string }>(
    db,
    "SELECT id, name FROM sites WHERE account_id = ? ORDER BY name COLLATE NOCASE, rowid LIMIT ?",
    accountId,
    limit,
  );
}

/** Whether another site of the account has this name, compared without case. */
export async function siteNameTaken(db: Db, accountId: string, name: string, exceptId: string | null = null) {
  const row = await first<{ found: number }>(
    db,
    "SELECT 1 AS found FROM sites WHERE account_id = ? AND name = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1",
    accountId,
    name,
    exceptId,
  );
  return row !== null;
}

export type SiteFields = { name: string; address: string; timezone: string | null };

export function insertSiteStatement(db: Db, input: SiteFields & { accountId: string }) {
  const id = newId("site");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO sites (id, account_id, name, address, timezone) VALUES (?, ?, ?, ?, ?)",
      id,
      input.accountId,
      input.name,
      input.address,
      input.timezone,
    ),
  };
}

/** Changes the general fields only at the version the edit was made on (no row changed when stale). */
export function updateSiteStatement(db: Db, input: SiteFields & { accountId: string; id: string; version: number }) {
  return statement(
    db,
    `UPDATE sites SET name = ?, address = ?, timezone = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND account_id = ? AND version = ?`,
    input.name,
    input.address,
    input.timezone,
    now(),
    input.id,
    input.accountId,
    input.version,
  );
}

export function deleteSiteStatement(db: Db, input: { accountId: string; id: string; version: number }) {
  return statement(
    db,
    "DELETE FROM sites WHERE id = ? AND account_id = ? AND version = ?",
    input.id,
    input.accountId,
    input.version,
  );
}

export function findSiteNetworkConfig(db: Db, accountId: string, id: string): Promise<StoredNetworkConfig> {
  return findLevelNetworkConfig(db, "sites", accountId, id);
}

export function updateSiteNetworkConfigStatement(
  db: Db,
  input: { accountId: string; id: string; version: number; config: StoredNetworkConfig },
) {
  return updateLevelNetworkConfigStatement(db, "sites", input);
}
