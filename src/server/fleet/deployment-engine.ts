import {
  allowedFrom,
  type DeploymentAction,
  type DeploymentState,
  failureStates,
  type Plan,
  type ReportState,
  type Switchover,
  successStates,
} from "@/schema/fleet/deployment-plan";
import type { DeploymentTarget } from "@/schema/fleet/deployment-target";
import { pacedBucket, paceOpening, paceStart, paceSteps } from "@/schema/fleet/pace-and-retries";
import { bucketRange } from "@/schema/fleet/rollout";
import type { D1PreparedStatement } from "../cloudflare";
import { activityStatement } from "../data/activity-logs";
import { batch, type Db, newId } from "../data/db";
import { awaitApprovalStatement } from "../data/deployment-approval";
import {
  countTargets,
  currentRevisionId,
  type Deployment,
  deploymentOf,
  deploymentStatement,
  dueDeployments,
  findDeployment,
  findDeploymentByKey,
  insertDeploymentStatement,
  linkPendingChangesStatement,
  NOT_COUNTED,
  nextDeploymentNumber,
  nextStepDue,
  paceOfferedChangesStatement,
  paceStepStatement,
  phaseCounts,
  phaseHasRadios,
  phaseTargeted,
  supersedeOthersStatement,
  type Transition,
  timeOutDue,
  timeoutFrom,
  transitionStatement,
} from "../data/deployments";
import { contentHashOf, findRevisionByHash, insertRevisionStatement, snapshotAccountConfig } from "../data/revisions";
import type { Env } from "../env";
import { deploymentEvent } from "../notifications/deployment-events";
import { heldForApproval } from "./approval-gate";
import { armClock } from "./arm-deployment-clock";
import { forgetFleetVersion, forgetRadioChanges } from "./config-token";
import { notifyShards } from "./live";

/**
 * The deployment engine (DESIGN.md §7): confirming (one D1 batch, a fixed number of rows),
 * the state machine (every transition one conditional statement; an illegal one is a
 * conflict), thresholds evaluated in the request that reported, and timed steps run by the
 * clock. Every change is an activity-log entry and one notification per live shard.
 */
export type Actor = { id: string; email: string };
export const SYSTEM_ACTOR: Actor = { id: "system", email: "system" };

type Deps = { db: Db; env: Env };

export class TransitionConflict extends Error {
  constructor(readonly state: DeploymentState) {
    super(`deployment is ${state}`);
  }
}

function logStatement(
  db: Db,
  d: Pick<Deployment, "orgId" | "accountId" | "id" | "number">,
  actor: Actor,
  action: "create" | "update",
  diff: Record<string, { before?: unknown; after?: unknown }>,
) {
  return activityStatement(db, {
    orgId: d.orgId,
    accountId: d.accountId,
    actor,
    action,
    entityType: "deployment",
    entityId: d.id,
    entityLabel: `#${d.number}`,
    diff,
    deployable: false,
  });
}

/** Notifies connected radios of the account; `upToBucket` for the opened phases only. */
async function announce(env: Env, d: Deployment, reason: "deployment" | "pause" | "cancel") {
  // This isolate re-reads the account's fleet version at once (other isolates within 10 s).
  forgetFleetVersion(d.accountId);
  // An account without radios has nobody to tell.
  if (d.targeted === 0) return;
  const shares = d.plan.phases.map((p) => p.share);
  const upToBucket = reason === "deployment" && d.state !== "finished" ? bucketRange(shares, d.phaseIndex).to : undefined;
  await notifyShards(env, d.accountId, { type: "check-in", reason, deploymentId: d.id, upToBucket });
}

export type ConfirmInput = {
  accountId: string;
  orgId: string;
  actor: Actor;
  plan: Plan;
  switchover: Switchover;
  note: string;
  /** Roll back: deploy this earlier revision instead of the account's configuration now. */
  revisionId?: string;
  rollbackOf?: string;
  /** The radios it is for, frozen (data/targets.ts deploymentTargetOf); none: every radio. */
  target?: DeploymentTarget | null;
  /** How many radios the target holds, when already counted (else the insert counts them). */
  targetedCount?: number;
  /** The request's key: confirming again with it answers the deployment it made. */
  idempotencyKey?: string;
  /** The account asks for approval: the deployment waits (scheduled, pending) until then at most. */
  approvalExpiresAt?: string;
  /** A firmware deployment (issue 26): the package its radios install, and what roll back installs again. */
  firmware?: { packageId: string; version: string; previousPackageId: string | null };
};

