import type { SubscriptionStatus } from "@/schema/subscriptions";
import { all, type Db, first, newId, now, statement } from "./db";

/** An organization's seats (DESIGN.md §3), with how many of them are given out to accounts. */
export type Subscription = {
  id: string;
  orgId: string;
  plan: string;
  quantity: number;
  /** YYYY-MM-DD (UTC). */
  startsAt: string;
  /** The last day (YYYY-MM-DD), or null for no end. */
  endsAt: string | null;
  status: SubscriptionStatus;
  reference: string;
  /** Seats allocated to accounts: never more than quantity. */
  allocated: number;
  createdAt: string;
  updatedAt: string;
  version: number;
};

export type SubscriptionFields = Pick<Subscription, "plan" | "quantity" | "startsAt" | "endsAt" | "status" | "reference">;

type Row = {
  id: string;
  org_id: string;
  plan: string;
  quantity: number;
  starts_at: string;
  ends_at: string | null;
  status: SubscriptionStatus;
  reference: string;
  allocated: number;
  created_at: string;
  updated_at: string;
  version: number;
};

const columns = `s.id, s.org_id, s.plan, s.quantity, s.starts_at, s.ends_at, s.status, s.reference, s.created_at, s.updated_at,
  s.version, (SELECT COALESCE(SUM(a.quantity), 0) FROM allocations a WHERE a.subscription_id = s.id) AS allocated`;

function toSubscription(row: Row): Subscription {
  return {
    id: row.id,
    orgId: row.org_id,
    plan: row.plan,
    quantity: row.quantity,
    startsAt: row.starts_at,
    endsAt: row.ends_at,
    status: row.status,
    reference: row.reference,
    allocated: row.allocated,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export async function findSubscription(db: Db, id: string): Promise<Subscription | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM subscriptions s WHERE s.id = ?`, id);
  return row ? toSubscription(row) : null;
}

/** An organization's own subscriptions, newest period first. */
export async function listSubscriptions(db: Db, orgId: string): Promise<Subscription[]> {
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM subscriptions s WHERE s.org_id = ? ORDER BY s.starts_at DESC, s.plan COLLATE NOCASE, s.id LIMIT 500`,
    orgId,
  );
  return rows.map(toSubscription);
}

/**
 * The subscriptions an account of `orgId` may draw seats from: those of `orgId` and of its
 * ancestors up to `scopeRootId` (the caller's organization; nothing above it is visible).
 */
export async function listSubscriptionsAbove(db: Db, orgId: string, scopeRootId: string): Promise<Subscription[]> {
  const rows = await all<Row>(
    db,
    `WITH RECURSIVE ancestry(id, parent_id, depth) AS (
       SELECT id, parent_id, 0 FROM organizations WHERE id = ?
       UNION ALL
       SELECT o.id, o.parent_id, a.depth + 1 FROM organizations o JOIN ancestry a ON o.id = a.parent_id WHERE a.id <> ?
     )
     SELECT ${columns} FROM subscriptions s JOIN ancestry ON ancestry.id = s.org_id
     WHERE EXISTS (SELECT 1 FROM ancestry WHERE id = ?)
     ORDER BY ancestry.depth, s.starts_at DESC, s.plan COLLATE NOCASE, s.id LIMIT 500`,
    orgId,
    scopeRootId,
    scopeRootId,
  );
  return rows.map(toSubscription);
}

export function insertSubscriptionStatement(db: Db, input: SubscriptionFields & { orgId: string }) {
  const id = newId("sub");
  const at = now();
  return {
    id,
    statement: statement(
      db,
      `INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at, ends_at, status, reference, created_at, updated_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      input.orgId,
      input.plan,
      input.quantity,
      input.startsAt,
      input.endsAt,
      input.status,
      input.reference,
      at,
      at,
    ),
  };
}

/**
 * Updates a subscription still at `version`, and only if its new quantity still covers the
 * seats given out. One statement: D1 runs a database's writes one at a time, so no
 * allocation can slip in between the check and the write. It changes no row when someone
 * saved first or the quantity is too low; the caller tells which by reading again.
 */
export function updateSubscriptionStatement(db: Db, input: SubscriptionFields & { id: string; version: number }) {
  return statement(
    db,
    `UPDATE subscriptions
     SET plan = ?1, quantity = ?2, starts_at = ?3, ends_at = ?4, status = ?5, reference = ?6, updated_at = ?7, version = version + 1
     WHERE id = ?8 AND version = ?9
       AND ?2 >= (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = ?8)`,
    input.plan,
    input.quantity,
    input.startsAt,
    input.endsAt,
    input.status,
    input.reference,
    now(),
    input.id,
    input.version,
  );
}

/** Removes a subscription still at `version` that has no seats given out (one statement, as above). */
export function deleteSubscriptionStatement(db: Db, id: string, version: number) {
  return statement(
    db,
    `DELETE FROM subscriptions WHERE id = ?1 AND version = ?2 AND NOT EXISTS (SELECT 1 FROM allocations WHERE subscription_id = ?1)`,
    id,
    version,
  );
}
