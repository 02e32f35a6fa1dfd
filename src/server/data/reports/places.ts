import type { Db } from "../db";
import { all } from "../db";

/** The account's sites by id, to name the rows of a report grouped by site (a few hundred at most). */
export async function siteNames(db: Db, accountId: string): Promise<Map<string, string>> {
  const rows = await all<{ id: string; name: string }>(db, "SELECT id, name FROM sites WHERE account_id = ?1", accountId);
  return new Map(rows.map((row) => [row.id, row.name]));
}
