import type { SubscriptionStatus } from "@/schema/subscriptions";
import { all, type Db, first, newId, now, statement } from "./db";

/** Seats given from a subscription to an account (DESIGN.md §3), with the names a screen shows. */
export type Allocation = {
  id: string;
  subscriptionId: string;
  accountId: string;
  accountName: string;
  accountOrgId: string;
  quantity: number;
  plan: string;
  subscriptionOrgId: string;
  subscriptionOrgName: string;
  subscriptionStatus: SubscriptionStatus;
  subscriptionEndsAt: string | null;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  subscription_id: string;
  account_id: string;
  account_name: string;
  account_org_id: string;
  quantity: number;
  plan: string;
  subscription_org_id: string;
  subscription_org_name: string;
  subscription_status: SubscriptionStatus;
  subscription_ends_at: string | null;
  updated_at: string;
  version: number;
};

const select = `SELECT al.id, al.subscription_id, al.account_id, acc.name AS account_name, acc.org_id AS account_org_id,
  al.quantity, s.plan, s.org_id AS subscription_org_id, o.name AS subscription_org_name, s.status AS subscription_status,
  s.ends_at AS subscription_ends_at, al.updated_at, al.version
  FROM allocations al
  JOIN accounts acc ON acc.id = al.account_id
  JOIN subscriptions s ON s.id = al.subscription_id
  JOIN organizations o ON o.id = s.org_id`;

function toAllocation(row: Row): Allocation {
  return {
    id: row.id,
    subscriptionId: row.subscription_id,
    accountId: row.account_id,
    accountName: row.account_name,
    accountOrgId: row.account_org_id,
    quantity: row.quantity,
    plan: row.plan,
    subscriptionOrgId: row.subscription_org_id,
    subscriptionOrgName: row.subscription_org_name,
    subscriptionStatus: row.subscription_status,
    subscriptionEndsAt: row.subscription_ends_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export async function findAllocation(db: Db, id: string): Promise<Allocation | null> {
  const row = await first<Row>(db, `${select} WHERE al.id = ?`, id);
  return row ? toAllocation(row) : null;
}

/** The accounts holding seats of one subscription, by account name. */
export async function listAllocationsOfSubscription(db: Db, subscriptionId: string): Promise<Allocation[]> {
  const rows = await all<Row>(
    db,
    `${select} WHERE al.subscription_id = ? ORDER BY acc.name COLLATE NOCASE, al.id LIMIT 1000`,
    subscriptionId,
  );
  return rows.map(toAllocation);
}

/** The seats of the accounts of one organization, whichever subscription they come from. */
export async function listAllocationsOfOrganization(db: Db, orgId: string): Promise<Allocation[]> {
  const rows = await all<Row>(
    db,
    `${select} WHERE acc.org_id = ? ORDER BY acc.name COLLATE NOCASE, acc.id, s.plan COLLATE NOCASE, al.id LIMIT 1000`,
    orgId,
  );
  return rows.map(toAllocation);
}

export async function listAllocationsOfAccount(db: Db, accountId: string): Promise<Allocation[]> {
  const rows = await all<Row>(db, `${select} WHERE al.account_id = ? ORDER BY s.plan COLLATE NOCASE, al.id`, accountId);
  return rows.map(toAllocation);
}

/**
 * Gives `quantity` more seats of a subscription to an account (a new row, or more seats on
 * the account's row), only while the subscription is active, not past its last day, and has
 * that many seats free. Check and write are ONE statement: D1 runs a database's writes one at
 * a time, so two people allocating at once cannot both see the same free seats; the second
 * statement simply changes nothing. Callers check `meta.changes` (0 = refused).
 */
export function allocateStatement(db: Db, input: { subscriptionId: string; accountId: string; quantity: number; today: string }) {
  const at = now();
  const id = newId("alc");
  const write = statement(
    db,
    `INSERT INTO allocations (id, subscription_id, account_id, quantity, created_at, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, ?5
     WHERE (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = ?2) + ?4
        <= (SELECT quantity FROM subscriptions WHERE id = ?2 AND status = 'active' AND (ends_at IS NULL OR ends_at >= ?6))
     ON CONFLICT (subscription_id, account_id)
     DO UPDATE SET quantity = quantity + excluded.quantity, updated_at = excluded.updated_at, version = version + 1`,
    id,
    input.subscriptionId,
    input.accountId,
    input.quantity,
    at,
    input.today,
  );
  // The id is the new row's; when the account already had seats, its row keeps its own id.
  return { id, statement: write };
}

/**
 * Sets an allocation still at `version` to `quantity`. Lowering always works; raising only
 * while the subscription is active, current and has the difference free. One statement, for
 * the same reason as allocateStatement.
 */
export function updateAllocationStatement(db: Db, input: { id: string; version: number; quantity: number; today: string }) {
  return statement(
    db,
    `UPDATE allocations SET quantity = ?1, updated_at = ?2, version = version + 1
     WHERE id = ?3 AND version = ?4 AND (
       ?1 <= quantity
       OR (SELECT COALESCE(SUM(o.quantity), 0) FROM allocations o WHERE o.subscription_id = allocations.subscription_id)
          - quantity + ?1
          <= (SELECT s.quantity FROM subscriptions s
              WHERE s.id = allocations.subscription_id AND s.status = 'active' AND (s.ends_at IS NULL OR s.ends_at >= ?5))
     )`,
    input.quantity,
    now(),
    input.id,
    input.version,
    input.today,
  );
}

/** Takes all of an account's seats of a subscription back (only at `version` when one is given). */
export function deallocateStatement(db: Db, id: string, version: number | null) {
  return version === null
    ? statement(db, "DELETE FROM allocations WHERE id = ?", id)
    : statement(db, "DELETE FROM allocations WHERE id = ? AND version = ?", id, version);
}

/** The account's allocation of a subscription, if it has one (one row per pair). */
export async function findAllocationOf(db: Db, subscriptionId: string, accountId: string): Promise<Allocation | null> {
  const row = await first<Row>(db, `${select} WHERE al.subscription_id = ? AND al.account_id = ?`, subscriptionId, accountId);
  return row ? toAllocation(row) : null;
}
