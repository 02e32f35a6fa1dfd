import { fallbackLanguage, isLanguage } from "@/schema/languages";
import { disableWebhook, findDelivery, findWebhook, organizationAdmins, recordAttempt } from "../data/notifications";
import type { Env } from "../env";
import { translatorFor } from "../i18n/i18n";
import { sendMail } from "../mail/mailer";
import { resolveSettings } from "../settings";
import type { QueueBatch, QueueMessage, WebhookMessage } from "./queue-types";
import { SIGNATURE_HEADER, signatureHeader } from "./signature";

/** Attempts per delivery before it counts as failed (the queue's max_retries is higher, as a net). */
export const MAX_ATTEMPTS = 6;
/** Consecutive deliveries that failed every attempt, after which the webhook turns itself off. */
export const DISABLE_AFTER_FAILURES = 5;
const TIMEOUT_MS = 10_000;

/** Backoff before attempt n+1: 30 s, 1 min, 2 min, 4 min … capped at one hour. */
export function backoffSeconds(attempts: number): number {
  return Math.min(3600, 30 * 2 ** Math.max(0, attempts - 1));
}

/** The queue consumer (worker.ts `queue`): one POST per message, retried with backoff. */
export async function deliverWebhooks(batch: QueueBatch<WebhookMessage>, env: Env): Promise<void> {
  for (const message of batch.messages) await deliverOne(message, env);
}

async function deliverOne(message: QueueMessage<WebhookMessage>, env: Env): Promise<void> {
  const delivery = await findDelivery(env.DB, message.body.deliveryId);
  const hook = delivery && (await findWebhook(env.DB, delivery.webhookId));
  // Deleted, turned off, or already done: nothing to send.
  if (!delivery || !hook?.enabled || delivery.status !== "pending") return message.ack();
  const { httpStatus, error } = await post(hook.url, hook.secret, delivery.body);
  if (error === null) {
    await recordAttempt(env.DB, delivery, { status: "delivered", httpStatus, error: null, failed: false });
    return message.ack();
  }
  const attempts = delivery.attempts + 1;
  const givingUp = attempts >= MAX_ATTEMPTS;
  const { consecutiveFailures } = await recordAttempt(env.DB, delivery, {
    status: givingUp ? "failed" : "pending",
    httpStatus,
    error,
    failed: givingUp,
  });
  if (givingUp && consecutiveFailures >= DISABLE_AFTER_FAILURES && (await disableWebhook(env.DB, hook.id))) {
    await tellAdmins(env, hook.orgId, hook.url, error);
    return message.ack();
  }
  if (givingUp) return message.ack();
  message.retry({ delaySeconds: backoffSeconds(attempts) });
}

async function post(url: string, secret: string, body: string): Promise<{ httpStatus: number | null; error: string | null }> {
  const timestamp = Math.floor(Date.now() / 1000);
  try {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", [SIGNATURE_HEADER]: await signatureHeader(secret, body, timestamp) },
      body,
      redirect: "manual",
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    // The body is not read beyond its start: a receiver's answer is not ours to keep.
    await response.body?.cancel();
    return response.ok
      ? { httpStatus: response.status, error: null }
      : { httpStatus: response.status, error: `HTTP ${response.status}` };
  } catch (error) {
    return { httpStatus: null, error: error instanceof Error ? error.message.slice(0, 300) : "request failed" };
  }
}

/** The organization's owners and admins hear that the webhook turned itself off, each in their language. */
async function tellAdmins(env: Env, orgId: string, url: string, lastError: string | null): Promise<void> {
  const brand = resolveSettings(env).brandNamespace;
  for (const { email, language } of await organizationAdmins(env.DB, orgId)) {
    const t = translatorFor(isLanguage(language) ? language : fallbackLanguage, brand);
    const values = { url, count: DISABLE_AFTER_FAILURES, error: lastError ?? "" };
    await sendMail(env, {
      to: email,
      subject: String(t("notifications.mail.webhookDisabledSubject")),
      body: String(t("notifications.mail.webhookDisabledBody", values)),
    });
  }
}
