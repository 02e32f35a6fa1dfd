import type { StoredNetworkConfig } from "@/schema/network-config";
import { all, type Db, first, newId, now, statement } from "./db";
import type { Cursor, Page, Total } from "./keyset";
import { findLevelNetworkConfig, updateLevelNetworkConfigStatement } from "./level-network-config";
import { listNamed, type NamedSort } from "./named-list";

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

/** A site of this account, or null (another account's id is no site here). */
export async function findSite(db: Db, accountId: string, id: string): Promise<Site | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM sites WHERE id = ? AND account_id = ?`, id, accountId);
  return row ? toSite(row) : null;
}

export type SiteSort = NamedSort;

/**
 * One page of an account's sites with a capped count (named-list.ts: keyset paging on the
 * sites_account_name / sites_account_updated indexes, search through sites_fts), each with
 * its number of locations (one index probe per row of the page).
 */
export async function listSites(
  db: Db,
  {
    accountId,
    search = "",
    sort = "name",
    limit = 25,
    cursor = null,
  }: { accountId: string; search?: string; sort?: SiteSort; limit?: number; cursor?: Cursor | null },
): Promise<Page<Site> & { total: Total }> {
  return listNamed(db, {
    table: "sites",
    columns,
    scope: { where: "account_id = ?", params: [accountId] },
    search,
    sort,
    limit,
    cursor,
    toItem: toSite,
  });
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
