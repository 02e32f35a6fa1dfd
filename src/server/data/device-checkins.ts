import type { D1PreparedStatement } from "../cloudflare";
import { waitingCommandsJsonSql } from "./commands";
import { type Db, statement } from "./db";
import { deviceReportsJsonSql, recentDeploymentsJsonSql } from "./deployments";
import { fleetVersionSql } from "./fleet-versions";
import { latestChangeSql } from "./radio-changes";
import { IN_CONTACT, lastContactSql } from "./radio-contact";

/**
 * What the device protocol reads and writes about a radio (DESIGN.md §7). A check-in is one
 * read statement (the radio, its account's recent deployments, its reports); writes happen
 * only when something changed; last-seen in a batch when 15 minutes old (CONTACT_RESOLUTION_MS).
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
  /** The last contact, fine (radio-contact.ts); null: never seen. */
  last_contact_at: string | null;
  /** 1 while `last_seen_at` holds IN_CONTACT: a contact write then sets `contact_at` alone. */
  in_contact: number;
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
  dv.firmware, dv.battery, dv.signal, dv.reported_revision,
  ${lastContactSql("dv")} AS last_contact_at, dv.last_seen_at IS '${IN_CONTACT}' AS in_contact, dv.deployed_site_id, dv.deployed_location_id,
  dv.deployed_model, dv.deployed_tags, dv.attributes_changed_at, dv.redirect_url, dv.redirect_confirmed_at, dv.rollout_bucket`;

/** The radio with what it follows, each set of rows as a JSON array (`null` commands: not asked for). */
export type RadioStateRow = RadioRow & {
  deployments_json: string;
  reports_json: string;
  commands_json: string | null;
  fleet_version: number;
  change_seq: number;
};

/**
 * Everything a check-in or a config call reads, in ONE statement (the protocol's hot path,
 * DESIGN.md §8): the radio's row (its secret hash, status, attributes), its account's recent
 * deployments, its own reports, its account's fleet version and the radio-change log's latest
 * seq (the signed ETag and the shard's memory carry both) and,
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
       ${fleetVersionSql("dv.account_id")} AS fleet_version,
       ${latestChangeSql} AS change_seq
     FROM devices dv WHERE dv.uid = ?`,
    uid,
  );
}

export type Reported = { firmware?: string; battery?: number | null; signal?: number | null; reportedRevision?: string | null };

/**
 * Contact resolution (issue 24): the stored last-seen is never more than 15 minutes behind the
 * radio's true last contact. A radio's DeviceShard writes it in one batched statement for all
 * its radios, at most every CONTACT_FLUSH_MS, and only for radios whose latest contact is at
 * least CONTACT_WRITE_AFTER_MS newer than what is stored: an idle radio polling every 300 s
 * costs a write about every third or fourth poll (at most 96 a day).
 */
export const CONTACT_RESOLUTION_MS = 15 * 60_000;
export const CONTACT_FLUSH_MS = 10_000;
export const CONTACT_WRITE_AFTER_MS = CONTACT_RESOLUTION_MS - CONTACT_FLUSH_MS;

/** What D1 holds of what a radio reports, as the check-in last wrote or read it (lastContactAt: the fine contact). */
export type StoredContact = { firmware: string; reportedRevision: string | null; lastContactAt: string | null };

/** Firmware or revision differs from what is stored: "something new", written at once. */
export function reportsSomethingNew(stored: StoredContact, reported: Reported): boolean {
  return (
    (reported.firmware !== undefined && reported.firmware !== stored.firmware) ||
    (reported.reportedRevision !== undefined && reported.reportedRevision !== stored.reportedRevision)
  );
}

/** Contact not written for at least CONTACT_WRITE_AFTER_MS (or never): due for a write. */
export function contactDue(lastContactAt: string | null, at: number): boolean {
  return !lastContactAt || at - Date.parse(lastContactAt) >= CONTACT_WRITE_AFTER_MS;
}

/**
 * The check-in's own write, or null: something new (firmware, revision, a first contact) at
 * once with the contact; without it, the contact only when `withContact` (no shard batches it) and due.
 * Only changed columns are set: an unchanged one would still fire the triggers that watch it.
 */
export function checkInWrite(
  db: Db,
  radio: RadioRow,
  reported: Reported,
  at: Date,
  { withContact = true }: { withContact?: boolean } = {},
): { statement: D1PreparedStatement; stored: StoredContact; contactWritten: true } | null {
  const stored = { firmware: radio.firmware, reportedRevision: radio.reported_revision, lastContactAt: radio.last_contact_at };
  // A radio's first contact ever is news too (once in its life): "never seen" ends at once.
  const important = reportsSomethingNew(stored, reported) || !radio.last_contact_at;
  if (!important && !(withContact && contactDue(radio.last_contact_at, at.getTime()))) return null;
  const sets: string[] = [];
  const params: (string | number | null)[] = [];
  const set = (column: string, value: string | number | null) => {
    sets.push(`${column} = ?`);
    params.push(value);
  };
  if (reported.firmware !== undefined && reported.firmware !== radio.firmware) set("firmware", reported.firmware);
  if (reported.reportedRevision !== undefined && reported.reportedRevision !== radio.reported_revision)
    set("reported_revision", reported.reportedRevision);
  if (reported.battery !== undefined && reported.battery !== radio.battery) set("battery", reported.battery);
  if (reported.signal !== undefined && reported.signal !== radio.signal) set("signal", reported.signal);
  set("contact_at", at.toISOString());
  // The contact state moves only when it changes (radio-contact.ts): setting it again would cost its index rows.
  if (!radio.in_contact) set("last_seen_at", IN_CONTACT);
  return {
    statement: statement(db, `UPDATE devices SET ${sets.join(", ")} WHERE uid = ?`, ...params, radio.uid),
    stored: {
      firmware: reported.firmware ?? radio.firmware,
      reportedRevision: reported.reportedRevision === undefined ? radio.reported_revision : reported.reportedRevision,
      lastContactAt: at.toISOString(),
    },
    contactWritten: true,
  };
}

/** Radios per statement: one JSON parameter (D1 binds at most 100 parameters), well under its size limits. */
export const CONTACTS_PER_STATEMENT = 2_000;

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
    `UPDATE devices SET reported_revision = ?1, contact_at = max(ifnull(contact_at, ''), ?2), last_seen_at = '${IN_CONTACT}' WHERE uid = ?3
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
         reported_revision, ${lastContactSql("devices")} AS last_contact_at, last_seen_at IS '${IN_CONTACT}' AS in_contact,
         deployed_site_id, deployed_location_id, deployed_model, deployed_tags,
         attributes_changed_at, redirect_url, redirect_confirmed_at, rollout_bucket
       FROM devices WHERE account_id = ? AND status = 'active' ORDER BY uid LIMIT ?`,
    )
    .bind(accountId, limit)
    .all<RadioRow>();
  return results;
}