/**
 * Confirms a deployment: freezes the configuration as a revision (or reuses an equal one),
 * links the pending changes, supersedes older active deployments, and writes the deployment
 * and its log entry — one batch of at most seven statements whatever the fleet size or the
 * target's (the clock counts a target's radios just after). With an idempotency key, the same
 * key again answers the deployment it made.
 */
export async function confirmDeployment({ db, env }: Deps, input: ConfirmInput): Promise<Deployment> {
  const key = input.idempotencyKey;
  const earlier = key ? await findDeploymentByKey(db, input.accountId, key) : null;
  if (earlier) return earlier;
  try {
    return await confirmOnce({ db, env }, input);
  } catch (error) {
    // Two requests with one key at the same moment: the unique key let one batch through.
    const won = key ? await findDeploymentByKey(db, input.accountId, key) : null;
    if (won) return won;
    throw error;
  }
}

async function confirmOnce({ db, env }: Deps, input: ConfirmInput): Promise<Deployment> {
  const at = new Date();
  const createdAt = at.toISOString();
  // Independent reads side by side: every round trip here delays the radios' push.
  const startAt = input.plan.startAt ? new Date(input.plan.startAt) : null;
  const awaiting = input.approvalExpiresAt;
  // Waiting for approval is scheduled too: radios are told nothing, the clock does not start it.
  const scheduled = awaiting !== undefined || (startAt !== null && startAt.getTime() > at.getTime());
  const target = input.target ?? null;
  const paced = input.plan.pace && !scheduled ? input.plan.pace : null;
  const firmware = input.firmware;
  const [previousRevisionId, number, firstPhase, snapshot] = await Promise.all([
    currentRevisionId(db, input.accountId),
    nextDeploymentNumber(db, input.accountId),
    paced ? phaseTargeted(db, { accountId: input.accountId, target, plan: input.plan }, 0) : 0,
    input.revisionId || firmware ? null : snapshotAccountConfig(db, input.accountId),
  ]);
  // A firmware deployment leaves the configuration as it is: it names the revision in force
  // (frozen now only when the account never deployed one), and the pending changes stay pending.
  const given = input.revisionId ?? (firmware ? previousRevisionId : null);
  const content = given ? null : (snapshot ?? (await snapshotAccountConfig(db, input.accountId)));
  const statements: D1PreparedStatement[] = [];
  let revisionId = given ?? "";
  if (content) {
    const contentHash = await contentHashOf(content);
    const existing = await findRevisionByHash(db, input.accountId, contentHash);
    revisionId = existing?.id ?? newId("rev");
    if (!existing)
      statements.push(
        insertRevisionStatement(db, { id: revisionId, accountId: input.accountId, content, contentHash, createdAt }),
      );
  }
  const id = newId("dep");
  const shares = input.plan.phases.map((p) => p.share);
  statements.push(
    insertDeploymentStatement(db, {
      id,
      accountId: input.accountId,
      orgId: input.orgId,
      revisionId,
      previousRevisionId,
      rollbackOf: input.rollbackOf ?? null,
      state: scheduled ? "scheduled" : "running",
      plan: input.plan,
      switchover: input.switchover,
      target,
      targetedCount: input.targetedCount ?? null,
      pace: paced ? paceOpening(paced, bucketRange(shares, 0), firstPhase, createdAt) : null,
      nextStepAt: scheduled && startAt ? startAt.toISOString() : null,
      note: input.note,
      createdBy: input.actor.email,
      createdAt,
      idempotencyKey: input.idempotencyKey ?? null,
      ...(firmware ? { firmware: { packageId: firmware.packageId, previousPackageId: firmware.previousPackageId } } : {}),
    }),
  );
  if (awaiting) statements.push(awaitApprovalStatement(db, { id, authorId: input.actor.id, expiresAt: awaiting }));
  statements.push(
    activityStatement(db, {
      orgId: input.orgId,
      accountId: input.accountId,
      actor: input.actor,
      action: "create",
      entityType: "deployment",
      entityId: id,
      entityLabel: `#${number}`,
      diff: {
        state: { after: scheduled ? "scheduled" : "running" },
        ...(awaiting ? { approval: { after: "pending" } } : {}),
        ...(firmware ? { firmware: { after: firmware.version } } : {}),
        ...(input.note ? { note: { after: input.note } } : {}),
      },
      deployable: false,
    }),
  );
  if (!scheduled) statements.push(supersedeOthersStatement(db, input.accountId, id, createdAt));
  if (!firmware) statements.push(linkPendingChangesStatement(db, input.accountId, id));
  // The deployment read back (revision number, targeted, timeout) in the same round trip.
  statements.push(deploymentStatement(db, id));
  const deployment = deploymentOf((await db.batch(statements)).at(-1));
  if (!deployment) throw new Error("deployment not written");
  if (awaiting) {
    await armClock(env, new Date(awaiting));
    await deploymentEvent(env, deployment, "deployment.awaiting-approval", { author: input.actor.email });
  } else if (scheduled && startAt) await armClock(env, startAt);
  else await announce(env, deployment, "deployment");
  if (deployment.timeoutAt) await armClock(env, new Date(deployment.timeoutAt));
  // An empty first phase passes at once (and the answer then says where the deployment is).
  if (deployment.state === "running" && (await passEmptyPhase({ db, env }, deployment)))
    return (await findDeployment(db, id)) ?? deployment;
  if (deployment.paceAt) await armClock(env, new Date(deployment.paceAt));
  // Its target's radios are counted by the clock, now, off this request.
  if (deployment.targeted === NOT_COUNTED) await armClock(env, at);
  if (input.rollbackOf) await deploymentEvent(env, deployment, "deployment.rolled-back", { rollbackOf: input.rollbackOf });
  return deployment;
}

