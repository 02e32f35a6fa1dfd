import type { EventName } from "../notifications/events";
import { all, type Db, first, newId, statement } from "./db";

/** Email preferences and webhooks (migration 0033, issue 25). */
export type Webhook = {
  id: string;
  orgId: string;
  url: string;
  events: EventName[];
  secret: string;
  enabled: boolean;
  consecutiveFailures: number;
  disabledAt: string | null;
};

type WebhookRow = {
  id: string;
  org_id: string;
  url: string;
  events: string;
  secret: string;
  enabled: number;
  consecutive_failures: number;
  disabled_at: string | null;
};

function webhookOf(row: WebhookRow): Webhook {
  return {
    id: row.id,
    orgId: row.org_id,
    url: row.url,
    events: JSON.parse(row.events) as EventName[],
    secret: row.secret,
    enabled: row.enabled === 1,
    consecutiveFailures: row.consecutive_failures,
    disabledAt: row.disabled_at,
  };
}

const webhookColumns = "id, org_id, url, events, secret, enabled, consecutive_failures, disabled_at";

export async function insertWebhook(db: Db, input: { orgId: string; url: string; events: EventName[]; secret: string }) {
  const id = newId("wh");
  await insertWebhookStatement(db, id, input).run();
  return id;
}

export function insertWebhookStatement(
  db: Db,
  id: string,
  input: { orgId: string; url: string; events: EventName[]; secret: string },
) {
  return statement(
    db,
    "INSERT INTO webhooks (id, org_id, url, events, secret, created_at) VALUES (?, ?, ?, ?, ?, ?)",
    id,
    input.orgId,
    input.url,
    JSON.stringify(input.events),
    input.secret,
    new Date().toISOString(),
  );
}

/** An organization's webhooks, without their secrets. */
export async function listWebhooks(db: Db, orgId: string): Promise<Omit<Webhook, "secret">[]> {
  const rows = await all<WebhookRow>(
    db,
    `SELECT ${webhookColumns} FROM webhooks WHERE org_id = ? ORDER BY created_at, id`,
    orgId,
  );
  return rows.map(({ secret: _secret, ...row }) => {
    const { secret: _s, ...hook } = webhookOf({ ...row, secret: "" });
    return hook;
  });
}

export function deleteWebhookStatement(db: Db, id: string) {
  return statement(db, "DELETE FROM webhooks WHERE id = ?", id);
}

export async function findWebhook(db: Db, id: string): Promise<Webhook | null> {
  const row = await first<WebhookRow>(db, `SELECT ${webhookColumns} FROM webhooks WHERE id = ?`, id);
  return row ? webhookOf(row) : null;
}

/** The enabled webhooks that want this event: of the account's organization and its ancestors. */
export async function webhooksFor(db: Db, orgId: string, event: EventName): Promise<Webhook[]> {
  const rows = await all<WebhookRow>(
    db,
    `SELECT ${webhookColumns} FROM webhooks
      WHERE enabled = 1 AND org_id IN (SELECT ancestor_id FROM organization_ancestors WHERE org_id = ?)
        AND EXISTS (SELECT 1 FROM json_each(webhooks.events) WHERE value = ?)`,
    orgId,
    event,
  );
  return rows.map(webhookOf);
}

export type Delivery = {
  id: string;
  webhookId: string;
  event: string;
  body: string;
  status: "pending" | "delivered" | "failed";
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  updatedAt: string;
};

export async function insertDelivery(db: Db, webhookId: string, event: EventName, body: string): Promise<string> {
  const id = newId("whd");
  const at = new Date().toISOString();
  await statement(
    db,
    "INSERT INTO webhook_deliveries (id, webhook_id, event, body, status, created_at, updated_at) VALUES (?, ?, ?, ?, 'pending', ?, ?)",
    id,
    webhookId,
    event,
    body,
    at,
    at,
  ).run();
  return id;
}

export async function findDelivery(db: Db, id: string): Promise<Delivery | null> {
  return first<Delivery>(
    db,
    `SELECT id, webhook_id AS webhookId, event, body, status, attempts, last_status AS lastStatus,
            last_error AS lastError, updated_at AS updatedAt FROM webhook_deliveries WHERE id = ?`,
    id,
  );
}

/** The delivery log of a webhook, newest first. */
export async function listDeliveries(db: Db, webhookId: string, limit = 50): Promise<Delivery[]> {
  return all<Delivery>(
    db,
    `SELECT id, webhook_id AS webhookId, event, body, status, attempts, last_status AS lastStatus,
            last_error AS lastError, updated_at AS updatedAt
       FROM webhook_deliveries WHERE webhook_id = ? ORDER BY created_at DESC, id DESC LIMIT ?`,
    webhookId,
    limit,
  );
}

