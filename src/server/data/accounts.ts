import { parseStoredNetworkConfig, type StoredNetworkConfig } from "@/schema/network-config";
import { all, type Db, first, newId, now, statement } from "./db";

export type SubscriptionLevel = "essential" | "advanced";

/** An account as spec §3 names it (`_id`), plus what DESIGN.md §3 adds. */
export type Account = {
  _id: string;
  orgId: string;
  name: string;
  subscriptionLevel: SubscriptionLevel;
  timezone: string;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  org_id: string;
  name: string;
  subscription_level: SubscriptionLevel;
  timezone: string;
  updated_at: string;
  version: number;
};

const columns = "id, org_id, name, subscription_level, timezone, updated_at, version";

function toAccount(row: Row): Account {
  return {
    _id: row.id,
    orgId: row.org_id,
    name: row.name,
    subscriptionLevel: row.subscription_level,
    timezone: row.timezone,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

/** The organizations below and including `orgId`, as a SQL fragment for `org_id IN (…)`. */
const orgTree = `WITH RECURSIVE tree(id) AS (
  SELECT id FROM organizations WHERE id = ?
  UNION ALL SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id)`;

function likePattern(search: string): string {
  return `%${search.replaceAll("\\", "\\\\").replaceAll("%", "\\%").replaceAll("_", "\\_")}%`;
}

export async function findAccount(db: Db, id: string): Promise<Account | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM accounts WHERE id = ?`, id);
  return row ? toAccount(row) : null;
}

export type AccountSort = "name" | "-name" | "updated" | "-updated" | "level" | "-level";

/**
 * Orders for the list. Ties are broken by rowid rather than id: the (org_id, name) index holds
 * the rowid, so sorting by name needs nothing but the index.
 */
const orderBy: Record<AccountSort, string> = {
  name: "name COLLATE NOCASE ASC, rowid",
  "-name": "name COLLATE NOCASE DESC, rowid",
  updated: "updated_at ASC, rowid",
  "-updated": "updated_at DESC, rowid",
  // Levels in their order (essential, then advanced), not alphabetically.
  level: "subscription_level = 'advanced' ASC, name COLLATE NOCASE, rowid",
  "-level": "subscription_level = 'advanced' DESC, name COLLATE NOCASE, rowid",
};

/**
 * One page of the accounts of an organization and, by default, of its descendants, with the
 * total for the pager. The page is chosen first among rowids (from the (org_id, name) index
 * alone when sorting by name), then only its 25 or so rows are read, not every row up to the
 * offset (figures for 10,000 accounts: tests/worker/accounts-scale.test.ts).
 */
export async function listAccounts(
  db: Db,
  {
    orgId,
    includeDescendants = true,
    search = "",
    sort = "name",
    limit = 50,
    offset = 0,
  }: { orgId: string; includeDescendants?: boolean; search?: string; sort?: AccountSort; limit?: number; offset?: number },
): Promise<{ items: Account[]; total: number }> {
  const tree = includeDescendants ? `${orgTree}, ` : "WITH ";
  const where = includeDescendants ? "org_id IN (SELECT id FROM tree)" : "org_id = ?";
  const pattern = likePattern(search.trim());
  const [rows, count] = await Promise.all([
    all<Row>(
      db,
      `${tree}page AS (
         SELECT rowid AS row FROM accounts WHERE ${where} AND name LIKE ? ESCAPE '\\' ORDER BY ${orderBy[sort]} LIMIT ? OFFSET ?)
       SELECT ${columns} FROM accounts WHERE rowid IN (SELECT row FROM page) ORDER BY ${orderBy[sort]}`,
      orgId,
      pattern,
      limit,
      offset,
    ),
    first<{ total: number }>(
      db,
      `${includeDescendants ? `${orgTree} ` : ""}SELECT count(*) AS total FROM accounts WHERE ${where} AND name LIKE ? ESCAPE '\\'`,
      orgId,
      pattern,
    ),
  ]);
  return { items: rows.map(toAccount), total: count?.total ?? 0 };
}

/** The light list the account switcher searches: id and name, by name. */
export async function listAccountNames(
  db: Db,
  { rootOrgId, search = "", limit = 20 }: { rootOrgId: string; search?: string; limit?: number },
) {
  return all<{ id: string; name: string }>(
    db,
    `${orgTree} SELECT id, name FROM accounts WHERE org_id IN (SELECT id FROM tree) AND name LIKE ? ESCAPE '\\'
     ORDER BY name COLLATE NOCASE, id LIMIT ?`,
    rootOrgId,
    likePattern(search.trim()),
    limit,
  );
}

/** One organization's own accounts (id and name, by name), for choosing where radios go. */
export async function listOrgAccounts(db: Db, orgId: string, limit: number) {
  return all<{ id: string; name: string }>(
    db,
    "SELECT id, name FROM accounts WHERE org_id = ? ORDER BY name COLLATE NOCASE, id LIMIT ?",
    orgId,
    limit,
  );
}

export function insertAccountStatement(
  db: Db,
  input: { orgId: string; name: string; subscriptionLevel: SubscriptionLevel; timezone: string },
) {
  const id = newId("acc");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO accounts (id, org_id, name, subscription_level, timezone) VALUES (?, ?, ?, ?, ?)",
      id,
      input.orgId,
      input.name,
      input.subscriptionLevel,
      input.timezone,
    ),
  };
}

/**
 * Updates the general fields if the row is still at `version` (no lost updates). The
 * statement changes no row when someone else saved first; callers check `changes`.
 */
export function updateAccountStatement(
  db: Db,
  input: { id: string; version: number; name: string; subscriptionLevel: SubscriptionLevel; timezone: string },
) {
  return statement(
    db,
    `UPDATE accounts SET name = ?, subscription_level = ?, timezone = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND version = ?`,
    input.name,
    input.subscriptionLevel,
    input.timezone,
    now(),
    input.id,
    input.version,
  );
}

export function deleteAccountStatement(db: Db, id: string, version: number) {
  return statement(db, "DELETE FROM accounts WHERE id = ? AND version = ?", id, version);
}

export async function findAccountNetworkConfig(db: Db, id: string): Promise<StoredNetworkConfig> {
  const row = await first<{ network_config: string }>(db, "SELECT network_config FROM accounts WHERE id = ?", id);
  return parseStoredNetworkConfig(row?.network_config ?? null);
}

export function updateAccountNetworkConfigStatement(db: Db, input: { id: string; version: number; config: StoredNetworkConfig }) {
  return statement(
    db,
    "UPDATE accounts SET network_config = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
    JSON.stringify(input.config),
    now(),
    input.id,
    input.version,
  );
}
