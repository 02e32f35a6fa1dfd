import { all, type Db } from "./db";

/** One change of the firmware a radio reports (device_firmware_history, written by a trigger). */
export type FirmwareChange = { at: string; firmware: string; previous: string };

/**
 * A radio's firmware history, newest first, a keyset page at a time (`before`: the time of the
 * last change shown). Rows of the primary key (uid, at, firmware) only: no sort, no scan.
 */
export async function firmwareHistory(
  db: Db,
  uid: string,
  { before = null, limit = 10 }: { before?: string | null; limit?: number } = {},
): Promise<{ items: FirmwareChange[]; next: string | null }> {
  const rows = await all<FirmwareChange>(
    db,
    `SELECT at, firmware, previous FROM device_firmware_history
     WHERE uid = ?1 AND (?2 IS NULL OR at < ?2) ORDER BY at DESC, firmware DESC LIMIT ?3`,
    uid,
    before,
    limit + 1,
  );
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? (items[items.length - 1]?.at ?? null) : null };
}
