import type { D1PreparedStatement } from "../cloudflare";
import { waitingCommandsJsonSql } from "./commands";
import { type Db, statement } from "./db";
import { deviceReportsJsonSql, recentDeploymentsJsonSql } from "./deployments";
import { fleetVersionSql } from "./fleet-versions";

/**
 * What the device protocol reads and writes about a radio (DESIGN.md §7). A check-in is one
 * read statement (the radio, its account's recent deployments, its reports); writes happen
 * only when something changed, and last-seen at most once a minute.
 */
export type RadioRow = {
  uid: string;
  org_id: string;
  account_id: string | null;
  site_id: string | null;
  location_id: string | null;
  model: string;
  tags: string;
  secret_hash: string;
  status: "active" | "retired";
  firmware: string;
  battery: number | null;
  signal: number | null;
  reported_revision: string | null;
  last_seen_at: string | null;
  deployed_site_id: string | null;
  deployed_location_id: string | null;
  deployed_model: string | null;
  deployed_tags: string;
  attributes_changed_at: string | null;
  redirect_url: string | null;
  redirect_confirmed_at: string | null;
  rollout_bucket: number;
};

const radioColumns = `dv.uid, dv.org_id, dv.account_id, dv.site_id, dv.location_id, dv.model, dv.tags, dv.secret_hash, dv.status,
  dv.firmware, dv.battery, dv.signal, dv.reported_revision, dv.last_seen_at, dv.deployed_site_id, dv.deployed_location_id,
  dv.deployed_model, dv.deployed_tags, dv.attributes_changed_at, dv.redirect_url, dv.redirect_confirmed_at, dv.rollout_bucket`;

/** The radio with what it follows, each set of rows as a JSON array (`null` commands: not asked for). */
export type RadioStateRow = RadioRow & {
  deployments_json: string;
  reports_json: string;
  commands_json: string | null;
  fleet_version: number;
};

/**
 * Everything a check-in or a config call reads, in ONE statement (the protocol's hot path,
 * DESIGN.md §8): the radio's row (its secret hash, status, attributes), its account's recent
 * deployments, its own reports, its account's fleet version (the signed ETag carries it) and,
 * when asked, its waiting commands. Each statement of a
 * batch adds to the call's cost (a workerd profile: one 4.5 ms, the batch of three or four it
 * replaces 6–7.5 ms). No row: no such radio.
 */
export function radioStateStatement(db: Db, uid: string, withCommands: boolean): D1PreparedStatement {
  return statement(
    db,
    `SELECT ${radioColumns},
       ${recentDeploymentsJsonSql("dv.account_id")} AS deployments_json,
       ${deviceReportsJsonSql("dv.uid")} AS reports_json,
       ${withCommands ? waitingCommandsJsonSql("dv.uid") : "NULL"} AS commands_json,
       ${fleetVersionSql("dv.account_id")} AS fleet_version
     FROM devices dv WHERE dv.uid = ?`,
    uid,
  );
}

export type Reported = { firmware?: string; battery?: number | null; signal?: number | null; reportedRevision?: string | null };

/** Last-seen is written at most once a minute; a changed firmware or revision is written at once. */
export const LAST_SEEN_EVERY_MS = 60_000;

export function checkInWrite(db: Db, radio: RadioRow, reported: Reported, at: Date): D1PreparedStatement | null {
  const next = {
    firmware: reported.firmware ?? radio.firmware,
    battery: reported.battery === undefined ? radio.battery : reported.battery,
    signal: reported.signal === undefined ? radio.signal : reported.signal,
    reportedRevision: reported.reportedRevision === undefined ? radio.reported_revision : reported.reportedRevision,
  };
  const important = next.firmware !== radio.firmware || next.reportedRevision !== radio.reported_revision;
  const stale = !radio.last_seen_at || at.getTime() - Date.parse(radio.last_seen_at) >= LAST_SEEN_EVERY_MS;
  if (!important && !stale) return null;
  return statement(
    db,
    "UPDATE devices SET firmware = ?, battery = ?, signal = ?, reported_revision = ?, last_seen_at = ? WHERE uid = ?",
    next.firmware,
    next.battery,
    next.signal,
    next.reportedRevision,
    at.toISOString(),
    radio.uid,
  );
}

/** The radio took its attributes' new values with a deployment newer than their change. */
export function copyDeployedAttributesStatement(db: Db, uid: string): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET deployed_site_id = site_id, deployed_location_id = location_id, deployed_model = model,
       deployed_tags = tags, attributes_changed_at = NULL WHERE uid = ?`,
    uid,
  );
}

export function confirmRedirectStatement(db: Db, uid: string, at: string): D1PreparedStatement {
  return statement(
    db,
    "UPDATE devices SET redirect_confirmed_at = ? WHERE uid = ? AND redirect_url IS NOT NULL AND redirect_confirmed_at IS NULL",
    at,
    uid,
  );
}

/**
 * The radio applied (or already had) a deployment's revision: written with the report that
 * says so, and only if that report is the one stored (a concurrent different final report won).
 */
export function reportedRevisionStatement(
  db: Db,
  uid: string,
  deploymentId: string,
  state: string,
  revisionId: string,
  at: string,
): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET reported_revision = ?1, last_seen_at = ?2 WHERE uid = ?3
       AND EXISTS (SELECT 1 FROM deployment_devices WHERE deployment_id = ?4 AND uid = ?3 AND state = ?5)`,
    revisionId,
    at,
    uid,
    deploymentId,
    state,
  );
}

/** A few of the account's radios (first by uid) to preview what a deployment changes for them. */
export async function sampleRadios(db: Db, accountId: string, limit: number): Promise<RadioRow[]> {
  const { results } = await db
    .prepare(
      `SELECT uid, org_id, account_id, site_id, location_id, model, tags, secret_hash, status, firmware, battery, signal,
         reported_revision, last_seen_at, deployed_site_id, deployed_location_id, deployed_model, deployed_tags,
         attributes_changed_at, redirect_url, redirect_confirmed_at, rollout_bucket
       FROM devices WHERE account_id = ? AND status = 'active' ORDER BY uid LIMIT ?`,
    )
    .bind(accountId, limit)
    .all<RadioRow>();
  return results;
}
