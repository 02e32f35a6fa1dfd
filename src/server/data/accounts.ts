import { all, type Db, first } from "./db";

export type SubscriptionLevel = "essential" | "advanced";

/** An account as spec §3 names it (`_id`), plus what DESIGN.md §3 adds. */
export type Account = {
  _id: string;
  orgId: string;
  name: string;
  subscriptionLevel: SubscriptionLevel;
  timezone: string;
  version: number;
};

type Row = { id: string; org_id: string; name: string; subscription_level: SubscriptionLevel; timezone: string; version: number };

const columns = "id, org_id, name, subscription_level, timezone, version";

function toAccount(row: Row): Account {
  return {
    _id: row.id,
    orgId: row.org_id,
    name: row.name,
    subscriptionLevel: row.subscription_level,
    timezone: row.timezone,
    version: row.version,
  };
}

export async function findAccount(db: Db, id: string): Promise<Account | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM accounts WHERE id = ?`, id);
  return row ? toAccount(row) : null;
}

/** One page of an organization's accounts by name, with the total for the pager. */
export async function listAccounts(
  db: Db,
  { orgId, search = "", limit = 50, offset = 0 }: { orgId: string; search?: string; limit?: number; offset?: number },
): Promise<{ items: Account[]; total: number }> {
  const pattern = `%${search.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
  const [rows, count] = await Promise.all([
    all<Row>(
      db,
      `SELECT ${columns} FROM accounts WHERE org_id = ? AND name LIKE ? ESCAPE '\\'
       ORDER BY name COLLATE NOCASE, id LIMIT ? OFFSET ?`,
      orgId,
      pattern,
      limit,
      offset,
    ),
    first<{ total: number }>(
      db,
      "SELECT count(*) AS total FROM accounts WHERE org_id = ? AND name LIKE ? ESCAPE '\\'",
      orgId,
      pattern,
    ),
  ]);
  return { items: rows.map(toAccount), total: count?.total ?? 0 };
}
