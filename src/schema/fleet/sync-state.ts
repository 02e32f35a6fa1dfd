/**
 * A radio's state has two dimensions (DESIGN.md §7), shown alike on every screen, report, CSV
 * and API:
 * - sync: does it run what it was told? drifted (it reports a revision no deployment of its
 *   account made), never deployed (no deployment gives it anything), failed (it failed or
 *   rejected the deployment it follows), in sync (it reports that deployment's revision),
 *   pending (the rest: on its way);
 * - contact: seen recently, overdue (no check-in within the expected interval), never seen.
 * The SQL twin of `syncOf` is data/fleet-sync.ts; a model-based test holds them equal.
 */
export const syncStates = ["inSync", "pending", "failed", "drifted", "neverDeployed"] as const;
export type SyncState = (typeof syncStates)[number];

export const contactStates = ["recent", "overdue", "neverSeen"] as const;
export type ContactState = (typeof contactStates)[number];

/**
 * Overdue: no contact for the contact resolution (stored last-seen may be 15 minutes behind the
 * radio's last check-in, data/device-checkins.ts) plus three poll intervals: 30 minutes.
 */
export const OVERDUE_AFTER_MS = 15 * 60_000 + 3 * 5 * 60_000;

export function isSyncState(value: unknown): value is SyncState {
  return typeof value === "string" && (syncStates as readonly string[]).includes(value);
}

export function isContactState(value: unknown): value is ContactState {
  return typeof value === "string" && (contactStates as readonly string[]).includes(value);
}

export function syncOf(input: {
  /** The revision of the deployment the radio follows (null: none gives it anything). */
  desiredRevisionId: string | null;
  /** It reported failed or rejected on that deployment. */
  desiredFailed: boolean;
  reportedRevisionId: string | null;
  /** The reported revision is one of its account's. */
  reportedIsOurs: boolean;
}): SyncState {
  if (input.reportedRevisionId && !input.reportedIsOurs) return "drifted";
  if (!input.desiredRevisionId) return "neverDeployed";
  if (input.desiredFailed) return "failed";
  return input.reportedRevisionId === input.desiredRevisionId ? "inSync" : "pending";
}

/** The instant before which a last check-in counts as overdue. */
export function overdueBefore(now: Date): string {
  return new Date(now.getTime() - OVERDUE_AFTER_MS).toISOString();
}

export function contactOf(lastSeenAt: string | null, now: Date): ContactState {
  if (!lastSeenAt) return "neverSeen";
  return lastSeenAt < overdueBefore(now) ? "overdue" : "recent";
}

export type SyncCounts = {
  total: number;
  sync: Record<SyncState, number>;
  contact: Record<ContactState, number>;
  /** When a large account's snapshot was counted (data/sync-snapshots.ts); absent or null: now. */
  asOf?: string | null;
};

export function emptySyncCounts(): SyncCounts {
  return {
    total: 0,
    sync: Object.fromEntries(syncStates.map((s) => [s, 0])) as Record<SyncState, number>,
    contact: Object.fromEntries(contactStates.map((s) => [s, 0])) as Record<ContactState, number>,
  };
}
