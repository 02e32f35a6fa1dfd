import { type DeploymentState, type ReportState, terminalStates } from "./deployment-plan";
import { type DeploymentTarget, inTarget, type TargetRadio } from "./deployment-target";
import { BUCKETS, bucketRange } from "./rollout";

/**
 * Which deployment a radio should follow (DESIGN.md §7): the newest one whose decision covers
 * it. What a radio is told is a function of the decisions made, never of which radios happened
 * to report — except that a radio that reported on a deployment has started it and keeps it:
 * - running: the radios of its opened phases (of a paced phase, those offered so far);
 * - finished: every radio (all its phases opened);
 * - superseded: the radios of the phases it had opened when a newer one replaced it, if it was
 *   running then (not paused, not still scheduled): outside the newer one's open phases a radio
 *   keeps the last revision it was given, never an older one;
 * - paused or cancelled: no new radio starts, so only the radios that reported;
 * - scheduled: nobody yet.
 * In each case only the radios its target holds now (deployment-target.ts); a radio that
 * reported on it keeps it whatever its target says since.
 */
export type DeploymentForRadio = {
  id: string;
  state: DeploymentState;
  phaseIndex: number;
  shares: readonly number[];
  /** When it first ran (null: it never ran). */
  startedAt: string | null;
  /** Why it is (or was, when superseded) paused; null while it runs. */
  pauseReason: string | null;
  /** The radios it is for (null: every radio of the account). */
  target: DeploymentTarget | null;
  /** A paced phase: the buckets offered so far, [0, pacedTo) (null: the opened phases whole). */
  pacedTo: number | null;
};

export function phaseOfBucket(shares: readonly number[], bucket: number): number {
  for (let i = 0; i < shares.length; i++) if (bucket < bucketRange(shares, i).to) return i;
  return shares.length - 1;
}

/** The buckets [0, to) a deployment's decision gives its revision to, whatever radios reported. */
export function decidedBuckets(deployment: DeploymentForRadio): number {
  const opened = Math.min(bucketRange(deployment.shares, deployment.phaseIndex).to, deployment.pacedTo ?? BUCKETS);
  switch (deployment.state) {
    case "finished":
      return bucketRange(deployment.shares, deployment.shares.length - 1).to;
    case "running":
      return opened;
    case "superseded":
      return deployment.startedAt !== null && deployment.pauseReason === null ? opened : 0;
    default:
      return 0;
  }
}

export function includes(
  deployment: DeploymentForRadio,
  radio: TargetRadio,
  reports: ReadonlyMap<string, { state: ReportState }>,
): boolean {
  if (reports.has(deployment.id)) return true;
  return radio.bucket < decidedBuckets(deployment) && inTarget(deployment.target, radio, (id) => reports.get(id)?.state);
}

/** Newest first in, the one to follow (or null: keep what it has). */
export function desiredDeployment<D extends DeploymentForRadio>(
  newestFirst: readonly D[],
  radio: TargetRadio,
  reports: ReadonlyMap<string, { state: ReportState }>,
): D | null {
  for (const deployment of newestFirst) {
    if (deployment.state === "scheduled") continue;
    if (includes(deployment, radio, reports)) return deployment;
  }
  return null;
}

export function isFinal(state: ReportState): boolean {
  return terminalStates.includes(state);
}
