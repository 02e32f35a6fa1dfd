import { env } from "cloudflare:test";
import fc from "fast-check";
import { expect } from "vitest";
import {
  allAtOnce,
  type DeploymentState,
  failureStates,
  type Plan,
  progressOf,
  type ReportState,
  reportStates,
  successStates,
  terminalStates,
} from "@/schema/fleet/deployment-plan";
import { phaseOfBucket } from "@/schema/fleet/desired-deployment";
import { type FirmwareReportState, firmwareRank, firmwareReportStates, storedReport } from "@/schema/fleet/firmware-report";
import { paceOpening } from "@/schema/fleet/pace-and-retries";
import { BUCKETS, bucketOf, bucketRange } from "@/schema/fleet/rollout";
import { type ShownState, shownStates } from "@/schema/fleet/states";
import { emptySyncCounts, type SyncCounts, type SyncState } from "@/schema/fleet/sync-state";
import { findApproval } from "@/server/data/deployment-approval";
import {
  type Deployment,
  deploymentCounts,
  findDeployment,
  listDeploymentRadios,
  listDeployments,
} from "@/server/data/deployments";
import { withModelFit } from "@/server/data/firmware-deployments";
import { syncCounts } from "@/server/data/fleet-sync";
import { deploymentTargetOf, deploymentTargetSizes, resolveTarget } from "@/server/data/targets";
import { ApprovalRefused, decideOnDeployment } from "@/server/fleet/approval-decision";
import { actOnDeployment, confirmDeployment, stepDueDeployments, TransitionConflict } from "@/server/fleet/deployment-engine";
import { loadRadio, radioState } from "@/server/fleet/radio-state";
import { syncOfRadio } from "@/server/fleet/radio-sync";
import { createAccount, createOrganization } from "./fixtures";
import { bearer, giveSeats, RADIO_SECRET, sha256Hex } from "./fleet-fixtures";
import { request } from "./helpers";

/**
 * The deployment engine against a model (issue 23): random sequences of confirm (all at once or
 * phased, thresholds, waits, a scheduled start), roll back, pause, resume, advance, cancel,
 * radios added, moved and retired, check-ins (some lying about their revision), reports in and
 * out of order and repeated, and clock steps — run against the real engine on D1 and the real
 * device protocol, with the model's expectations checked after every step:
 * - what each radio is told equals the model's answer, and a radio is never sent back to an
 *   older deployment's revision unless the newer decision was withdrawn before it started;
 * - every deployment's state and phase equal the model's (thresholds included);
 * - the stored reports equal the model's (a final report never regresses);
 * - counts per state equal the model's and the radios listed per state;
 * - at most one deployment of each target runs or is paused (targets, issue 25: every radio, a
 *   site, or the failed radios of an earlier deployment; radios move between sites meanwhile);
 * - the sync counts equal a recount from the radios and the model's;
 * - firmware rollouts (issue 26) on their own track: a radio follows the newest configuration
 *   deployment and the newest firmware deployment that hold it, only radios of a model the
 *   package fits are held, stage reports move forward only (by stage and progress), and a
 *   radio's recorded firmware is the package it reported `updated` on.
 */

// ── The model ─────────────────────────────────────────────────────────────────────────────

type ModelDeployment = {
  id: string;
  number: number;
  kind: "config" | "firmware";
  /** A firmware deployment's package (index in Model.packages) and the models it holds (null: every model). */
  packageIndex: number | null;
  fit: string[] | null;
  revisionId: string;
  previousRevisionId: string | null;
  plan: Plan;
  shares: number[];
  state: DeploymentState;
  phaseIndex: number;
  /** It ran at some point (a scheduled one that never started did not). */
  started: boolean;
  pauseReason: string | null;
  /** Its phase succeeded and the next opens after a wait (a clock step). */
  waiting: boolean;
  /** Its opened phases time out at the next clock step. */
  timeoutPending: boolean;
  /** Its current phase is paced: the buckets offered so far (its first minute; the next clock step offers it all). */
  pacedTo: number | null;
  timedOutPhase: number;
  /** Each radio's report; `attempts`: failures it was told to retry (the plan's retries). */
  reports: Map<string, ModelReport>;
  target: ModelTarget;
  /** Four-eyes approval (see the approval block below); absent: the account did not ask for it. */
  approval?: ModelApproval;
};

/** A radio's report as stored: the engine's state, a firmware stage and progress (storedReport). */
type ModelReport = { state: ReportState; phase: number; attempts?: number; stage?: string | null; progress?: number | null };

/**
 * The radios a deployment is for: every radio, those at a site now, or those that failed (or
 * never reported before their phase timed out, among those its target held) deployment `of`.
 */
type ModelTarget =
  | null
  | { kind: "site"; site: string }
  | { kind: "failedOf"; of: ModelDeployment; timedOutTo: number; site: string | null };

type ModelRadio = {
  uid: string;
  bucket: number;
  present: boolean;
  added: boolean;
  reported: string | null;
  seen: boolean;
  site: string | null;
  model: string;
  /** The firmware recorded for it (what it reported `updated` on last). */
  firmware: string;
};

/** Two packages per world: one fits both models, one only the first. */
const RADIO_MODELS = ["NW-400", "XR-9"] as const;
const PACKAGES = [
  { version: "2.0.0", models: ["NW-400", "XR-9"] },
  { version: "3.0.0", models: ["NW-400"] },
];

export type Model = {
  deployments: ModelDeployment[];
  radios: ModelRadio[];
  /** Revision ids by configuration version (equal configurations share a revision). */
  revisions: Map<number, string>;
  /** The deployment each radio was told to follow after the last step, by kind and uid. */
  told: Map<string, string | null>;
  /** The world's firmware package ids, as PACKAGES. */
  packages: string[];
};

export type Real = { orgId: string; accountId: string; clock: { offsetMs: number }; sites: [string, string] };

const FOREIGN_REVISION = "rev_from_another_server";
const DAY = 24 * 60 * 60_000;
const ACTOR = { id: "model", email: "model@example.test" };
const deps = () => ({ db: env.DB, env });

function decidedTo(d: ModelDeployment): number {
  const range = bucketRange(d.shares, d.phaseIndex);
  const opened = Math.min(range.to, d.pacedTo ?? BUCKETS);
  if (d.state === "finished") return BUCKETS;
  if (d.state === "running") return opened;
  if (d.state === "superseded") return d.started && d.pauseReason === null ? opened : 0;
  return 0;
}

