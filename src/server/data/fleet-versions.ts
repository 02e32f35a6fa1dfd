import { type Db, first } from "./db";

/**
 * The per-account fleet version (migration 0024): triggers move it on every write that can
 * change what a radio of the account should get. The radio-state statement reads it too
 * (device-checkins.ts); this is the tiny read the config 304 path makes when its cache is stale.
 */
export async function readFleetVersion(db: Db, accountId: string): Promise<number> {
  const row = await first<{ version: number }>(db, "SELECT version FROM fleet_versions WHERE account_id = ?", accountId);
  return row?.version ?? 0;
}

/** The scalar subquery for a statement that reads a radio: no row yet reads as 0. */
export function fleetVersionSql(accountId: string): string {
  return `ifnull((SELECT fv.version FROM fleet_versions fv WHERE fv.account_id = ${accountId}), 0)`;
}
