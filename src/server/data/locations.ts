import type { StoredNetworkConfig } from "@/schema/network-config";
import { all, type Db, first, newId, now, statement } from "./db";
import type { Cursor, Page, Total } from "./keyset";
import { findLevelNetworkConfig, updateLevelNetworkConfigStatement } from "./level-network-config";
import { listNamed, type NamedSort } from "./named-list";

/** A location of an account, inside one of its sites (DESIGN.md §3). */
export type Location = {
  _id: string;
  accountId: string;
  siteId: string;
  siteName: string;
  name: string;
  description: string;
  createdAt: string;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  account_id: string;
  site_id: string;
  site_name: string | null;
  name: string;
  description: string;
  created_at: string;
  updated_at: string;
  version: number;
};

const columns = `id, account_id, site_id, name, description, created_at, updated_at, version,
  (SELECT name FROM sites WHERE sites.id = locations.site_id) AS site_name`;

function toLocation(row: Row): Location {
  return {
    _id: row.id,
    accountId: row.account_id,
    siteId: row.site_id,
    siteName: row.site_name ?? "",
    name: row.name,
    description: row.description,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** A location of this account, or null (another account's id is no location here). */
export async function findLocation(db: Db, accountId: string, id: string): Promise<Location | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM locations WHERE id = ? AND account_id = ?`, id, accountId);
  return row ? toLocation(row) : null;
}

export type LocationSort = NamedSort;

/** One page of an account's locations (of one site when `siteId` is given), as named-list.ts pages. */
export async function listLocations(
  db: Db,
  {
    accountId,
    siteId = null,
    search = "",
    sort = "name",
    limit = 25,
    cursor = null,
  }: { accountId: string; siteId?: string | null; search?: string; sort?: LocationSort; limit?: number; cursor?: Cursor | null },
): Promise<Page<Location> & { total: Total }> {
  return listNamed(db, {
    table: "locations",
    columns,
    scope: siteId
      ? { where: "account_id = ? AND site_id = ?", params: [accountId, siteId] }
      : { where: "account_id = ?", params: [accountId] },
    search,
    sort,
    limit,
    cursor,
    toItem: toLocation,
  });
}

/** Every location of a site, for deleting them with it (one activity entry each). */
export async function listLocationsOfSite(db: Db, accountId: string, siteId: string) {
  return all<{ id: string; name: string; description: string }>(
    db,
    "SELECT id, name, description FROM locations WHERE account_id = ? AND site_id = ? ORDER BY name COLLATE NOCASE, rowid",
    accountId,
    siteId,
  );
}

/** Whether another location of the site has this name, compared without case. */
export async function locationNameTaken(db: Db, siteId: string, name: string, exceptId: string | null = null) {
  const row = await first<{ found: number }>(
    db,
    "SELECT 1 AS found FROM locations WHERE site_id = ? AND name = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1",
    siteId,
    name,
    exceptId,
  );
  return row !== null;
}

export type LocationFields = { siteId: string; name: string; description: string };

export function insertLocationStatement(db: Db, input: LocationFields & { accountId: string }) {
  const id = newId("loc");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO locations (id, account_id, site_id, name, description) VALUES (?, ?, ?, ?, ?)",
      id,
      input.accountId,
      input.siteId,
      input.name,
      input.description,
    ),
  };
}

/** Changes the general fields (its site too) only at the version the edit was made on. */
export function updateLocationStatement(db: Db, input: LocationFields & { accountId: string; id: string; version: number }) {
  return statement(
    db,
    `UPDATE locations SET site_id = ?, name = ?, description = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND account_id = ? AND version = ?`,
    input.siteId,
    input.name,
    input.description,
    now(),
    input.id,
    input.accountId,
    input.version,
  );
}

export function deleteLocationStatement(db: Db, input: { accountId: string; id: string; version: number }) {
  return statement(
    db,
    "DELETE FROM locations WHERE id = ? AND account_id = ? AND version = ?",
    input.id,
    input.accountId,
    input.version,
  );
}

/**
 * Deletes a location together with its site: only while the site is still at the version the
 * deletion was asked on, so a stale site deletion removes none of its locations either.
 */
export function deleteLocationWithSiteStatement(db: Db, input: { id: string; siteId: string; siteVersion: number }) {
  return statement(
    db,
    `DELETE FROM locations WHERE id = ? AND site_id = ?
       AND EXISTS (SELECT 1 FROM sites WHERE id = ? AND version = ?)`,
    input.id,
    input.siteId,
    input.siteId,
    input.siteVersion,
  );
}

export function findLocationNetworkConfig(db: Db, accountId: string, id: string): Promise<StoredNetworkConfig> {
  return findLevelNetworkConfig(db, "locations", accountId, id);
}

export function updateLocationNetworkConfigStatement(
  db: Db,
  input: { accountId: string; id: string; version: number; config: StoredNetworkConfig },
) {
  return updateLevelNetworkConfigStatement(db, "locations", input);
}