function inModelTarget(d: ModelDeployment, r: ModelRadio): boolean {
  const target = d.target;
  const fits = d.fit === null || d.fit.includes(r.model);
  if (target === null) return fits;
  if (target.kind === "site") return r.site === target.site && fits;
  const report = target.of.reports.get(r.uid)?.state;
  if (report === "failed" || report === "rejected") return true;
  return report === undefined && r.bucket < target.timedOutTo && (target.site === null || r.site === target.site) && fits;
}

/**
 * Deployments of one kind and target supersede each other; a configuration one for every radio
 * supersedes all of its kind (a firmware one always has a model fit: its target is never "all").
 */
const targetKey = (d: ModelDeployment) => {
  const target = d.target;
  const place = target === null ? "all" : target.kind === "site" ? `site:${target.site}` : `failedOf:${target.of.id}`;
  return target?.kind === "failedOf" ? `${d.kind}:${place}` : `${d.kind}:${place}:${d.fit?.join(",") ?? ""}`;
};
const coversEveryRadio = (d: ModelDeployment) => d.kind === "config" && d.target === null;

const covers = (d: ModelDeployment, r: ModelRadio) => d.reports.has(r.uid) || (r.bucket < decidedTo(d) && inModelTarget(d, r));

function toldDeployment(model: Model, r: ModelRadio, kind: ModelDeployment["kind"] = "config"): ModelDeployment | null {
  for (let i = model.deployments.length - 1; i >= 0; i--) {
    const d = model.deployments[i] as ModelDeployment;
    if (d.kind === kind && d.state !== "scheduled" && covers(d, r)) return d;
  }
  return null;
}

const isActive = (d: ModelDeployment) => d.state === "scheduled" || d.state === "running" || d.state === "paused";

/** A deployment that starts supersedes the older active ones (of its target, unless it is for every radio). */
function supersedeOlder(model: Model, d: ModelDeployment) {
  for (const other of model.deployments) {
    if (
      other.number < d.number &&
      other.kind === d.kind &&
      isActive(other) &&
      (coversEveryRadio(d) || targetKey(other) === targetKey(d))
    ) {
      other.state = "superseded";
      other.waiting = false;
      other.timeoutPending = false;
    }
  }
}

function openNextPhase(m: Model, d: ModelDeployment) {
  d.phaseIndex += 1;
  d.waiting = false;
  d.timeoutPending = true;
  d.pacedTo = firstMinute(m, d);
  passEmptyPhase(m, d);
}

/** A phase opened with no radio in it succeeds at once (deployment-engine.ts passEmptyPhase). */
function passEmptyPhase(m: Model, d: ModelDeployment) {
  if (d.state === "running" && !d.waiting && targetedInPhase(m, d, d.phaseIndex) === 0) phaseSucceeded(m, d);
}

/** A paced phase opens with its first minute offered (schema/fleet/pace-and-retries.ts paceOpening). */
function firstMinute(m: Model, d: ModelDeployment): number | null {
  if (!d.plan.pace) return null;
  const range = bucketRange(d.shares, d.phaseIndex);
  return paceOpening(d.plan.pace, range, targetedInPhase(m, d, d.phaseIndex), new Date().toISOString()).pacedTo;
}

function targetedInPhase(model: Model, d: ModelDeployment, phase: number): number {
  const range = bucketRange(d.shares, phase);
  return model.radios.filter((r) => r.present && r.bucket >= range.from && r.bucket < range.to && inModelTarget(d, r)).length;
}

/** The engine's thresholds after a final report (deployment-engine.ts evaluateThresholds). */
function afterFinalReport(model: Model, d: ModelDeployment, phase: number, reported: ReportState) {
  if (d.state !== "running") return;
  const plan = d.plan.phases[phase];
  if (!plan) return;
  const inPhase = [...d.reports.values()].filter((r) => r.phase === phase);
  const failures = inPhase.filter((r) => failureStates.includes(r.state)).length;
  if (failureStates.includes(reported)) {
    const crossed =
      plan.errorKind === "count"
        ? failures >= plan.errorValue
        : inPhase.length >= Math.max(1, plan.errorMinimum) && failures * 100 >= plan.errorValue * inPhase.length;
    if (crossed) {
      d.state = "paused";
      d.pauseReason = "error-threshold";
      d.waiting = false;
    }
    return;
  }
  if (!successStates.includes(reported) || phase !== d.phaseIndex || d.waiting) return;
  const successes = inPhase.filter((r) => successStates.includes(r.state)).length;
  if (successes * 100 < plan.successPercent * targetedInPhase(model, d, phase)) return;
  phaseSucceeded(model, d);
}

/** The current phase reached its success threshold: finish, pause, wait, or open the next one. */
function phaseSucceeded(model: Model, d: ModelDeployment) {
  const plan = d.plan.phases[d.phaseIndex];
  if (!plan) return;
  if (d.phaseIndex >= d.shares.length - 1) {
    d.state = "finished";
    d.pauseReason = null;
  } else if (plan.successAction === "pause") {
    d.state = "paused";
    d.pauseReason = "success-threshold";
  } else if (plan.waitMinutes > 0) d.waiting = true;
  else openNextPhase(model, d);
}

function shownStateOf(d: ModelDeployment, r: ModelRadio): ShownState | null {
  const report = d.reports.get(r.uid);
  if (report) return report.state;
  if (!r.present || !inModelTarget(d, r)) return null;
  const phase = phaseOfBucket(d.shares, r.bucket);
  const opened = d.state === "finished" || phase <= d.phaseIndex;
  if (!opened) return "pending";
  if (d.state === "cancelled" || d.state === "superseded") return "cancelled";
  return phase <= d.timedOutPhase ? "timed_out" : "pending";
}

/** Newest first, the newest configuration deployment that went out (what a confirm names as "previous"). */
const currentConfig = (m: Model) =>
  [...m.deployments]
    .reverse()
    .find((d) => d.kind === "config" && (d.state === "running" || d.state === "paused" || d.state === "finished"));

function modelSync(model: Model, r: ModelRadio): SyncState {
  const ours = new Set(model.revisions.values());
  if (r.reported && !ours.has(r.reported)) return "drifted";
  const d = toldDeployment(model, r);
  if (!d) return "neverDeployed";
  const state = d.reports.get(r.uid)?.state;
  if (state && failureStates.includes(state)) return "failed";
  return r.reported === d.revisionId ? "inSync" : "pending";
}

// ── Talking to the real thing ─────────────────────────────────────────────────────────────

