import { emptySyncCounts, overdueBefore, type SyncCounts } from "@/schema/fleet/sync-state";
import { all, type Db, first, statement } from "./db";
import { radioSyncStatesSql, type SyncGroup, syncGroupsSql } from "./fleet-sync";
import { contactStateSql } from "./radio-contact";

/**
 * Sync × contact counts of large accounts, counted off the request path (issue 24, migration
 * 0029). Counting each radio's states costs about 5 µs a radio (fleet-sync.ts): seconds at a
 * million. An account with at least SNAPSHOT_FROM_RADIOS active radios gets a snapshot, counted
 * by the scheduled trigger (refreshAccountSnapshot: the live count's own state expressions, a
 * chunk of radios at a time), and every screen of that account (home, registry strip, drift API,
 * compliance report, the inventory's sync filter) reads the same snapshot and says when it was
 * counted; smaller accounts are counted live, exactly, as before.
 */
export const SNAPSHOT_FROM_RADIOS = 20_000;

export type AccountSyncGroups = {
  groups: (SyncGroup & { key: string | null })[];
  /** When the snapshot was counted; null: counted now (a small account). */
  asOf: string | null;
};

/**
 * An account's radios by sync × contact state and site (key: site id, null for none): its
 * snapshot when it has one, else counted now.
 */
export async function accountSyncGroups(db: Db, accountId: string, now = new Date()): Promise<AccountSyncGroups> {
  // One round trip either way (a page's are few, DESIGN §8): the live count reads no radio when
  // the snapshot exists, and the snapshot's part is empty when it does not.
  const rows = await all<{
    as_of: string | null;
    key: string | null;
    sync: SyncGroup["sync"] | null;
    contact: SyncGroup["contact"];
    radios: number;
  }>(
    db,
    `SELECT NULL AS as_of, g.key, g.sync, g.contact, g.radios FROM (${syncGroupsSql("site_id", { unlessSnapshot: true })}) g
     UNION ALL
     SELECT t.as_of, nullif(s.site_id, ''), s.sync, s.contact, s.radios
     FROM sync_snapshot_times t LEFT JOIN sync_snapshots s ON s.account_id = t.account_id
     WHERE t.account_id = ?1`,
    accountId,
    overdueBefore(now),
  );
  return {
    asOf: rows.find((row) => row.as_of)?.as_of ?? null,
    groups: rows.flatMap((row) => (row.sync ? [{ key: row.key, sync: row.sync, contact: row.contact, radios: row.radios }] : [])),
  };
}

/** An account's radios counted on both dimensions: the numbers every screen shows (with asOf for a snapshot). */
export async function accountSyncCounts(db: Db, accountId: string, now = new Date()): Promise<SyncCounts> {
  const { groups, asOf } = await accountSyncGroups(db, accountId, now);
  const counts: SyncCounts = { ...emptySyncCounts(), ...(asOf ? { asOf } : {}) };
  for (const group of groups) {
    counts.total += group.radios;
    counts.sync[group.sync] += group.radios;
    counts.contact[group.contact] += group.radios;
  }
  return counts;
}

export type SnapshotRefresh = { accounts: number; refreshed: number; dropped: number };

/** Radios counted per statement of a refresh: a statement of a few hundred ms never holds the database long. */
export const REFRESH_CHUNK = 25_000;
/** A snapshot is counted again when older than a minute per this many radios (1,000,000: every 5 minutes). */
export const RADIOS_PER_MINUTE = 200_000;

/**
 * Counts again the snapshot of every account with at least `fromRadios` active radios whose
 * snapshot is due (their number read from the place totals of migration 0027: one row per site,
 * not per radio), and drops the snapshots of accounts that fell below it (they are counted live
 * again).
 */
export async function refreshSyncSnapshots(
  db: Db,
  now = new Date(),
  { fromRadios = SNAPSHOT_FROM_RADIOS }: { fromRadios?: number } = {},
): Promise<SnapshotRefresh> {
  const large = await all<{ account_id: string; radios: number; as_of: string | null }>(
    db,
    `SELECT p.account_id, sum(p.radios) AS radios, (SELECT t.as_of FROM sync_snapshot_times t WHERE t.account_id = p.account_id) AS as_of
     FROM report_device_places p GROUP BY p.account_id HAVING sum(p.radios) >= ?`,
    fromRadios,
  );
  const stale = await all<{ account_id: string }>(
    db,
    `SELECT t.account_id FROM sync_snapshot_times t WHERE NOT EXISTS (
       SELECT 1 FROM report_device_places p WHERE p.account_id = t.account_id GROUP BY p.account_id HAVING sum(p.radios) >= ?)`,
    fromRadios,
  );
  for (const { account_id: accountId } of stale) {
    await db.batch([
      statement(db, "DELETE FROM sync_snapshots WHERE account_id = ?", accountId),
      statement(db, "DELETE FROM radio_sync_states WHERE account_id = ?", accountId),
      statement(db, "DELETE FROM sync_snapshot_times WHERE account_id = ?", accountId),
    ]);
  }
  let refreshed = 0;
  for (const account of large) {
    const every = Math.ceil(account.radios / RADIOS_PER_MINUTE) * 60_000;
    if (account.as_of && account.as_of > new Date(now.getTime() - every).toISOString()) continue;
    await refreshAccountSnapshot(db, account.account_id, now);
    refreshed++;
  }
  return { accounts: large.length, refreshed, dropped: stale.length };
}

