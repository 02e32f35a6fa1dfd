import { storeMail } from "../data/mail-outbox";
import type { Env } from "../env";

export type MailMessage = { to: string; subject: string; body: string };

/**
 * Sends mail through the transport the configuration names (MAIL_TRANSPORT):
 * - "outbox" (the default): kept in D1; the local demo's /mailbox page shows it.
 * - "http": POSTed as JSON {from, to, subject, text} with a bearer key to MAIL_API_URL
 *   (the shape of common transactional-mail APIs).
 */
export async function sendMail(env: Env, message: MailMessage): Promise<void> {
  if (env.MAIL_TRANSPORT === "http") {
    if (!env.MAIL_API_URL || !env.MAIL_FROM) throw new Error("MAIL_API_URL and MAIL_FROM must be set for the http transport");
    const response = await fetch(env.MAIL_API_URL, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${env.MAIL_API_KEY ?? ""}` },
      body: JSON.stringify({ from: env.MAIL_FROM, to: message.to, subject: message.subject, text: message.body }),
    });
    if (!response.ok) throw new Error(`mail API answered ${response.status}`);
    return;
  }
  await storeMail(env.DB, message);
}
