import type { D1PreparedStatement } from "../cloudflare";
import { type Db, statement } from "./db";

/**
 * A radio's last contact in two columns (issue 24, migration 0043), so that a radio that stays
 * in contact costs one row written per contact write instead of six to twelve:
 * - `contact_at`: the fine time of the last contact; no index and no trigger watch it.
 * - `last_seen_at`: the contact *state*, in the indexes, the inventory's seen filters and sort,
 *   and the last-seen report's running totals. It holds IN_CONTACT while the radio is in
 *   contact (its time is then in `contact_at`), the real last contact once it has been out of
 *   contact for OUT_OF_CONTACT_AFTER_MS (written by the sweep below), NULL when never seen.
 * So `last_seen_at` moves only when a radio goes quiet or comes back, never while it polls.
 */
export const IN_CONTACT = "9999-12-31T23:59:59.999Z";

/** How long without contact before the sweep gives `last_seen_at` the real last contact again. */
export const OUT_OF_CONTACT_AFTER_MS = 60 * 60_000;

/** Radios in contact whose contact the sweep checks per run (one index range, one row each). */
export const SWEEP_SLICE = 25_000;

/** SQL for a radio's last contact (NULL: never seen), the alias being a `devices` row. */
export function lastContactSql(alias: string): string {
  return `CASE WHEN ${alias}.last_seen_at = '${IN_CONTACT}' THEN ${alias}.contact_at ELSE ${alias}.last_seen_at END`;
}

/** SQL for a radio's contact state ('neverSeen', 'overdue', 'recent'), overdue before the SQL value `overdueBefore`. */
export function contactStateSql(alias: string, overdueBefore: string): string {
  return `CASE WHEN ${alias}.last_seen_at IS NULL THEN 'neverSeen'
    WHEN ${lastContactSql(alias)} < ${overdueBefore} THEN 'overdue' ELSE 'recent' END`;
}

/** One radio's contact for the shard's batch: when, and battery/signal if it reported them. */
export type Contact = { uid: string; at: string; battery?: number | null; signal?: number | null };

function contactRows(contacts: Contact[]): string {
  return JSON.stringify(
    contacts.map((c) => [
      c.uid,
      c.at,
      c.battery === undefined ? "keep" : "set",
      c.battery ?? null,
      c.signal === undefined ? "keep" : "set",
      c.signal ?? null,
    ]),
  );
}

const batteryAndSignal = `battery = CASE c.value ->> '$[2]' WHEN 'set' THEN c.value ->> '$[3]' ELSE devices.battery END,
       signal = CASE c.value ->> '$[4]' WHEN 'set' THEN c.value ->> '$[5]' ELSE devices.signal END`;

/**
 * The batched contact write for the radios already in contact: `contact_at` alone (one row
 * each), battery and signal riding along. A contact never moves back (another writer may have
 * been newer). Radios not in contact are left to `backInContactStatement`: the uids it returns
 * say which were written (`meta.changes` would also count rows written by triggers).
 */
export function stillInContactStatement(db: Db, contacts: Contact[]): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET contact_at = c.value ->> '$[1]', ${batteryAndSignal}
     FROM json_each(?) c
     WHERE devices.uid = c.value ->> '$[0]' AND devices.last_seen_at = '${IN_CONTACT}'
       AND ifnull(devices.contact_at, '') < c.value ->> '$[1]'
     RETURNING devices.uid`,
    contactRows(contacts),
  );
}

/** The same contacts for radios out of contact or never seen: their state moves to IN_CONTACT. */
export function backInContactStatement(db: Db, contacts: Contact[]): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET last_seen_at = '${IN_CONTACT}', contact_at = c.value ->> '$[1]', ${batteryAndSignal}
     FROM json_each(?) c
     WHERE devices.uid = c.value ->> '$[0]' AND devices.last_seen_at IS NOT '${IN_CONTACT}'
       AND ifnull(devices.last_seen_at, '') < c.value ->> '$[1]'`,
    contactRows(contacts),
  );
}

/**
 * Writes a batch of contacts (at most CONTACTS_PER_STATEMENT): `contact_at` alone for the
 * radios in contact, then, only if some radio was not written (never seen, quiet, or the sweep
 * marked it quiet meanwhile), a second statement that puts those back in contact.
 */
export async function writeContacts(db: Db, contacts: Contact[]): Promise<void> {
  const { results } = await stillInContactStatement(db, contacts).all<{ uid: string }>();
  if (results.length === contacts.length) return;
  const written = new Set(results.map((row) => row.uid));
  await backInContactStatement(
    db,
    contacts.filter((c) => !written.has(c.uid)),
  ).run();
}

/**
 * The contact sweep (scheduled trigger, each minute): the next SWEEP_SLICE radios in contact, by
 * uid, are checked, and those without contact for OUT_OF_CONTACT_AFTER_MS get their real last
 * contact back in `last_seen_at`. A cycle over all radios in contact takes one run per slice (40
 * at 1,000,000), so a radio leaves IN_CONTACT within an hour and a cycle of its last contact:
 * the seen filters and report count by the day, so they stay exact. Two statements, in a batch.
 */
export function contactSweepStatements(db: Db, now: Date, slice = SWEEP_SLICE): D1PreparedStatement[] {
  const quietSince = new Date(now.getTime() - OUT_OF_CONTACT_AFTER_MS).toISOString();
  return [
    // The next slice starts where the last ended and takes `slice` radios in contact, or the rest
    // ('' : to the end; the run after starts over). Not written when it stays the same (all in one slice).
    statement(
      db,
      `WITH next(upto) AS (SELECT ifnull((SELECT uid FROM devices WHERE last_seen_at = '${IN_CONTACT}'
           AND uid > (SELECT upto_uid FROM contact_sweep WHERE id = 1) ORDER BY uid LIMIT 1 OFFSET ?1 - 1), ''))
       UPDATE contact_sweep SET from_uid = upto_uid, upto_uid = (SELECT upto FROM next)
       WHERE id = 1 AND NOT (from_uid = upto_uid AND upto_uid = (SELECT upto FROM next))`,
      slice,
    ),
    statement(
      db,
      `UPDATE devices SET last_seen_at = contact_at
       WHERE last_seen_at = '${IN_CONTACT}' AND ifnull(contact_at, '') < ?1
         AND uid > (SELECT from_uid FROM contact_sweep WHERE id = 1)
         AND uid <= (SELECT CASE upto_uid WHEN '' THEN char(1114111) ELSE upto_uid END FROM contact_sweep WHERE id = 1)
       RETURNING uid`,
      quietSince,
    ),
  ];
}

/** Runs one sweep; returns how many radios went out of contact. */
export async function sweepContacts(db: Db, now = new Date(), slice = SWEEP_SLICE): Promise<number> {
  const results = await db.batch(contactSweepStatements(db, now, slice));
  return results[1]?.results.length ?? 0;
}
