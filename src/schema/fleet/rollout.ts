/**
 * Rollout buckets (DESIGN.md §7): a stable hash of a radio's uid into 10,000 buckets. The same
 * polynomial as the generated column devices.rollout_bucket (migrations/0013), so the command
 * line simulator and benchmarks can tell which phase a radio falls in without asking.
 */
export const BUCKETS = 10_000;

export function bucketOf(uid: string): number {
  let hash = 0;
  for (let i = 0; i < 64; i++) hash = (hash * 131 + (i < uid.length ? uid.charCodeAt(i) : 0)) % 1_000_003;
  return hash % BUCKETS;
}

/** The buckets [from, to) a phase with cumulative share `percent` opens after the one before it. */
export function bucketRange(shares: readonly number[], phase: number): { from: number; to: number } {
  const from = phase === 0 ? 0 : Math.round(((shares[phase - 1] ?? 0) * BUCKETS) / 100);
  const to = Math.round(((shares[phase] ?? 100) * BUCKETS) / 100);
  return { from, to };
}
