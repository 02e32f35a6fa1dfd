import { type Db, statement } from "./db";

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

/**
 * Moves the account's fleet version from a batch when the statement before it changed a row
 * (`changes()`): a write no trigger sees, such as a saved group's conditions, which deployments
 * may target, so which radios should get what may have changed.
 */
export function bumpFleetVersionStatement(db: Db, accountId: string) {
  return statement(
    db,
    `INSERT INTO fleet_versions (account_id, version) SELECT ?, 1 WHERE changes() > 0
     ON CONFLICT DO UPDATE SET version = version + 1`,
    accountId,
  );
}
