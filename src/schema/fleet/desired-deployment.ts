import { type DeploymentState, type ReportState, terminalStates } from "./deployment-plan";
import { bucketRange } from "./rollout";

/**
 * Which deployment a radio should follow (DESIGN.md §7): the newest one that includes it.
 * Running and finished ones include the radios of their opened phases; a paused one only the
 * radios already under way (no new radio starts); a cancelled or superseded one only radios
 * that reported (finished radios keep their state, radios that had not started never do).
 */
export type DeploymentForRadio = {
  id: string;
  state: DeploymentState;
  phaseIndex: number;
  shares: readonly number[];
};

export function phaseOfBucket(shares: readonly number[], bucket: number): number {
  for (let i = 0; i < shares.length; i++) if (bucket < bucketRange(shares, i).to) return i;
  return shares.length - 1;
}

export function includes(deployment: DeploymentForRadio, bucket: number, report: ReportState | undefined): boolean {
  if (report) return true;
  if (deployment.state === "finished") return true;
  if (deployment.state !== "running") return false;
  return bucket < bucketRange(deployment.shares, deployment.phaseIndex).to;
}

/** Newest first in, the one to follow (or null: keep what it has). */
export function desiredDeployment<D extends DeploymentForRadio>(
  newestFirst: readonly D[],
  bucket: number,
  reports: ReadonlyMap<string, { state: ReportState }>,
): D | null {
  for (const deployment of newestFirst) {
    if (deployment.state === "scheduled") continue;
    if (includes(deployment, bucket, reports.get(deployment.id)?.state)) return deployment;
  }
  return null;
}

export function isFinal(state: ReportState): boolean {
  return terminalStates.includes(state);
}
