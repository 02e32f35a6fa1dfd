import type { ReportState } from "@/schema/fleet/deployment-plan";
import { includes, isFinal, phaseOfBucket } from "@/schema/fleet/desired-deployment";
import { afterFailure } from "@/schema/fleet/pace-and-retries";
import type { Db } from "../data/db";
import type { Deployment } from "../data/deployments";
import type { Env } from "../env";
import { failure, json } from "./check-in";
import { forgetRadioChanges } from "./config-token";
import { evaluateThresholds } from "./deployment-engine";
import { forgetCheckIn } from "./live";
import { type RadioState, targetRadioOf } from "./radio-state";

/**
 * What every report on a deployment shares, configuration or firmware (docs/device-protocol.md):
 * whether the radio may report on it now, in which phase it counts, whether a failure is a retry
 * (the plan's retries), and what follows a stored report.
 */
export type Retry = { attempt: number; retryAt: Date };

export type Admitted = { ok: true; phase: number; retry: Retry | null; at: string } | { ok: false; response: Response };

/**
 * A radio that has not reported yet may report only on a deployment that includes it now (a
 * later phase, or one paused or cancelled before it started, does not); `failed`: the report
 * counts as a failure, which is a retry while attempts are left.
 */
export function admitReport(state: RadioState, deployment: Deployment, failed: boolean, now: Date): Admitted {
  const previous = state.reports.get(deployment.id);
  const shares = deployment.plan.phases.map((p) => p.share);
  if (!previous && !includes({ ...deployment, shares }, targetRadioOf(state.radio), state.reports)) {
    return {
      ok: false,
      response: failure({
        status: 409,
        code: "CONFLICT",
        message: `The deployment is ${deployment.state} and does not include this radio now.`,
      }),
    };
  }
  const phase = previous?.phase ?? phaseOfBucket(shares, state.radio.rollout_bucket);
  const afterFailed = failed ? afterFailure(deployment.plan.retries, previous?.attempts ?? 0, now) : null;
  const retry = afterFailed?.kind === "retry" ? { attempt: afterFailed.attempt, retryAt: afterFailed.retryAt } : null;
  return { ok: true, phase, retry, at: now.toISOString() };
}

/**
 * After a report was stored: it is a change of this radio (migration 0031), so this isolate
 * re-reads the log at once and the radio's shard answers its next check-in with it; a retry is
 * told when; a final report may cross the phase's thresholds.
 */
export async function afterReportStored(
  { db, env }: { db: Db; env: Env },
  state: RadioState,
  deployment: Deployment,
  stored: { said: string; state: ReportState; phase: number; retry: Retry | null },
): Promise<Response> {
  forgetRadioChanges();
  await forgetCheckIn(env, state.radio.uid);
  const answer = { deploymentId: deployment.id, state: stored.said, changed: true };
  if (stored.retry)
    return json({ ...answer, retry: { attempt: stored.retry.attempt, notBefore: stored.retry.retryAt.toISOString() } });
  if (isFinal(stored.state)) await evaluateThresholds({ db, env }, deployment, stored.phase, stored.state);
  return json(answer);
}
