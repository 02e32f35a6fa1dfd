/**
 * Subscriptions and allocations (DESIGN.md §3), as server and pages share them: the statuses,
 * the limits of the fields, and the status a person sees.
 */
export const subscriptionStatuses = ["active", "suspended", "cancelled"] as const;
export type SubscriptionStatus = (typeof subscriptionStatuses)[number];

/** What a list shows: "expired" is derived (an active subscription past its last day), never stored. */
export type EffectiveStatus = SubscriptionStatus | "expired";

export const subscriptionLimits = { planLength: 80, referenceLength: 80, maxSeats: 1_000_000 } as const;

/** Today as a calendar day in UTC (YYYY-MM-DD), the form dates are stored and compared in. */
export function today(now: Date = new Date()): string {
  return now.toISOString().slice(0, 10);
}

export function effectiveStatus(
  subscription: { status: SubscriptionStatus; endsAt: string | null },
  day = today(),
): EffectiveStatus {
  if (subscription.status === "active" && subscription.endsAt !== null && subscription.endsAt < day) return "expired";
  return subscription.status;
}
