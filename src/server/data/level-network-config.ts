import { parseStoredNetworkConfig, type StoredNetworkConfig } from "@/schema/network-config";
import { type Db, first, now, statement } from "./db";

/**
 * The network overrides stored on a site or a location: the same column, the same version
 * rule, in two tables. `table` is one of two literals, never user input.
 */
export type NetworkLevelTable = "sites" | "locations";

export async function findLevelNetworkConfig(
  db: Db,
  table: NetworkLevelTable,
  accountId: string,
  id: string,
): Promise<StoredNetworkConfig> {
  const row = await first<{ network_config: string }>(
    db,
    `SELECT network_config FROM ${table} WHERE id = ? AND account_id = ?`,
    id,
    accountId,
  );
  return parseStoredNetworkConfig(row?.network_config ?? null);
}

/** Changes no row when someone saved first (stale version); callers check `changes`. */
export function updateLevelNetworkConfigStatement(
  db: Db,
  table: NetworkLevelTable,
  input: { accountId: string; id: string; version: number; config: StoredNetworkConfig },
) {
  return statement(
    db,
    `UPDATE ${table} SET network_config = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND account_id = ? AND version = ?`,
    JSON.stringify(input.config),
    now(),
    input.id,
    input.accountId,
    input.version,
  );
}
