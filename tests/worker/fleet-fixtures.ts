import { env } from "cloudflare:test";

/**
 * Radios for the fleet tests, written straight into devices (the devices issue owns the
 * screens that register them). One secret per batch keeps 100,000-radio fleets quick to make.
 */
export const RADIO_SECRET = "a".repeat(64);

export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(text));
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** Seats for an account: a subscription of its organization and an allocation. */
export async function giveSeats(orgId: string, accountId: string, quantity: number): Promise<void> {
  const subscription = `sub_${crypto.randomUUID().slice(0, 12)}`;
  await env.DB.batch([
    env.DB.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES (?, ?, 'Fleet', ?, '2025-01-01')",
    ).bind(subscription, orgId, quantity),
    env.DB.prepare("INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES (?, ?, ?, ?)").bind(
      `alc_${crypto.randomUUID().slice(0, 12)}`,
      subscription,
      accountId,
      quantity,
    ),
  ]);
}

/** `count` radios named `<prefix>-000001`…, assigned to the account, all with RADIO_SECRET. */
export async function registerRadios(orgId: string, accountId: string, prefix: string, count: number): Promise<string[]> {
  const hash = await sha256Hex(RADIO_SECRET);
  await env.DB.prepare(
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
     INSERT INTO devices (uid, org_id, account_id, brand, model, secret_hash)
     SELECT ? || '-' || printf('%06d', i), ?, ?, 'Northwind', 'NW-400', ? FROM n`,
  )
    .bind(count, prefix, orgId, accountId, hash)
    .run();
  return Array.from({ length: count }, (_, i) => `${prefix}-${String(i + 1).padStart(6, "0")}`);
}

export function bearer(uid: string, secret = RADIO_SECRET): string {
  return `Bearer ${uid}:${secret}`;
}
