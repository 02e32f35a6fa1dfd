import { emailRecipients, insertDelivery, webhooksFor } from "../data/notifications";
import type { Env } from "../env";
import { sendMail } from "../mail/mailer";
import type { FleetEvent } from "./events";
import type { WebhookQueue } from "./queue-types";

/**
 * Tells people and webhooks that something happened in the fleet (events.ts lists the names).
 * Mail goes to whoever chose the event for the account and still sees it; each webhook of the
 * account's organization (or an ancestor) that wants it gets a delivery row and a queue message.
 * Never throws: a notification that fails is logged, and the engine's request goes on.
 */
export async function fleetEvent(env: Env, event: FleetEvent): Promise<void> {
  try {
    await Promise.all([mailEvent(env, event), enqueueWebhooks(env, event)]);
  } catch (error) {
    console.error("fleet event not sent", event.type, error);
  }
}

/** The JSON every webhook receives for an event. */
export function eventBody(event: FleetEvent, id: string, at = new Date()): string {
  return JSON.stringify({
    id,
    type: event.type,
    createdAt: at.toISOString(),
    data: { accountId: event.accountId, subjectId: event.subjectId, label: event.label, ...(event.details ?? {}) },
  });
}

async function mailEvent(env: Env, event: FleetEvent): Promise<void> {
  if (event.type === "webhook.test") return;
  const recipients = await emailRecipients(env.DB, event.accountId, event.orgId, event.type);
  const details = Object.entries(event.details ?? {})
    .map(([key, value]) => `${key}: ${value ?? ""}`)
    .join("\n");
  for (const to of recipients) {
    await sendMail(env, {
      to,
      subject: `${event.label}: ${event.type}`,
      body: `${event.type}\n${event.label}\n${details}\n/accounts/${event.accountId}/deployments/${event.subjectId}`,
    });
  }
}

async function enqueueWebhooks(env: Env, event: FleetEvent): Promise<void> {
  const hooks = await webhooksFor(env.DB, event.orgId, event.type);
  for (const hook of hooks) await enqueueDelivery(env, hook.id, event);
}

/** One delivery of an event to one webhook: its log row, then its queue message. */
export async function enqueueDelivery(env: Env, webhookId: string, event: FleetEvent): Promise<string> {
  const id = crypto.randomUUID();
  const deliveryId = await insertDelivery(env.DB, webhookId, event.type, eventBody(event, id));
  const queue = env.WEBHOOK_QUEUE as WebhookQueue | undefined;
  if (queue) await queue.send({ deliveryId });
  else console.warn("no WEBHOOK_QUEUE binding: delivery stays pending", deliveryId);
  return deliveryId;
}