/** The transition an action asks for, from the deployment as it is. */
function transitionOf(d: Deployment, action: DeploymentAction): Transition {
  const last = d.plan.phases.length - 1;
  switch (action) {
    case "pause":
      return { to: "paused", pauseReason: "user" };
    case "resume":
      return { to: "running", pauseReason: null };
    case "cancel":
      return { to: "cancelled", pauseReason: null };
    case "advance":
      return d.phaseIndex >= last
        ? { to: "finished", pauseReason: null }
        : { to: "running", pauseReason: null, phaseIndex: d.phaseIndex + 1, nextStepAt: null };
  }
}

/**
 * A person's action on a deployment. Refused with TransitionConflict when the deployment is
 * not in a state the action starts from, or was changed since the person saw it (version).
 */
export async function actOnDeployment(
  { db, env }: Deps,
  d: Deployment,
  action: DeploymentAction,
  actor: Actor,
  version?: number,
): Promise<Deployment> {
  if (!allowedFrom[action].includes(d.state)) throw new TransitionConflict(d.state);
  const transition = transitionOf(d, action);
  const moved = await applyTransition(db, d, transition, actor, allowedFrom[action], version);
  if (!moved) throw new TransitionConflict((await findDeployment(db, d.id))?.state ?? d.state);
  const after = (await findDeployment(db, d.id)) ?? d;
  if (after.timeoutAt && after.timeoutAt !== d.timeoutAt) await armClock(env, new Date(after.timeoutAt));
  // A paced phase opened, or resumed: its next step is due now (or was due while it was paused).
  if (after.state === "running" && after.paceAt) await armClock(env, new Date(after.paceAt));
  if (action === "resume" || action === "advance") {
    if (after.state === "running") await supersedeIfStarting(db, after);
    await announce(env, after, "deployment");
  } else await announce(env, after, action === "cancel" ? "cancel" : "pause");
  if (after.state === "finished" && d.state !== "finished") await deploymentEvent(env, after, "deployment.finished");
  if (action === "advance" && after.state === "running" && (await passEmptyPhase({ db, env }, after))) {
    return (await findDeployment(db, d.id)) ?? after;
  }
  return after;
}

async function supersedeIfStarting(db: Db, d: Deployment) {
  await batch(db, [supersedeOthersStatement(db, d.accountId, d.id, new Date().toISOString())]);
}

/** A transition that happened; `timeoutAt` when it opened a phase (its radios time out then), `paceAt` when a pace starts. */
type Moved = { timeoutAt: string | null; paceAt: string | null };