/**
 * One attempt's outcome on the delivery, and the webhook's run of consecutive failed deliveries:
 * `failed` (the delivery gave up) adds one, a delivered one resets it, a retry leaves it.
 */
export async function recordAttempt(
  db: Db,
  delivery: Pick<Delivery, "id" | "webhookId">,
  outcome: { status: Delivery["status"]; httpStatus: number | null; error: string | null; failed: boolean },
): Promise<{ consecutiveFailures: number }> {
  const at = new Date().toISOString();
  const [, , after] = await db.batch([
    statement(
      db,
      "UPDATE webhook_deliveries SET status = ?, attempts = attempts + 1, last_status = ?, last_error = ?, updated_at = ? WHERE id = ?",
      outcome.status,
      outcome.httpStatus,
      outcome.error,
      at,
      delivery.id,
    ),
    statement(
      db,
      `UPDATE webhooks SET consecutive_failures = CASE WHEN ? = 'delivered' THEN 0 WHEN ? THEN consecutive_failures + 1
         ELSE consecutive_failures END WHERE id = ?`,
      outcome.status,
      outcome.failed ? 1 : 0,
      delivery.webhookId,
    ),
    statement(db, "SELECT consecutive_failures FROM webhooks WHERE id = ?", delivery.webhookId),
  ]);
  const row = (after?.results?.[0] ?? null) as { consecutive_failures: number } | null;
  return { consecutiveFailures: row?.consecutive_failures ?? 0 };
}

/** Turns the webhook off (once: answers whether this call did it). */
export async function disableWebhook(db: Db, id: string): Promise<boolean> {
  const result = await statement(
    db,
    "UPDATE webhooks SET enabled = 0, disabled_at = ?, version = version + 1 WHERE id = ? AND enabled = 1",
    new Date().toISOString(),
    id,
  ).run();
  return (result.meta.changes ?? 0) > 0;
}

/** Turns a webhook on again with a clean slate of failures (once: answers whether this call did it). */
export function enableWebhookStatement(db: Db, id: string) {
  return statement(
    db,
    "UPDATE webhooks SET enabled = 1, disabled_at = NULL, consecutive_failures = 0, version = version + 1 WHERE id = ? AND enabled = 0",
    id,
  );
}

/** The people to mail about an event of an account: they chose it and still see the account. */
export async function emailRecipients(
  db: Db,
  accountId: string,
  orgId: string,
  event: EventName,
): Promise<{ email: string; language: string | null }[]> {
  return all<{ email: string; language: string | null }>(
    db,
    `SELECT u.email, u.language FROM notification_preferences p JOIN users u ON u.id = p.user_id
      WHERE p.account_id = ? AND p.event = ? AND u.status = 'active'
        AND u.org_id IN (SELECT ancestor_id FROM organization_ancestors WHERE org_id = ?)
      ORDER BY u.email`,
    accountId,
    event,
    orgId,
  );
}

/** A user's chosen events for an account. */
export async function preferencesOf(db: Db, userId: string, accountId: string): Promise<EventName[]> {
  const rows = await all<{ event: EventName }>(
    db,
    "SELECT event FROM notification_preferences WHERE user_id = ? AND account_id = ? ORDER BY event",
    userId,
    accountId,
  );
  return rows.map((r) => r.event);
}

/** Replaces a user's chosen events for an account. */
export async function setPreferences(db: Db, userId: string, accountId: string, events: EventName[]): Promise<void> {
  await db.batch(setPreferencesStatements(db, userId, accountId, events));
}

export function setPreferencesStatements(db: Db, userId: string, accountId: string, events: EventName[]) {
  return [
    statement(db, "DELETE FROM notification_preferences WHERE user_id = ? AND account_id = ?", userId, accountId),
    ...events.map((event) =>
      statement(
        db,
        "INSERT INTO notification_preferences (user_id, account_id, event) VALUES (?, ?, ?)",
        userId,
        accountId,
        event,
      ),
    ),
  ];
}

/** The addresses of the organization's active owners and admins (told when a webhook is turned off). */
export async function organizationAdmins(db: Db, orgId: string): Promise<{ email: string; language: string | null }[]> {
  return all<{ email: string; language: string | null }>(
    db,
    "SELECT email, language FROM users WHERE org_id = ? AND status = 'active' AND role IN ('owner', 'admin') ORDER BY email",
    orgId,
  );
}
