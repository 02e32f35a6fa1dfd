import type { Context } from "hono";
import { countHit } from "../data/sign-in-guards";
import type { AppEnv } from "../env";
import { clientAddress } from "./client-address";

/**
 * Per-address limits (DESIGN.md §5), counted in D1 (the Rate Limiting binding is approximate):
 * `limit` hits per sliding `windowSeconds` for each address and action (countHit).
 * Generous enough for an office behind one NAT address; guessing one account's password is
 * stopped by the per-account lockout, guessing many by these.
 */
export const throttleLimits = {
  "sign-in": { limit: 100, windowSeconds: 600 },
  "code-send": { limit: 20, windowSeconds: 600 },
  "code-verify": { limit: 100, windowSeconds: 600 },
  "password-reset": { limit: 20, windowSeconds: 3600 },
  // Passkey sign-in starts and verifications together; the sign-in page starts one per visit.
  passkey: { limit: 200, windowSeconds: 600 },
  // Single sign-on starts (each stores a login state and asks the provider for its metadata).
  "single-sign-on": { limit: 60, windowSeconds: 600 },
} as const;

export type ThrottledAction = keyof typeof throttleLimits;

/** Counts this request; false once the address is over its limit for the action. */
export async function withinLimit(c: Context<AppEnv>, action: ThrottledAction, at = Date.now()): Promise<boolean> {
  const { limit, windowSeconds } = throttleLimits[action];
  return (await countHit(c.env.DB, `${action}:${clientAddress(c)}`, at, windowSeconds)) <= limit;
}