async function applyTransition(
  db: Db,
  d: Deployment,
  transition: Transition,
  actor: Actor,
  from: readonly DeploymentState[],
  version?: number,
): Promise<Moved | null> {
  const at = new Date().toISOString();
  // A phase opening (or a scheduled start) starts the clock on its radios' reports.
  const opens = transition.phaseIndex !== undefined || (d.state === "scheduled" && transition.to === "running");
  const phase = transition.phaseIndex ?? d.phaseIndex;
  // A paced phase opens with its first minute offered; the clock offers the rest a minute at a time.
  const pace =
    opens && d.plan.pace
      ? paceOpening(
          d.plan.pace,
          bucketRange(
            d.plan.phases.map((p) => p.share),
            phase,
          ),
          await phaseTargeted(db, d, phase),
          at,
        )
      : undefined;
  const step: Transition = opens
    ? {
        ...transition,
        timeoutAt: transition.timeoutAt === undefined ? timeoutFrom(d.plan, at) : transition.timeoutAt,
        ...(pace ? { pace } : {}),
      }
    : transition;
  const diff: Record<string, { before?: unknown; after?: unknown }> = { state: { before: d.state, after: transition.to } };
  if (transition.phaseIndex !== undefined) diff.phase = { before: d.phaseIndex + 1, after: transition.phaseIndex + 1 };
  if (transition.pauseReason) diff.reason = { after: transition.pauseReason };
  const results = await db.batch([
    transitionStatement(db, { id: d.id, from, version, at, ...step }),
    logStatement(db, d, actor, "update", diff),
  ]);
  return (results[0]?.meta.changes ?? 0) > 0 ? { timeoutAt: step.timeoutAt ?? null, paceAt: step.pace?.paceAt ?? null } : null;
}

/**
 * After a radio's final report: the error threshold of its phase pauses the deployment in this
 * same request; the success threshold of the current phase opens the next phase (at once or
 * after its wait), pauses (if the plan says so), or finishes the deployment after the last.
 */
export async function evaluateThresholds({ db, env }: Deps, d: Deployment, phase: number, reported: ReportState): Promise<void> {
  if (d.state !== "running") return;
  const plan = d.plan.phases[phase];
  if (!plan) return;
  const counts = await phaseCounts(db, d.id, phase);
  const failures = failureStates.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  const reportedCount = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
  if (failureStates.includes(reported)) {
    const crossed =
      plan.errorKind === "count"
        ? failures >= plan.errorValue
        : reportedCount >= Math.max(1, plan.errorMinimum) && failures * 100 >= plan.errorValue * reportedCount;
    if (crossed) {
      if (await applyTransition(db, d, { to: "paused", pauseReason: "error-threshold" }, SYSTEM_ACTOR, ["running"])) {
        await announce(env, { ...d, state: "paused" }, "pause");
        await deploymentEvent(env, d, "deployment.threshold-failed", { failures, reported: reportedCount });
        await deploymentEvent(env, d, "deployment.paused", { reason: "error-threshold" });
      }
    }
    return;
  }
  if (!successStates.includes(reported) || phase !== d.phaseIndex || d.nextStepAt) return;
  const successes = successStates.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  const targeted = await phaseTargeted(db, d, phase);
  if (successes * 100 < plan.successPercent * targeted) return;
  await phaseSucceeded({ db, env }, d);
}

async function phaseSucceeded({ db, env }: Deps, d: Deployment): Promise<void> {
  const last = d.plan.phases.length - 1;
  const plan = d.plan.phases[d.phaseIndex];
  if (!plan) return;
  if (d.phaseIndex >= last) {
    if (await applyTransition(db, d, { to: "finished", pauseReason: null }, SYSTEM_ACTOR, ["running"])) {
      await deploymentEvent(env, d, "deployment.finished");
    }
    return;
  }
  if (plan.successAction === "pause") {
    if (await applyTransition(db, d, { to: "paused", pauseReason: "success-threshold" }, SYSTEM_ACTOR, ["running"])) {
      await announce(env, { ...d, state: "paused" }, "pause");
      await deploymentEvent(env, d, "deployment.paused", { reason: "success-threshold" });
    }
    return;
  }
  if (plan.waitMinutes > 0) {
    const at = new Date(Date.now() + plan.waitMinutes * 60_000);
    const results = await db.batch([
      transitionStatement(db, {
        id: d.id,
        from: ["running"],
        at: new Date().toISOString(),
        to: "running",
        nextStepAt: at.toISOString(),
      }),
    ]);
    if ((results[0]?.meta.changes ?? 0) > 0) await armClock(env, at);
    return;
  }
  // A radio's report opened the phase: the clock wakes when its radios time out, not whenever
  // the next alarm or the cron happens to run.
  const timeoutAt = await openNextPhase({ db, env }, d);
  if (timeoutAt) await armClock(env, new Date(timeoutAt));
}

/** Opens the next phase; answers when its radios time out (null: it did not open). */
async function openNextPhase({ db, env }: Deps, d: Deployment): Promise<string | null> {
  const moved = await applyTransition(db, d, { to: "running", phaseIndex: d.phaseIndex + 1, nextStepAt: null }, SYSTEM_ACTOR, [
    "running",
  ]);
  if (!moved) return null;
  if (moved.paceAt) await armClock(env, new Date(moved.paceAt));
  await announce(env, { ...d, phaseIndex: d.phaseIndex + 1 }, "deployment");
  const opened = await findDeployment(db, d.id);
  if (opened) await passEmptyPhase({ db, env }, opened);
  return moved.timeoutAt;
}

