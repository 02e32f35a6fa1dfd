/**
 * The per-account fleet version (migrations 0024, 0031): triggers move it on every write of the
 * account's deployments, which can change what any radio of the account should get (one radio's
 * own changes go to the radio-change log instead). The radio-state statement reads it
 * (device-checkins.ts), and so does the config 304 path when its cache is stale (config-token.ts).
 */

/** The scalar subquery for a statement that reads a radio: no row yet reads as 0. */
export function fleetVersionSql(accountId: string): string {
  return `ifnull((SELECT fv.version FROM fleet_versions fv WHERE fv.account_id = ${accountId}), 0)`;
}