function device(path: string, uid: string, body: unknown) {
  return request(`/device/v1${path}`, {
    method: "POST",
    headers: { Authorization: bearer(uid), "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
}

async function registerRadio(real: Real, r: ModelRadio) {
  await env.DB.prepare(
    "INSERT INTO devices (uid, org_id, account_id, brand, model, firmware, secret_hash) VALUES (?, ?, ?, 'Northwind', ?, '1.0.0', ?)",
  )
    .bind(r.uid, real.orgId, real.accountId, r.model, await sha256Hex(RADIO_SECRET))
    .run();
}

async function realDeployment(id: string) {
  const d = await findDeployment(env.DB, id);
  if (!d) throw new Error(`deployment ${id} is gone`);
  return d;
}

// ── Commands ──────────────────────────────────────────────────────────────────────────────

type Cmd = fc.AsyncCommand<Model, Real>;

const planArbitrary: fc.Arbitrary<Plan> = fc
  .record({
    cuts: fc.uniqueArray(fc.integer({ min: 1, max: 99 }), { maxLength: 2 }),
    successPercent: fc.constantFrom(50, 100),
    successAction: fc.constantFrom("next" as const, "pause" as const),
    errorKind: fc.constantFrom("count" as const, "percent" as const),
    errorValue: fc.integer({ min: 1, max: 3 }),
    errorPercent: fc.constantFrom(20, 50),
    errorMinimum: fc.integer({ min: 0, max: 3 }),
    waitMinutes: fc.constantFrom(0, 0, 30),
    paced: fc.boolean(),
    retried: fc.boolean(),
  })
  .map((p) => ({
    ...(p.paced ? { pace: { maximumPerMinute: 2 } } : {}),
    ...(p.retried ? { retries: { attempts: 1, backoffMinutes: 5 } } : {}),
    phases: [...p.cuts.sort((a, b) => a - b), 100].map((share) => ({
      share,
      successPercent: p.successPercent,
      successAction: p.successAction,
      errorKind: p.errorKind,
      errorValue: p.errorKind === "count" ? p.errorValue : p.errorPercent,
      errorMinimum: p.errorMinimum,
      waitMinutes: p.waitMinutes,
    })),
  }));

/** The target a confirmation names, and what the model keeps of it. */
async function confirmedTarget(real: Real, site: 0 | 1 | null) {
  if (site === null) return { model: null, real: {} };
  const siteId = real.sites[site];
  const resolved = await resolveTarget(env.DB, real.accountId, { kind: "filter", filter: { siteId } });
  if (!resolved.ok) throw new Error("a site of the account was refused");
  const frozen = deploymentTargetOf(resolved.target);
  if (!frozen.ok) throw new Error("a site target was refused");
  const { total } = await deploymentTargetSizes(env.DB, real.accountId, frozen.target, [100]);
  return { model: { kind: "site" as const, site: siteId }, real: { target: frozen.target, targetedCount: total } };
}

class Confirm implements Cmd {
  constructor(
    readonly plan: Plan,
    readonly configVersion: number,
    readonly scheduled: boolean,
    readonly rollbackOf: number | null,
    readonly site: 0 | 1 | null = null,
    /** The account asks for approval: it waits, scheduled and pending (the approval block below). */
    readonly awaitingApproval = false,
  ) {}
  check(m: Readonly<Model>) {
    if (this.rollbackOf === null) return true;
    const configs = m.deployments.filter((d) => d.kind === "config");
    return Boolean(configs[this.rollbackOf % Math.max(1, configs.length)]?.previousRevisionId);
  }
  async run(m: Model, real: Real) {
    const configs = m.deployments.filter((d) => d.kind === "config");
    const target = this.rollbackOf === null ? null : (configs[this.rollbackOf % configs.length] as ModelDeployment);
    if (!target) {
      await env.DB.prepare("UPDATE accounts SET network_config = ? WHERE id = ?")
        .bind(JSON.stringify({ dnsServers: [`10.0.0.${this.configVersion}`] }), real.accountId)
        .run();
    }
    const startAt = this.scheduled ? new Date(Date.now() + 60 * 60_000).toISOString() : undefined;
    // A roll back goes out all at once (deployments.rollback).
    const plan = target ? allAtOnce() : startAt ? { ...this.plan, startAt } : this.plan;
    // A roll back is for the radios the rolled-back deployment was for (deployments.rollback).
    const rolledBack = target ? await realDeployment(target.id) : null;
    const aimed = rolledBack
      ? {
          model: target?.target ?? null,
          real: rolledBack.target ? { target: rolledBack.target, targetedCount: rolledBack.targeted } : {},
        }
      : await confirmedTarget(real, this.site);
    const created = await confirmDeployment(deps(), {
      ...aimed.real,
      accountId: real.accountId,
      orgId: real.orgId,
      actor: ACTOR,
      plan,
      switchover: { mode: "delivery" },
      note: "",
      ...(this.awaitingApproval ? { approvalExpiresAt: new Date(Date.now() + APPROVAL_EXPIRY_MS).toISOString() } : {}),
      ...(target?.previousRevisionId ? { revisionId: target.previousRevisionId, rollbackOf: target.id } : {}),
    });
    if (!target) {
      const known = m.revisions.get(this.configVersion);
      if (known) expect(created.revisionId, "an equal configuration reuses its revision").toBe(known);
      m.revisions.set(this.configVersion, created.revisionId);
    }
    const current = currentConfig(m);
    expect(created.previousRevisionId).toBe(current?.revisionId ?? null);
    const waits = this.scheduled || this.awaitingApproval;
    const d: ModelDeployment = {
      id: created.id,
      number: (m.deployments.at(-1)?.number ?? 0) + 1,
      kind: "config",
      packageIndex: null,
      fit: null,
      revisionId: target?.previousRevisionId ?? created.revisionId,
      previousRevisionId: current?.revisionId ?? null,
      plan,
      shares: plan.phases.map((p) => p.share),
      state: waits ? "scheduled" : "running",
      phaseIndex: 0,
      started: !waits,
      pauseReason: null,
      waiting: false,
      timeoutPending: !waits,
      pacedTo: null,
      timedOutPhase: -1,
      reports: new Map(),
      target: aimed.model,
      ...(this.awaitingApproval ? { approval: "pending" as const } : {}),
    };
    expect(created.number).toBe(d.number);
    expect(created.revisionId).toBe(d.revisionId);
    if (!waits) d.pacedTo = firstMinute(m, d);
    m.deployments.push(d);
    if (!waits) {
      supersedeOlder(m, d);
      passEmptyPhase(m, d);
    }
  }
  toString() {
    const phases = this.plan.phases.map((p) => p.share).join("/");
    const site = this.site === null ? "" : `, site ${this.site}`;
    return this.rollbackOf === null
      ? `confirm(v${this.configVersion}, ${phases}${this.scheduled ? ", scheduled" : ""}${site}${this.awaitingApproval ? ", awaiting approval" : ""})`
      : `rollback(#${this.rollbackOf})`;
  }
}

/**
 * "Retry the failed radios" of a deployment (deployments.retryFailed): its revision again, all at
 * once, to the radios that failed or rejected it, or never reported before their phase timed out.
 */
class RetryFailed implements Cmd {
  constructor(readonly which: number) {}
  check(m: Readonly<Model>) {
    return m.deployments.length > 0;
  }
  async run(m: Model, real: Real) {
    // Mostly one with something to retry (a person retries where they see failures).
    const failing = m.deployments.filter(
      (d) => d.timedOutPhase >= 0 || [...d.reports.values()].some((r) => failureStates.includes(r.state)),
    );
    const pool = failing.length > 0 && this.which % 4 !== 0 ? failing : m.deployments;
    const of = pool[this.which % pool.length] as ModelDeployment;
    const resolved = await resolveTarget(env.DB, real.accountId, { kind: "failedOf", deploymentId: of.id });
    if (!resolved.ok) throw new Error("the account's deployment was refused");
    const frozen = deploymentTargetOf(resolved.target);
    if (!frozen.ok || frozen.target?.kind !== "failedOf") throw new Error("a retry target was refused");
    const ended = of.state === "cancelled" || of.state === "superseded";
    const timedOutTo =
      of.target?.kind === "failedOf" || ended || of.timedOutPhase < 0 ? 0 : bucketRange(of.shares, of.timedOutPhase).to;
    const target: ModelTarget = { kind: "failedOf", of, timedOutTo, site: of.target?.kind === "site" ? of.target.site : null };
    expect(frozen.target.timedOutTo, "the timed-out buckets a retry keeps").toBe(timedOutTo);
    const { total } = await deploymentTargetSizes(env.DB, real.accountId, frozen.target, [100]);
    const probe = {
      target,
      reports: new Map(),
      fit: of.target?.kind === "failedOf" ? null : of.fit,
    } as unknown as ModelDeployment;
    const want = m.radios.filter((r) => r.present && inModelTarget(probe, r)).length;
    expect(total, `radios to retry of #${of.number}`).toBe(want);
    if (total === 0) return; // deployments.retryFailed refuses: nothing to retry
    const current = currentConfig(m);
    const pkg = of.packageIndex === null ? null : (PACKAGES[of.packageIndex] as (typeof PACKAGES)[number]);
    const created = await confirmDeployment(deps(), {
      accountId: real.accountId,
      orgId: real.orgId,
      actor: ACTOR,
      plan: allAtOnce(),
      switchover: { mode: "delivery" },
      note: "",
      revisionId: of.revisionId,
      target: frozen.target,
      targetedCount: total,
      ...(pkg && of.packageIndex !== null
        ? { firmware: { packageId: m.packages[of.packageIndex] as string, version: pkg.version, previousPackageId: null } }
        : {}),
    });
    const d: ModelDeployment = {
      id: created.id,
      number: (m.deployments.at(-1)?.number ?? 0) + 1,
      kind: of.kind,
      packageIndex: of.packageIndex,
      // A retry keeps its deployment's conditions, the fit among them (a retry of a retry: none).
      fit: of.target?.kind === "failedOf" ? null : of.fit,
      revisionId: of.revisionId,
      previousRevisionId: current?.revisionId ?? null,
      plan: allAtOnce(),
      shares: [100],
      state: "running",
      phaseIndex: 0,
      started: true,
      pauseReason: null,
      waiting: false,
      timeoutPending: true,
      pacedTo: null,
      timedOutPhase: -1,
      reports: new Map(),
      target,
    };
    expect(created.number).toBe(d.number);
    expect(created.targeted).toBe(total);
    m.deployments.push(d);
    supersedeOlder(m, d);
    passEmptyPhase(m, d);
  }
  toString() {
    return `retryFailed(#${this.which})`;
  }
}

class Act implements Cmd {
  constructor(
    readonly which: number,
    readonly action: "pause" | "resume" | "advance" | "cancel",
  ) {}
  check(m: Readonly<Model>) {
    return m.deployments.length > 0;
  }
  async run(m: Model) {
    const d = m.deployments[this.which % m.deployments.length] as ModelDeployment;
    const allowed: Record<string, DeploymentState[]> = {
      pause: ["running"],
      resume: ["paused"],
      advance: ["running", "paused"],
      cancel: ["scheduled", "running", "paused"],
    };
    const legal = allowed[this.action]?.includes(d.state) ?? false;
    const outcome = await actOnDeployment(deps(), await realDeployment(d.id), this.action, ACTOR).then(
      () => "moved",
      (error: unknown) => {
        if (error instanceof TransitionConflict) return "conflict";
        throw error;
      },
    );
    expect(outcome, `${this} from ${d.state}`).toBe(legal ? "moved" : "conflict");
    if (!legal) return;
    if (this.action === "pause") {
      d.state = "paused";
      d.pauseReason = "user";
      d.waiting = false;
    } else if (this.action === "cancel") {
      d.state = "cancelled";
      d.pauseReason = null;
      d.waiting = false;
      d.timeoutPending = false;
    } else if (this.action === "resume") {
      d.state = "running";
      d.pauseReason = null;
      supersedeOlder(m, d);
    } else if (d.phaseIndex >= d.shares.length - 1) {
      d.state = "finished";
      d.pauseReason = null;
      d.waiting = false;
    } else {
      d.state = "running";
      d.pauseReason = null;
      openNextPhase(m, d);
      supersedeOlder(m, d);
    }
  }
  toString() {
    return `${this.action}(#${this.which})`;
  }
}

class CheckIn implements Cmd {
  constructor(
    readonly radio: number,
    readonly claims: "nothing" | "told" | "foreign" | "old",
  ) {}
  check(m: Readonly<Model>) {
    return m.radios.some((r) => r.present);
  }
  async run(m: Model) {
    const present = m.radios.filter((r) => r.present);
    const r = present[this.radio % present.length] as ModelRadio;
    const told = toldDeployment(m, r);
    const claimed =
      this.claims === "told"
        ? (told?.revisionId ?? null)
        : this.claims === "foreign"
          ? FOREIGN_REVISION
          : this.claims === "old"
            ? (m.deployments[0]?.revisionId ?? null)
            : undefined;
    const response = await device("/check-in", r.uid, claimed === undefined ? {} : { reportedRevision: claimed });
    expect(response.status).toBe(200);
    const body = (await response.json()) as {
      desiredRevision: { id: string } | null;
      firmware: { deployment: { id: string }; package: { version: string } } | null;
    };
    expect(body.desiredRevision?.id ?? null, `what ${r.uid} is told`).toBe(told?.revisionId ?? null);
    const firmware = toldDeployment(m, r, "firmware");
    expect(body.firmware?.deployment.id ?? null, `the firmware deployment ${r.uid} is told`).toBe(firmware?.id ?? null);
    if (firmware?.packageIndex != null) expect(body.firmware?.package.version).toBe(PACKAGES[firmware.packageIndex]?.version);
    if (claimed !== undefined) r.reported = claimed;
    r.seen = true;
  }
  toString() {
    return `checkIn(radio ${this.radio}, ${this.claims})`;
  }
}

class Report implements Cmd {
  constructor(
    readonly radio: number,
    readonly which: number | "told",
    readonly state: ReportState,
    /** What it says instead when the deployment is a firmware one (with a download's progress). */
    readonly firmwareState: FirmwareReportState = "updated",
    readonly progress = 50,
  ) {}
  check(m: Readonly<Model>) {
    return m.deployments.length > 0 && m.radios.some((r) => r.present);
  }
  async run(m: Model) {
    const present = m.radios.filter((r) => r.present);
    const r = present[this.radio % present.length] as ModelRadio;
    const d =
      this.which === "told"
        ? (toldDeployment(m, r, this.progress % 2 === 0 ? "config" : "firmware") ?? (m.deployments.at(-1) as ModelDeployment))
        : (m.deployments[this.which % m.deployments.length] as ModelDeployment);
    if (d.kind === "firmware") return this.reportFirmware(m, d, r);
    const previous = d.reports.get(r.uid);
    const expected: { status: number; changed?: boolean } = !previous
      ? covers(d, r)
        ? { status: 200, changed: true }
        : { status: 409 }
      : previous.state === this.state || progressOf(previous.state) > progressOf(this.state)
        ? { status: 200, changed: false }
        : terminalStates.includes(previous.state)
          ? { status: 409 }
          : { status: 200, changed: true };
    const response = await device(`/deployments/${d.id}/status`, r.uid, { state: this.state });
    const body = (await response.json()) as { changed?: boolean };
    expect({ status: response.status, ...(response.status === 200 ? { changed: body.changed } : {}) }, `${this}`).toEqual(
      expected,
    );
    if (!expected.changed) return;
    const phase = previous?.phase ?? phaseOfBucket(d.shares, r.bucket);
    const attempts = previous?.attempts ?? 0;
    if (this.state === "failed" && attempts < (d.plan.retries?.attempts ?? 0)) {
      // An attempt left: kept in progress, told to try again after the backoff (no failure yet).
      expect((body as { retry?: { attempt: number } }).retry?.attempt, `${this} is a retry`).toBe(attempts + 1);
      d.reports.set(r.uid, { state: "delivered", phase, attempts: attempts + 1 });
      return;
    }
    d.reports.set(r.uid, { state: this.state, phase, attempts });
    // An applied report is the radio's revision and a contact; progress reports are neither.
    if (successStates.includes(this.state)) {
      r.reported = d.revisionId;
      r.seen = true;
    }
    if (terminalStates.includes(this.state)) afterFinalReport(m, d, phase, this.state);
  }
  /** A firmware report (firmware-reports.ts): forward only by stage and progress, a different end after an end refused. */
  async reportFirmware(m: Model, d: ModelDeployment, r: ModelRadio) {
    const said = {
      state: this.firmwareState,
      ...(this.firmwareState === "downloading" ? { progress: this.progress } : {}),
      ...(this.firmwareState === "failed" ? { stage: "verify" as const, code: "hash-mismatch" } : {}),
    };
    const next = storedReport(said);
    const previous = d.reports.get(r.uid);
    const stored = previous && {
      state: previous.state,
      stage: (previous.stage ?? null) as never,
      progress: previous.progress ?? null,
    };
    const expected: { status: number; changed?: boolean } = !stored
      ? covers(d, r)
        ? { status: 200, changed: true }
        : { status: 409 }
      : terminalStates.includes(stored.state)
        ? (stored.state === next.state && stored.stage === next.stage) || !terminalStates.includes(next.state)
          ? { status: 200, changed: false }
          : { status: 409 }
        : firmwareRank(stored) >= firmwareRank(next)
          ? { status: 200, changed: false }
          : { status: 200, changed: true };
    const response = await device(`/deployments/${d.id}/status`, r.uid, said);
    const body = (await response.json()) as { changed?: boolean; retry?: { attempt: number } };
    expect({ status: response.status, ...(response.status === 200 ? { changed: body.changed } : {}) }, `${this}`).toEqual(
      expected,
    );
    if (!expected.changed) return;
    const phase = previous?.phase ?? phaseOfBucket(d.shares, r.bucket);
    const attempts = previous?.attempts ?? 0;
    if (next.state === "failed" && attempts < (d.plan.retries?.attempts ?? 0)) {
      expect(body.retry?.attempt, `${this} is a retry`).toBe(attempts + 1);
      d.reports.set(r.uid, { state: "delivered", phase, attempts: attempts + 1, stage: null, progress: null });
      return;
    }
    d.reports.set(r.uid, { ...next, phase, attempts });
    if (next.stage === "updated" && d.packageIndex !== null) r.firmware = PACKAGES[d.packageIndex]?.version ?? r.firmware;
    if (terminalStates.includes(next.state)) afterFinalReport(m, d, phase, next.state);
  }
  toString() {
    return `report(radio ${this.radio}, #${this.which}, ${this.state} | ${this.firmwareState}${this.firmwareState === "downloading" ? ` ${this.progress}%` : ""})`;
  }
}

/** A firmware deployment of one of the world's packages (deployments.create with firmwarePackageId). */
class ConfirmFirmware implements Cmd {
  constructor(
    readonly plan: Plan,
    readonly packageIndex: number,
    readonly site: 0 | 1 | null,
  ) {}
  check() {
    return true;
  }
  async run(m: Model, real: Real) {
    const pkg = PACKAGES[this.packageIndex] as (typeof PACKAGES)[number];
    const aimed = await confirmedTarget(real, this.site);
    const target = withModelFit(("target" in aimed.real ? aimed.real.target : null) ?? null, pkg.models);
    const created = await confirmDeployment(deps(), {
      accountId: real.accountId,
      orgId: real.orgId,
      actor: ACTOR,
      plan: this.plan,
      switchover: { mode: "delivery" },
      note: "",
      target,
      firmware: { packageId: m.packages[this.packageIndex] as string, version: pkg.version, previousPackageId: null },
    });
    // It names the configuration in force (or freezes one when none went out yet): never a new one to deploy.
    const current = currentConfig(m);
    if (current) expect(created.revisionId, "a firmware deployment names the configuration in force").toBe(current.revisionId);
    const d: ModelDeployment = {
      id: created.id,
      number: (m.deployments.at(-1)?.number ?? 0) + 1,
      kind: "firmware",
      packageIndex: this.packageIndex,
      fit: [...pkg.models],
      revisionId: created.revisionId,
      previousRevisionId: current?.revisionId ?? null,
      plan: this.plan,
      shares: this.plan.phases.map((p) => p.share),
      state: "running",
      phaseIndex: 0,
      started: true,
      pauseReason: null,
      waiting: false,
      timeoutPending: true,
      pacedTo: null,
      timedOutPhase: -1,
      reports: new Map(),
      target: aimed.model,
    };
    // A revision it froze is the account's own (a radio reporting it is not drifted).
    if (!current) m.revisions.set(-d.number, created.revisionId);
    expect(created.number).toBe(d.number);
    expect(created.kind).toBe("firmware");
    d.pacedTo = firstMinute(m, d);
    m.deployments.push(d);
    supersedeOlder(m, d);
    passEmptyPhase(m, d);
  }
  toString() {
    return `confirmFirmware(${PACKAGES[this.packageIndex]?.version}, ${this.plan.phases.map((p) => p.share).join("/")}, site ${this.site})`;
  }
}

class AddRadio implements Cmd {
  check(m: Readonly<Model>) {
    return m.radios.some((r) => !r.added);
  }
  async run(m: Model, real: Real) {
    const r = m.radios.find((radio) => !radio.added) as ModelRadio;
    await registerRadio(real, r);
    r.added = true;
    r.present = true;
  }
  toString() {
    return "addRadio";
  }
}

class RetireRadio implements Cmd {
  constructor(readonly radio: number) {}
  check(m: Readonly<Model>) {
    return m.radios.filter((r) => r.present).length > 1;
  }
  async run(m: Model) {
    const present = m.radios.filter((r) => r.present);
    const r = present[this.radio % present.length] as ModelRadio;
    await env.DB.prepare("UPDATE devices SET status = 'retired', retired_at = ? WHERE uid = ?")
      .bind(new Date().toISOString(), r.uid)
      .run();
    r.present = false;
  }
  toString() {
    return `retire(radio ${this.radio})`;
  }
}

/**
 * A radio's attributes change (what rules read): a change to deploy, never a different revision
 * now; and it moves to a site (or none): into or out of a site's deployment mid-rollout.
 */
class MoveRadio implements Cmd {
  constructor(
    readonly radio: number,
    readonly site: 0 | 1 | null = null,
  ) {}
  check(m: Readonly<Model>) {
    return m.radios.some((r) => r.present);
  }
  async run(m: Model, real: Real) {
    const present = m.radios.filter((r) => r.present);
    const r = present[this.radio % present.length] as ModelRadio;
    const site = this.site === null ? null : real.sites[this.site];
    await env.DB.prepare("UPDATE devices SET tags = ?, site_id = ?, attributes_changed_at = ? WHERE uid = ?")
      .bind(JSON.stringify([`moved-${this.radio}`]), site, new Date().toISOString(), r.uid)
      .run();
    r.site = site;
  }
  toString() {
    return `move(radio ${this.radio}, site ${this.site})`;
  }
}

/** Every timed step becomes due: timeouts, waits between phases, scheduled starts. */
class ClockStep implements Cmd {
  check() {
    return true;
  }
  async run(m: Model, real: Real) {
    real.clock.offsetMs += 8 * DAY;
    await stepDueDeployments(env, new Date(Date.now() + real.clock.offsetMs));
    for (const d of m.deployments) {
      if (d.timeoutPending && (d.state === "running" || d.state === "paused" || d.state === "finished")) {
        d.timedOutPhase = d.state === "finished" ? 99 : d.phaseIndex;
        d.timeoutPending = false;
      }
    }
    for (const d of [...m.deployments].reverse()) {
      if (d.state === "scheduled" && d.approval === "pending") {
        // Nobody decided before the expiry (every clock step passes it): it ends, never started.
        d.state = "cancelled";
        d.approval = "expired";
      } else if (d.state === "scheduled") {
        d.state = "running";
        d.started = true;
        d.timeoutPending = true;
        d.pacedTo = firstMinute(m, d);
        supersedeOlder(m, d);
        passEmptyPhase(m, d);
      } else if (d.state === "running" && d.waiting) openNextPhase(m, d);
      else if (d.state === "running" && d.pacedTo !== null) {
        // Days of a pace's minutes: the whole phase is offered, and its radios' timeout starts again.
        d.pacedTo = null;
        d.timeoutPending = true;
      }
    }
  }
  toString() {
    return "clockStep";
  }
}

const siteArbitrary = fc.constantFrom<0 | 1 | null>(null, null, 0, 1);

// ── Approval (issue 25): confirmed while the account asks for it, decided by a second person ──

type ModelApproval = "pending" | "approved" | "rejected" | "expired";
/** Shorter than a clock step: every clock step expires what nobody decided. */
const APPROVAL_EXPIRY_MS = 4 * DAY;
const APPROVER = { id: "model-approver", email: "approver@example.test" };

/** What a deployment's approval reads as: pending only while it is still scheduled (then withdrawn: none). */
function approvalShown(d: ModelDeployment): string {
  if (!d.approval) return "none";
  return d.approval === "pending" && d.state !== "scheduled" ? "none" : d.approval;
}

/** A decision on a deployment: the second person approves or rejects; the author's own is always refused. */
class Decide implements Cmd {
  constructor(
    readonly which: number,
    readonly decision: "approve" | "reject" | "author-approves",
  ) {}
  check(m: Readonly<Model>) {
    return m.deployments.length > 0;
  }
  async run(m: Model) {
    const d = m.deployments[this.which % m.deployments.length] as ModelDeployment;
    const waiting = d.state === "scheduled" && d.approval === "pending";
    const outcome = await decideOnDeployment(deps(), await realDeployment(d.id), {
      actor: this.decision === "author-approves" ? ACTOR : APPROVER,
      approve: this.decision !== "reject",
      note: this.decision === "reject" ? "no" : "",
    }).then(
      () => "decided",
      (error: unknown) => {
        if (error instanceof ApprovalRefused) return error.refusal;
        throw error;
      },
    );
    const expected = !waiting ? "not-awaiting" : this.decision === "author-approves" ? "author" : "decided";
    expect(outcome, `${this} on #${d.number} (${d.state}, ${d.approval ?? "no approval"})`).toBe(expected);
    if (outcome !== "decided") return;
    if (this.decision === "reject") {
      d.state = "cancelled";
      d.approval = "rejected";
      return;
    }
    d.approval = "approved";
    // Approved with its start ahead, it waits for the clock like any scheduled deployment; else it starts now.
    if (!d.plan.startAt) {
      d.state = "running";
      d.started = true;
      d.timeoutPending = true;
      d.pacedTo = firstMinute(m, d);
      supersedeOlder(m, d);
      passEmptyPhase(m, d);
    }
  }
  toString() {
    return `${this.decision}(#${this.which})`;
  }
}

const approvalArbitraries = [
  fc
    .tuple(planArbitrary, fc.integer({ min: 1, max: 4 }), fc.boolean())
    .map(([plan, version, scheduled]) => new Confirm(plan, version, scheduled, null, null, true)),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(fc.nat(20), fc.constantFrom("approve" as const, "approve" as const, "reject" as const, "author-approves" as const))
      .map(([which, decision]) => new Decide(which, decision)),
  ),
];

/** Every deployment's approval as the model has it. */
async function checkApprovals(m: Model): Promise<void> {
  for (const d of m.deployments) {
    expect((await findApproval(env.DB, d.id)).approval, `approval of #${d.number}`).toBe(approvalShown(d));
  }
}

const confirmArbitrary = fc
  .tuple(planArbitrary, fc.integer({ min: 1, max: 4 }), fc.boolean(), fc.boolean(), siteArbitrary)
  .map(([plan, version, scheduled, later, site]) => new Confirm(plan, version, scheduled && later, null, site));
const reportToldArbitrary = fc
  .tuple(fc.nat(20), fc.constantFrom(...reportStates), fc.constantFrom(...firmwareReportStates), fc.nat(100))
  .map(([radio, state, firmwareState, progress]) => new Report(radio, "told", state, firmwareState, progress));
const confirmFirmwareArbitrary = fc
  .tuple(planArbitrary, fc.nat(PACKAGES.length - 1), siteArbitrary)
  .map(([plan, packageIndex, site]) => new ConfirmFirmware(plan, packageIndex, site));

/** Weighted by repetition: decisions and the radios' answers to them are most of a fleet's life. */
export const commandArbitraries = [
  confirmArbitrary,
  confirmArbitrary,
  confirmArbitrary,
  fc.nat(20).map((which) => new Confirm(allAtOnce(), 0, false, which)),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(fc.nat(20), fc.constantFrom("pause" as const, "resume" as const, "advance" as const, "cancel" as const))
      .map(([which, action]) => new Act(which, action)),
  ),
  ...Array.from({ length: 2 }, () =>
    fc
      .tuple(fc.nat(20), fc.constantFrom("nothing" as const, "told" as const, "foreign" as const, "old" as const))
      .map(([radio, claims]) => new CheckIn(radio, claims)),
  ),
  reportToldArbitrary,
  reportToldArbitrary,
  reportToldArbitrary,
  reportToldArbitrary,
  fc
    .tuple(fc.nat(20), fc.nat(20), fc.constantFrom(...reportStates), fc.constantFrom(...firmwareReportStates), fc.nat(100))
    .map(([radio, which, state, firmwareState, progress]) => new Report(radio, which, state, firmwareState, progress)),
  confirmFirmwareArbitrary,
  confirmFirmwareArbitrary,
  fc.constant(new AddRadio()),
  fc.nat(20).map((radio) => new RetireRadio(radio)),
  fc.tuple(fc.nat(20), siteArbitrary).map(([radio, site]) => new MoveRadio(radio, site)),
  fc.tuple(fc.nat(20), siteArbitrary).map(([radio, site]) => new MoveRadio(radio, site)),
  fc.nat(20).map((which) => new RetryFailed(which)),
  fc.constant(new ClockStep()),
  ...approvalArbitraries,
];

// ── Invariants, after every step ──────────────────────────────────────────────────────────

const emptyShown = () => Object.fromEntries(shownStates.map((s) => [s, 0])) as Record<ShownState, number>;

/** A radio is never sent back to an older decision of a kind unless that decision was withdrawn from it. */
function neverSentBack(m: Model, r: ModelRadio, kind: ModelDeployment["kind"], want: ModelDeployment | null) {
  const key = `${kind}:${r.uid}`;
  const before = m.told.get(key);
  if (before && want && before !== want.id) {
    const old = m.deployments.find((d) => d.id === before) as ModelDeployment;
    // Only a pause or a cancel withdraws a decision, and only from radios that had not started;
    // or the radio left its target before it started (moved away, or no longer failed).
    const withdrawn =
      !old.reports.has(r.uid) &&
      (old.state === "paused" ||
        old.state === "cancelled" ||
        (old.state === "superseded" && old.pauseReason !== null) ||
        !inModelTarget(old, r));
    expect(
      want.number > old.number || withdrawn,
      `${r.uid} sent back from #${old.number} to #${want.number} while #${old.number} still gives it`,
    ).toBe(true);
  }
  m.told.set(key, want?.id ?? null);
}

export async function checkInvariants(m: Model, real: Real): Promise<void> {
  // Deployments: state and phase as the model says; at most one running or paused.
  const rows = await listDeployments(env.DB, real.accountId, null, 1000);
  expect(
    rows.map((row) => ({ number: row.number, state: row.state, phase: row.phaseIndex, timedOut: row.timedOutPhase })).reverse(),
  ).toEqual(m.deployments.map((d) => ({ number: d.number, state: d.state, phase: d.phaseIndex, timedOut: d.timedOutPhase })));
  const live = m.deployments.filter((d) => d.state === "running" || d.state === "paused").map(targetKey);
  expect(live.length, "one running or paused deployment per target").toBe(new Set(live).size);
  await checkApprovals(m);

  // Reports as the model has them: none lost, none moved backwards.
  const { results: stored } = await env.DB.prepare(
    `SELECT x.deployment_id, x.uid, x.state, x.stage, x.progress FROM deployment_devices x JOIN deployments d ON d.id = x.deployment_id
     WHERE d.account_id = ? ORDER BY x.deployment_id, x.uid`,
  )
    .bind(real.accountId)
    .all<{ deployment_id: string; uid: string; state: string }>();
  const expected = m.deployments
    .flatMap((d) =>
      [...d.reports].map(([uid, r]) => ({
        deployment_id: d.id,
        uid,
        state: r.state,
        stage: r.stage ?? null,
        progress: r.progress ?? null,
      })),
    )
    .sort((a, b) => (a.deployment_id + a.uid < b.deployment_id + b.uid ? -1 : 1));
  expect(stored).toEqual(expected);

  // What each radio is told, and never sent back to a decision a later one replaced.
  const ours = new Set(m.revisions.values());
  const recount: SyncCounts = emptySyncCounts();
  for (const r of m.radios.filter((radio) => radio.present)) {
    const loaded = await loadRadio(env.DB, r.uid);
    if (!loaded.radio) throw new Error(`radio ${r.uid} is gone`);
    const state = radioState(loaded.radio, loaded.deployments, loaded.reports);
    expect(loaded.radio.firmware, `firmware recorded for ${r.uid}`).toBe(r.firmware);
    for (const kind of ["config", "firmware"] as const) {
      const want = toldDeployment(m, r, kind);
      const followed = kind === "config" ? state.desired : state.firmware;
      expect(followed?.id ?? null, `${kind} deployment ${r.uid} follows`).toBe(want?.id ?? null);
      neverSentBack(m, r, kind, want);
    }
    const sync = syncOfRadio(state, loaded.radio.reported_revision ? ours.has(loaded.radio.reported_revision) : false);
    expect(sync, `sync state of ${r.uid}`).toBe(modelSync(m, r));
    recount.total += 1;
    recount.sync[sync] += 1;
    recount.contact[r.seen ? "recent" : "neverSeen"] += 1;
  }
  expect(await syncCounts(env.DB, real.accountId)).toEqual(recount);

  // Counts per state equal the model's and the radios listed per state (the newest two).
  for (const d of m.deployments.slice(-2)) {
    const row = rows.find((r) => r.id === d.id) as Deployment;
    const counts = await deploymentCounts(env.DB, row);
    const want = emptyShown();
    for (const r of m.radios) {
      const shown = shownStateOf(d, r);
      if (shown) want[shown] += 1;
    }
    const got = emptyShown();
    for (const [state, n] of Object.entries(counts.total)) got[state as ShownState] += n ?? 0;
    expect(got, `counts of #${d.number}`).toEqual(want);
    for (const state of shownStates.filter((s) => want[s] > 0)) {
      const listed = await listDeploymentRadios(env.DB, row, state, "", 1000);
      expect(listed.length, `${state} radios listed for #${d.number}`).toBe(want[state]);
    }
  }
}

// ── One run ───────────────────────────────────────────────────────────────────────────────

let runs = 0;

/** A fresh account with `initial` radios (of `pool` that may join later), spread over the buckets. */
export async function freshWorld(initial = 6, pool = 9): Promise<{ model: Model; real: Real }> {
  runs += 1;
  const orgId = await createOrganization(`Model ${runs}`);
  const accountId = await createAccount(orgId, `Model fleet ${runs}`);
  await giveSeats(orgId, accountId, 50);
  const sites: [string, string] = [`site_${runs}_a`, `site_${runs}_b`];
  for (const [i, site] of sites.entries())
    await env.DB.prepare("INSERT INTO sites (id, account_id, name) VALUES (?, ?, ?)").bind(site, accountId, `Site ${i}`).run();
  const real: Real = { orgId, accountId, clock: { offsetMs: 0 }, sites };
  const radios: ModelRadio[] = Array.from({ length: pool }, (_, i) => {
    const uid = `MDL${runs}-${i}`;
    const model = RADIO_MODELS[i % 3 === 2 ? 1 : 0] as string;
    return {
      uid,
      bucket: bucketOf(uid),
      present: false,
      added: false,
      reported: null,
      seen: false,
      site: null,
      model,
      firmware: "1.0.0",
    };
  });
  for (const r of radios.slice(0, initial)) {
    await registerRadio(real, r);
    r.added = true;
    r.present = true;
  }
  const packages = PACKAGES.map((_, i) => `fw_${runs}_${i}`);
  for (const [i, pkg] of PACKAGES.entries())
    await env.DB.prepare(
      `INSERT INTO firmware_packages (id, org_id, version, models, state, object_key, size, sha256, signature, key_id, created_by)
       VALUES (?, ?, ?, ?, 'ready', ?, 1, '', '', '', 'model')`,
    )
      .bind(packages[i], orgId, pkg.version, JSON.stringify(pkg.models), `packages/${packages[i]}`)
      .run();
  return { model: { deployments: [], radios, revisions: new Map(), told: new Map(), packages }, real };
}

/** Runs `commands` against a fresh world, checking the invariants after every step; answers how many ran. */
export async function runModel(commands: Iterable<Cmd>): Promise<number> {
  const world = await freshWorld();
  await checkInvariants(world.model, world.real);
  let ran = 0;
  for (const command of commands) {
    if (!command.check(world.model)) continue;
    await command.run(world.model, world.real);
    await checkInvariants(world.model, world.real);
    ran += 1;
  }
  return ran;
}

export const modelCommands = (maxCommands: number) => fc.commands(commandArbitraries, { maxCommands, size: "max" });

/**
 * Targets (issue 25) under pressure: rollouts to a site or to every radio, radios moving between
 * sites mid-rollout, failures and rejections, timeouts, and retries of the failed radios.
 */
const failingReportArbitrary = fc
  .tuple(
    fc.nat(20),
    fc.constantFrom<ReportState>("failed", "rejected", "applied", "delivered"),
    fc.constantFrom<FirmwareReportState>("failed", "booted-old", "rejected", "updated", "downloading"),
    fc.nat(100),
  )
  .map(([radio, state, firmwareState, progress]) => new Report(radio, "told", state, firmwareState, progress));
const wideConfirmArbitrary = fc
  .tuple(
    fc.oneof(planArbitrary, fc.constant(allAtOnce()), fc.constant(allAtOnce())),
    fc.integer({ min: 1, max: 4 }),
    siteArbitrary,
  )
  .map(([plan, version, site]) => new Confirm(plan, version, false, null, site));
export const targetCommands = (maxCommands: number) =>
  fc.commands(
    [
      wideConfirmArbitrary,
      wideConfirmArbitrary,
      fc
        .tuple(fc.constant(allAtOnce()), fc.nat(PACKAGES.length - 1), siteArbitrary)
        .map(([plan, packageIndex, site]) => new ConfirmFirmware(plan, packageIndex, site)),
      failingReportArbitrary,
      failingReportArbitrary,
      failingReportArbitrary,
      fc.tuple(fc.nat(20), siteArbitrary).map(([radio, site]) => new MoveRadio(radio, site)),
      fc.tuple(fc.nat(20), siteArbitrary).map(([radio, site]) => new MoveRadio(radio, site)),
      fc.nat(20).map((which) => new RetryFailed(which)),
      fc.nat(20).map((which) => new RetryFailed(which)),
      fc.nat(20).map((which) => new RetryFailed(which)),
      fc
        .tuple(fc.nat(20), fc.constantFrom("nothing" as const, "told" as const))
        .map(([radio, claims]) => new CheckIn(radio, claims)),
      fc.constant(new ClockStep()),
      fc.constant(new AddRadio()),
    ],
    { maxCommands, size: "max" },
  );