/**
 * A phase that opens with no radio in it (a small target's buckets can leave one empty) has
 * nobody to report on it, so its success holds at once; else the deployment would wait forever.
 * Called wherever a phase opens; it may pass several empty phases in a row, or finish.
 */
async function passEmptyPhase({ db, env }: Deps, d: Deployment): Promise<boolean> {
  if (d.state !== "running" || d.nextStepAt || (await phaseHasRadios(db, d, d.phaseIndex))) return false;
  await phaseSucceeded({ db, env }, d);
  return true;
}

/**
 * One step of a paced phase: the minutes since the last step (one, or more when the clock ran
 * late) each offer the rate; an exponential rate grows only while the phase's reports hold its
 * success rate. The deployment's row written and one change-log row per radio it offers (never
 * the account's fleet version), then the connected radios of the account are told.
 */
async function stepPace({ db, env }: Deps, d: Deployment, now: Date): Promise<void> {
  const pace = d.plan.pace;
  const phase = d.plan.phases[d.phaseIndex];
  if (!pace || !phase || !d.paceAt) return;
  const [targeted, counts] = await Promise.all([phaseTargeted(db, d, d.phaseIndex), phaseCounts(db, d.id, d.phaseIndex)]);
  const reported = Object.values(counts).reduce((sum, n) => sum + (n ?? 0), 0);
  const successes = successStates.reduce((sum, s) => sum + (counts[s] ?? 0), 0);
  const holds = reported === 0 || successes * 100 >= phase.successPercent * reported;
  const minutes = 1 + Math.floor((now.getTime() - Date.parse(d.paceAt)) / 60_000);
  const next = paceSteps(pace, { offered: d.paceOffered, rate: d.paceRate ?? paceStart(pace).rate }, minutes, targeted, holds);
  const range = bucketRange(
    d.plan.phases.map((p) => p.share),
    d.phaseIndex,
  );
  const reach = pacedBucket(range, next.offered, targeted);
  const done = reach >= range.to;
  const at = now.toISOString();
  const [result] = await db.batch([
    paceStepStatement(db, d, {
      pacedTo: done ? null : reach,
      offered: next.offered,
      rate: next.rate,
      nextAt: done ? null : new Date(Date.parse(d.paceAt) + minutes * 60_000).toISOString(),
      timeoutAt: timeoutFrom(d.plan, at),
      at,
    }),
    // Only the radios now offered are told (the step leaves the account's fleet version alone).
    paceOfferedChangesStatement(db, d, { from: d.pacedTo ?? range.from, to: reach, at, offered: next.offered }),
  ]);
  if ((result?.meta.changes ?? 0) > 0 && reach > (d.pacedTo ?? range.from)) {
    forgetRadioChanges();
    await announce(env, d, "deployment");
  }
}

/**
 * Runs every timed step that is due (the clock's alarm and the cron trigger call it): targeted
 * deployments just confirmed get their radios counted, radios past their phase's timeout become
 * timed out, a scheduled deployment starts (unless it waits for approval), a waiting phase
 * opens, a paced phase offers its next minute. Returns when the next step is due, if any.
 */
export async function stepDueDeployments(env: Env, now = new Date()): Promise<number | null> {
  const db = env.DB;
  await countTargets(db);
  await timeOutDue(db, now.toISOString());
  for (const id of await dueDeployments(db, now.toISOString())) {
    const d = await findDeployment(db, id);
    if (!d) continue;
    if (d.state === "scheduled") {
      // Waiting for approval never starts: the clock expires it instead once nobody decided in time.
      if (await heldForApproval(db, d, now)) continue;
      if (await applyTransition(db, d, { to: "running", nextStepAt: null }, SYSTEM_ACTOR, ["scheduled"])) {
        await supersedeIfStarting(db, d);
        await announce(env, { ...d, state: "running" }, "deployment");
        const started = await findDeployment(db, d.id);
        if (started) await passEmptyPhase({ db, env }, started);
      }
    } else if (d.state === "running" && d.nextStepAt && d.nextStepAt <= now.toISOString()) {
      // Its timeout is in the next due time this returns (the alarm and the cron arm the clock with it).
      await openNextPhase({ db, env }, d);
    } else if (d.state === "running" && d.paceAt && d.paceAt <= now.toISOString()) {
      await stepPace({ db, env }, d, now);
    }
  }
  const next = await nextStepDue(db);
  return next ? Date.parse(next) : null;
}
