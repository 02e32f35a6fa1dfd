import { emptySyncCounts, overdueBefore, type SyncCounts } from "@/schema/fleet/sync-state";
import { all, type Db, statement } from "./db";
import { type SyncGroup, syncGroupsSql } from "./fleet-sync";

/**
 * Sync × contact counts of large accounts, counted off the request path (issue 24, migration
 * 0029). Counting each radio's states costs about 5 µs a radio (fleet-sync.ts): seconds at a
 * million. An account with at least SNAPSHOT_FROM_RADIOS active radios gets a snapshot, counted
 * by the scheduled trigger every minute with the very statement of the live count, and every
 * screen of that account (home, registry strip, drift API, compliance report) reads the same
 * snapshot and says when it was counted; smaller accounts are counted live, exactly, as before.
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

export type SnapshotRefresh = { accounts: number; dropped: number };

/**
 * Counts again the snapshot of every account with at least `fromRadios` active radios (their
 * number read from the place totals of migration 0027: one row per site, not per radio), and
 * drops the snapshots of accounts that fell below it (they are counted live again). Each account
 * is one batch: the old groups out, the new ones in, the time; an account of a million radios is
 * a few seconds of database time, a few dozen rows written.
 */
export async function refreshSyncSnapshots(
  db: Db,
  now = new Date(),
  { fromRadios = SNAPSHOT_FROM_RADIOS }: { fromRadios?: number } = {},
): Promise<SnapshotRefresh> {
  const large = await all<{ account_id: string }>(
    db,
    "SELECT account_id FROM report_device_places GROUP BY account_id HAVING sum(radios) >= ?",
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
      statement(db, "DELETE FROM sync_snapshot_times WHERE account_id = ?", accountId),
    ]);
  }
  for (const { account_id: accountId } of large) await refreshAccountSnapshot(db, accountId, now);
  return { accounts: large.length, dropped: stale.length };
}

/** Counts one account's snapshot again: one batch, the old groups out, the new ones in, the time. */
export async function refreshAccountSnapshot(db: Db, accountId: string, now = new Date()): Promise<void> {
  await db.batch([
    statement(db, "DELETE FROM sync_snapshots WHERE account_id = ?", accountId),
    statement(
      db,
      `INSERT INTO sync_snapshots (account_id, site_id, sync, contact, radios)
       SELECT ?1, ifnull(g.key, ''), g.sync, g.contact, g.radios FROM (${syncGroupsSql("site_id")}) g`,
      accountId,
      overdueBefore(now),
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
