import type { SubscriptionStatus } from "@/schema/subscriptions";
import { all, type Db, first, newId, now, statement } from "./db";
import { type Cursor, cappedCount, type Page, type PageRequest, pageOf, type Total, totalOf } from "./keyset";

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

/** Three keys: a cursor of any other length is not one of ours. */
export const SUBSCRIPTION_CURSOR_ARITY = 3;

type Keyed = Row & { sort_plan: string };

/**
 * One page of an organization's own subscriptions in their visible order (newest period first,
 * then plan A–Z, then id), by cursor (DESIGN.md §8), with a count capped at COUNT_CAP; rows and
 * count in one batch. The order mixes directions, so the page's start is the lexicographic
 * comparison written out — `starts_at < ? OR (starts_at = ? AND (plan, id) > (?, ?))` — which
 * the index subscriptions_org_listed (migration 0022) answers in the same order.
 */
export async function listSubscriptionsPage(
  db: Db,
  orgId: string,
  { cursor, limit }: { cursor: Cursor | null; limit: number },
): Promise<Page<Subscription> & { total: Total }> {
  const backwards = cursor?.direction === "before";
  const [later, earlier] = backwards ? [">", "<"] : ["<", ">"];
  const where = cursor
    ? `(s.starts_at ${later} ?1 OR (s.starts_at = ?1 AND (s.plan COLLATE NOCASE, s.id) ${earlier} (?2, ?3)))`
    : "1";
  const orderBy = backwards
    ? "s.starts_at ASC, s.plan COLLATE NOCASE DESC, s.id DESC"
    : "s.starts_at DESC, s.plan COLLATE NOCASE ASC, s.id ASC";
  const request: PageRequest = { where, orderBy, params: cursor?.values ?? [], limit: limit + 1, cursor };
  const [rows, counted] = await db.batch<Keyed | { total: number }>([
    statement(
      db,
      `SELECT ${columns}, s.plan AS sort_plan FROM subscriptions s
       WHERE ${where} AND s.org_id = ?4 ORDER BY ${orderBy} LIMIT ?5`,
      ...(cursor ? cursor.values : [null, null, null]),
      orgId,
      request.limit,
    ),
    statement(db, cappedCount("SELECT 1 FROM subscriptions WHERE org_id = ?"), orgId),
  ]);
  const page = pageOf((rows?.results ?? []) as Keyed[], request, (row) => [row.starts_at, row.sort_plan, row.id], toSubscription);
  return { ...page, total: totalOf((counted?.results[0] as { total: number } | undefined)?.total) };
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