type ChunkGroup = { sync: SyncGroup["sync"]; contact: SyncGroup["contact"]; key: string; radios: number };

/**
 * Counts one account's snapshot again, REFRESH_CHUNK radios at a time in uid order: each chunk is
 * one batch that writes the radios whose sync state changed (an idle fleet writes nothing), drops
 * those that left the account, and counts the chunk's radios by stored state, contact and site.
 * The sums are then written as the snapshot with its time, so the counts are exactly the stored
 * states the sync filter reads.
 */
export async function refreshAccountSnapshot(db: Db, accountId: string, now = new Date()): Promise<void> {
  const before = overdueBefore(now);
  const totals = new Map<string, ChunkGroup>();
  let after = "";
  for (;;) {
    const end = await first<{ uid: string }>(
      db,
      "SELECT uid FROM devices WHERE account_id = ? AND status = 'active' AND uid > ? ORDER BY uid LIMIT 1 OFFSET ?",
      accountId,
      after,
      REFRESH_CHUNK - 1,
    );
    // The last chunk reaches past every uid (and so past radios that left the account).
    const upTo = end?.uid ?? "\uffff";
    const results = await db.batch([
      statement(
        db,
        `INSERT INTO radio_sync_states (uid, account_id, sync)
         SELECT s.uid, ?1, s.sync FROM (${radioSyncStatesSql()}) s
         WHERE NOT EXISTS (SELECT 1 FROM radio_sync_states r WHERE r.uid = s.uid AND r.account_id = ?1 AND r.sync = s.sync)
         ON CONFLICT (uid) DO UPDATE SET account_id = excluded.account_id, sync = excluded.sync`,
        accountId,
        before,
        after,
        upTo,
      ),
      statement(
        db,
        // `+account_id`: the chunk's uid range on the primary key, not every state of the account.
        `DELETE FROM radio_sync_states WHERE +account_id = ?1 AND uid > ?2 AND uid <= ?3 AND NOT EXISTS (
           SELECT 1 FROM devices v WHERE v.uid = radio_sync_states.uid AND v.account_id = ?1 AND v.status = 'active')`,
        accountId,
        after,
        upTo,
      ),
      statement(
        db,
        `SELECT r.sync, ${contactStateSql("v", "?2")} AS contact,
           ifnull(v.site_id, '') AS key, count(*) AS radios
         FROM radio_sync_states r JOIN devices v ON v.uid = r.uid
         WHERE +r.account_id = ?1 AND r.uid > ?3 AND r.uid <= ?4 GROUP BY 1, 2, 3`,
        accountId,
        before,
        after,
        upTo,
      ),
    ]);
    for (const group of (results[2]?.results ?? []) as ChunkGroup[]) {
      const id = `${group.key}\n${group.sync}\n${group.contact}`;
      const total = totals.get(id);
      if (total) total.radios += group.radios;
      else totals.set(id, { ...group });
    }
    if (!end) break;
    after = end.uid;
  }
  await db.batch([
    statement(db, "DELETE FROM sync_snapshots WHERE account_id = ?", accountId),
    statement(
      db,
      `INSERT INTO sync_snapshots (account_id, site_id, sync, contact, radios)
       SELECT ?1, json_extract(j.value, '$.key'), json_extract(j.value, '$.sync'), json_extract(j.value, '$.contact'),
         json_extract(j.value, '$.radios') FROM json_each(?2) j`,
      accountId,
      JSON.stringify([...totals.values()]),
    ),
    statement(
      db,
      `INSERT INTO sync_snapshot_times (account_id, as_of, radios)
       VALUES (?1, ?2, (SELECT ifnull(sum(radios), 0) FROM sync_snapshots WHERE account_id = ?1))
       ON CONFLICT (account_id) DO UPDATE SET as_of = excluded.as_of, radios = excluded.radios`,
      accountId,
      now.toISOString(),
    ),
  ]);
}
