import { type Db, first } from "./db";

/** How much is configured in an account, for its home (spec §7 accounts.getConfiguredEntitiesSummary). */
export type ConfiguredEntitiesSummary = {
  sites: number;
  locations: number;
  profiles: number;
  rules: number;
  devices: number;
  /** Deployments waiting for a second person's approval (issue 25), from their partial index. */
  awaitingApproval: number;
};

/**
 * One read, each count from an index that starts with account_id. Profiles are the account's
 * own (organization-wide templates have no account). Devices are the account's seat counter
 * (kept by triggers, migration 0012): O(1) however large the fleet.
 */
export async function configuredEntitiesSummary(db: Db, accountId: string): Promise<ConfiguredEntitiesSummary> {
  const row = await first<ConfiguredEntitiesSummary>(
    db,
    `SELECT
       (SELECT count(*) FROM sites WHERE account_id = ?1) AS sites,
       (SELECT count(*) FROM locations WHERE account_id = ?1) AS locations,
       (SELECT count(*) FROM profiles WHERE account_id = ?1) AS profiles,
       (SELECT count(*) FROM rules WHERE account_id = ?1) AS rules,
       (SELECT devices_in_use FROM accounts WHERE id = ?1) AS devices,
       (SELECT count(*) FROM deployments INDEXED BY deployments_awaiting_approval
          WHERE account_id = ?1 AND approval = 'pending' AND state = 'scheduled') AS awaitingApproval`,
    accountId,
  );
  return {
    sites: row?.sites ?? 0,
    locations: row?.locations ?? 0,
    profiles: row?.profiles ?? 0,
    rules: row?.rules ?? 0,
    devices: row?.devices ?? 0,
    awaitingApproval: row?.awaitingApproval ?? 0,
  };
}
