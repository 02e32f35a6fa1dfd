import { fallbackLanguage, isLanguage } from "@/schema/languages";
import { emailRecipients, insertDelivery, webhooksFor } from "../data/notifications";
import type { Env } from "../env";
import { translatorFor } from "../i18n/i18n";
import { sendMail } from "../mail/mailer";
import { resolveSettings } from "../settings";
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

/** Each recipient's mail in their own language (the fallback when they never chose one). */
async function mailEvent(env: Env, event: FleetEvent): Promise<void> {
  if (event.type === "webhook.test") return;
  const recipients = await emailRecipients(env.DB, event.accountId, event.orgId, event.type);
  const brand = resolveSettings(env).brandNamespace;
  for (const { email, language } of recipients) {
    const t = translatorFor(isLanguage(language) ? language : fallbackLanguage, brand);
    const what = String(t(`notifications.events.${event.type}`));
    const href = subjectHref(event);
    await sendMail(
      env,
      event.type.startsWith("command-batch.")
        ? batchMail(t, event, email, what, href)
        : {
            to: email,
            subject: String(t("notifications.mail.subject", { label: event.label, what })),
            body: String(t("notifications.mail.body", { label: event.label, what, href })),
          },
    );
  }
}

/** Where the mail's link leads: the batch page for a batch event, the deployment page otherwise. */
export function subjectHref(event: FleetEvent): string {
  const subject = encodeURIComponent(event.subjectId);
  const account = encodeURIComponent(event.accountId);
  if (event.type.startsWith("command-batch.")) {
    return event.accountId ? `/accounts/${account}/registry/devices/batches/${subject}` : `/devices/batches/${subject}`;
  }
  return `/accounts/${account}/deployments/${subject}`;
}

/** A batch's mail names its command type in the reader's language, and how many radios failed. */
function batchMail(t: ReturnType<typeof translatorFor>, event: FleetEvent, to: string, what: string, href: string) {
  const type = String(t(`commands.types.${event.label}`));
  const details = event.details ?? {};
  const failed = Number(details.failed ?? 0) + Number(details.expired ?? 0);
  const values = { type, what, href, failed, total: Number(details.total ?? 0) };
  return {
    to,
    subject: String(t("notifications.mail.batchSubject", values)),
    body: String(t("notifications.mail.batchBody", values)),
  };
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
