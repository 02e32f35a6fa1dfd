/** Every per-radio state a deployment page counts (zod-free, for islands). */
export const shownStates = [
  "pending",
  "delivered",
  "applying",
  "applied",
  "failed",
  "rejected",
  "already_in_sync",
  "timed_out",
  "cancelled",
] as const;
export type ShownState = (typeof shownStates)[number];
