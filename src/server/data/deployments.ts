import {
  DEFAULT_TIMEOUT_MINUTES,
  type DeploymentState,
  type Plan,
  planSchema,
  type ReportState,
  type ShownState,
  type Switchover,
  switchoverSchema,
} from "@/schema/fleet/deployment-plan";
import { type DeploymentTarget, parseDeploymentTarget } from "@/schema/fleet/deployment-target";
import type { FirmwareStage } from "@/schema/fleet/firmware-manifest";
import { firmwareRankSql } from "@/schema/fleet/firmware-report";
import type { PaceOpening } from "@/schema/fleet/pace-and-retries";
import { BUCKETS, bucketRange } from "@/schema/fleet/rollout";
import type { D1PreparedStatement } from "../cloudflare";
import { all, type Bindable, type Db, first, jsonObjectOf, statement } from "./db";
import { targetColumnsSql, targetMatchSql } from "./deployment-target-sql";

/**
 * Deployments (DESIGN.md §7): rows of their own, and what radios reported about them. Counts
 * are one grouped query; "pending" is targeted minus reported; nothing is stored per radio
 * until the radio reports.
 */
export type Deployment = {
  id: string;
  accountId: string;
  orgId: string;
  number: number;
  revisionId: string;
  revisionNumber: number;
  previousRevisionId: string | null;
  rollbackOf: string | null;
  state: DeploymentState;
  pauseReason: string | null;
  plan: Plan;
  switchover: Switchover;
  /** The radios it is for, frozen at confirmation (null: every radio of the account). */
  target: DeploymentTarget | null;
  phaseIndex: number;
  phaseStartedAt: string | null;
  nextStepAt: string | null;
  /** Phases 0..timedOutPhase have timed out: their radios that never reported are "timed out" (-1: none). */
  timedOutPhase: number;
  /** When the radios of the phases opened so far time out (the clock's alarm), if still ahead. */
  timeoutAt: string | null;
  /** A paced phase: the buckets [0, pacedTo) offered so far (null: the opened phases whole). */
  pacedTo: number | null;
  paceOffered: number;
  paceRate: number | null;
  /** When the clock next widens a paced phase. */
  paceAt: string | null;
  targeted: number;
  note: string;
  createdBy: string;
  createdAt: string;
  startedAt: string | null;
  endedAt: string | null;
  updatedAt: string;
  version: number;
  /** 'firmware': its radios install `package` (issue 26); revisionId is then only the configuration in force when confirmed. */
  kind: DeploymentKind;
  package: DeployedPackage | null;
  /** What "roll back" installs again (a firmware deployment). */
  previousPackage: { id: string; version: string } | null;
};

export type DeploymentKind = "config" | "firmware";

/** A firmware deployment's package, as radios are told of it (docs/device-protocol.md). */
export type DeployedPackage = {
  id: string;
  version: string;
  sha256: string;
  size: number;
  signature: string;
  keyId: string;
  models: string[];
};

type Row = {
  id: string;
  account_id: string;
  org_id: string;
  number: number;
  revision_id: string;
  revision_number: number;
  previous_revision_id: string | null;
  rollback_of: string | null;
  state: DeploymentState;
  pause_reason: string | null;
  plan: string;
  switchover: string;
  target: string | null;
  phase_index: number;
  phase_started_at: string | null;
  timed_out_phase: number;
  timeout_at: string | null;
  paced_to: number | null;
  pace_offered: number;
  pace_rate: number | null;
  pace_at: string | null;
  next_step_at: string | null;
  targeted: number;
  note: string;
  created_by: string;
  created_at: string;
  started_at: string | null;
  ended_at: string | null;
  updated_at: string;
  version: number;
  kind: DeploymentKind | null;
  package_id: string | null;
  package_version: string | null;
  package_sha256: string | null;
  package_size: number | null;
  package_signature: string | null;
  package_key_id: string | null;
  package_models: string | null;
  previous_package_id: string | null;
  previous_package_version: string | null;
};

const columns = `d.id, d.account_id, d.org_id, d.number, d.revision_id, r.number AS revision_number, d.previous_revision_id,
  d.rollback_of, d.state, d.pause_reason, d.plan, d.switchover, d.target, d.phase_index, d.phase_started_at, d.next_step_at,
  d.timed_out_phase, d.timeout_at, d.paced_to, d.pace_offered, d.pace_rate, d.pace_at,
  d.targeted, d.note, d.created_by, d.created_at, d.started_at, d.ended_at, d.updated_at, d.version,
  d.kind, d.package_id, fp.version AS package_version, fp.sha256 AS package_sha256, fp.size AS package_size,
  fp.signature AS package_signature, fp.key_id AS package_key_id, fp.models AS package_models,
  d.previous_package_id, pp.version AS previous_package_version`;
const from = `deployments d JOIN revisions r ON r.id = d.revision_id
  LEFT JOIN firmware_packages fp ON fp.id = d.package_id LEFT JOIN firmware_packages pp ON pp.id = d.previous_package_id`;

/**
 * Stored plans and switchovers, parsed once per isolate: every check-in reads the account's
 * recent deployments, and their JSON never changes once written (the text is the key, so an
 * edit is simply a new entry). Bounded; the oldest entry goes first.
 */
const parsedJson = new Map<string, unknown>();
const PARSED_KEPT = 500;

function parsed<T>(
  schema: { safeParse(v: unknown): { success: true; data: T } | { success: false } },
  json: string,
  fallback: T,
): T {
  const key = `${schema === planSchema ? "p" : schema === targetJson ? "t" : "s"}${json}`;
  if (parsedJson.has(key)) return parsedJson.get(key) as T;
  let value = fallback;
  try {
    const result = schema.safeParse(JSON.parse(json));
    if (result.success) value = result.data;
  } catch {
    // Unreadable: the fallback, as before.
  }
  if (parsedJson.size >= PARSED_KEPT) parsedJson.delete(parsedJson.keys().next().value as string);
  parsedJson.set(key, value);
  return value;
}

const NO_RADIO: DeploymentTarget = { kind: "filter", none: true };

/** A stored target through `parsed`'s cache (unreadable: a target that holds no radio). */
const targetJson = {
  safeParse: (value: unknown) => ({ success: true as const, data: parseDeploymentTarget(JSON.stringify(value)) }),
};

const FALLBACK_PLAN: Plan = {
  phases: [
    {
      share: 100,
      successPercent: 100,
      successAction: "next",
      errorKind: "count",
      errorValue: 1,
      errorMinimum: 0,
      waitMinutes: 0,
    },
  ],
};

export function toDeployment(row: Row): Deployment {
  return {
    id: row.id,
    accountId: row.account_id,
    orgId: row.org_id,
    number: row.number,
    revisionId: row.revision_id,
    revisionNumber: row.revision_number,
    previousRevisionId: row.previous_revision_id,
    rollbackOf: row.rollback_of,
    state: row.state,
    pauseReason: row.pause_reason,
    plan: parsed(planSchema, row.plan, FALLBACK_PLAN),
    switchover: parsed(switchoverSchema, row.switchover, { mode: "delivery" } as Switchover),
    target: row.target === null ? null : parsed<DeploymentTarget | null>(targetJson, row.target, NO_RADIO),
    phaseIndex: row.phase_index,
    phaseStartedAt: row.phase_started_at,
    nextStepAt: row.next_step_at,
    timedOutPhase: row.timed_out_phase,
    timeoutAt: row.timeout_at,
    pacedTo: row.paced_to,
    paceOffered: row.pace_offered,
    paceRate: row.pace_rate,
    paceAt: row.pace_at,
    targeted: row.targeted,
    note: row.note,
    createdBy: row.created_by,
    createdAt: row.created_at,
    startedAt: row.started_at,
    endedAt: row.ended_at,
    updatedAt: row.updated_at,
    version: row.version,
    kind: row.kind ?? "config",
    package: row.package_id ? packageOf(row) : null,
    previousPackage:
      row.previous_package_id && row.previous_package_version
        ? { id: row.previous_package_id, version: row.previous_package_version }
        : null,
  };
}

function packageOf(row: Row): DeployedPackage {
  let models: string[] = [];
  try {
    const parsedModels: unknown = JSON.parse(row.package_models ?? "[]");
    if (Array.isArray(parsedModels)) models = parsedModels.map(String);
  } catch {
    // No models: it fits no radio.
  }
  return {
    id: row.package_id ?? "",
    version: row.package_version ?? "",
    sha256: row.package_sha256 ?? "",
    size: row.package_size ?? 0,
    signature: row.package_signature ?? "",
    keyId: row.package_key_id ?? "",
    models,
  };
}

/** One deployment, as a statement: the last of a batch that writes it reads it back in the same round trip. */
export function deploymentStatement(db: Db, id: string): D1PreparedStatement {
  return statement(db, `SELECT ${columns} FROM ${from} WHERE d.id = ?`, id);
}

/** The deployment a `deploymentStatement` read, if any. */
export function deploymentOf(result: { results?: unknown[] } | undefined): Deployment | null {
  const row = result?.results?.[0] as Row | undefined;
  return row ? toDeployment(row) : null;
}

export async function findDeployment(db: Db, id: string): Promise<Deployment | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM ${from} WHERE d.id = ?`, id);
  return row ? toDeployment(row) : null;
}

/** An account's deployments, newest first, a page at a time (keyset on number). */
export async function listDeployments(db: Db, accountId: string, before: number | null, limit: number): Promise<Deployment[]> {
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM ${from} WHERE d.account_id = ? AND d.number < ? ORDER BY d.number DESC LIMIT ?`,
    accountId,
    before ?? Number.MAX_SAFE_INTEGER,
    limit,
  );
  return rows.map(toDeployment);
}

/**
 * A deployment whose decision gives its revision to every radio of the account (finished, or
 * running — or superseded while running — with its last phase open): nothing older can be what
 * a radio follows (desired-deployment.ts), so a radio's read stops there.
 */
const coversEveryRadioSql = `kind = 'config' AND target IS NULL AND (state = 'finished' OR (paced_to IS NULL AND (state IN ('running', 'superseded') AND started_at IS NOT NULL
  AND pause_reason IS NULL AND phase_index = json_array_length(plan, '$.phases') - 1)))`;

/** At most this many deployments concern a radio; past it, older ones are forgotten (the radio keeps what it has). */
export const DEPLOYMENTS_CONSIDERED = 50;

/**
 * The account's deployments that may concern a radio (`accountId` is a column or parameter),
 * newest first, with `decided_to`: the buckets [0, decided_to) its decision gives its revision
 * to (desired-deployment.ts decidedBuckets, in SQL: a share of s % is the buckets below 100·s).
 */
export function deploymentsConcerningRadiosSql(accountId: string): string {
  return `SELECT d.id, d.number, d.revision_id, ${targetColumnsSql},
       CASE WHEN d.state = 'finished' THEN ${BUCKETS}
         WHEN d.state = 'running' OR (d.state = 'superseded' AND d.started_at IS NOT NULL AND d.pause_reason IS NULL)
         THEN min(CAST(ifnull(json_extract(d.plan, '$.phases[' || d.phase_index || '].share'), 100) * ${BUCKETS / 100} AS INTEGER),
           ifnull(d.paced_to, ${BUCKETS}))
         ELSE 0 END AS decided_to
     FROM deployments d WHERE d.account_id = ${accountId} AND d.state <> 'scheduled' AND d.kind = 'config'
       AND d.number >= (SELECT ifnull(max(number), 0) FROM deployments WHERE account_id = ${accountId} AND ${coversEveryRadioSql})
     ORDER BY d.number DESC LIMIT ${DEPLOYMENTS_CONSIDERED}`;
}

/**
 * The account's deployments that may concern a radio, newest first down to the newest that
 * covers every radio, as one JSON array of rows (parse them with `toDeployment`), for a subquery
 * of the radio's single read (device-checkins.ts); `accountId` is the outer query's column.
 */
export function recentDeploymentsJsonSql(accountId: string): string {
  return `(SELECT json_group_array(${jsonObjectOf(columns)}) FROM (
     SELECT * FROM (SELECT ${columns} FROM ${from} WHERE d.account_id = ${accountId} AND d.state <> 'scheduled' AND d.kind = 'config'
       AND d.number >= (SELECT ifnull(max(number), 0) FROM deployments WHERE account_id = ${accountId} AND ${coversEveryRadioSql})
     ORDER BY d.number DESC LIMIT ${DEPLOYMENTS_CONSIDERED})
     UNION ALL
     SELECT * FROM (SELECT ${columns} FROM ${from}
       WHERE d.account_id = ${accountId} AND d.kind = 'firmware' AND d.state <> 'scheduled'
     ORDER BY d.number DESC LIMIT ${FIRMWARE_DEPLOYMENTS_CONSIDERED})))`;
}

/** At most this many firmware deployments concern a radio (a firmware deployment never covers every radio: it has a model fit). */
export const FIRMWARE_DEPLOYMENTS_CONSIDERED = 20;

/** The account's deployments that may concern a radio, newest first (the same rows a radio's read takes). */
export async function deploymentsConcerningRadios(db: Db, accountId: string): Promise<Deployment[]> {
  const row = await first<{ rows: string }>(db, `SELECT ${recentDeploymentsJsonSql("?1")} AS rows`, accountId);
  const rows = JSON.parse(row?.rows ?? "[]") as Row[];
  return rows.map(toDeployment).sort((a, b) => b.number - a.number);
}

export type DeploymentRow = Row;

/** The revision the account's radios got from its newest deployment that went out (roll back's "before"). */
export async function currentRevisionId(db: Db, accountId: string): Promise<string | null> {
  const row = await first<{ revision_id: string }>(
    db,
    "SELECT revision_id FROM deployments WHERE account_id = ? AND kind = 'config' AND state IN ('running', 'paused', 'finished') ORDER BY number DESC LIMIT 1",
    accountId,
  );
  return row?.revision_id ?? null;
}

export type NewDeployment = {
  id: string;
  accountId: string;
  orgId: string;
  revisionId: string;
  previousRevisionId: string | null;
  rollbackOf: string | null;
  state: "scheduled" | "running";
  plan: Plan;
  switchover: Switchover;
  /** Null: every radio of the account, counted by its seat counter. */
  target: DeploymentTarget | null;
  /** Its first phase's pace as it opens (running with a pace), else null. */
  pace: PaceOpening | null;
  /** How many radios the target holds, when the caller counted them (null: counted on insert). */
  targetedCount: number | null;
  nextStepAt: string | null;
  note: string;
  createdBy: string;
  createdAt: string;
  /** The confirming request's key: the same key twice makes one deployment. */
  idempotencyKey: string | null;
  /** A firmware deployment: the package its radios install, and what roll back installs again. */
  firmware?: { packageId: string; previousPackageId: string | null };
};

/** `targeted` of a deployment whose target's radios the clock has yet to count (countTargets). */
export const NOT_COUNTED = -1;

/**
 * The deployment row; its number follows the account's last. Its count of radios: without a
 * target the account's seat counter (devices_in_use, kept by triggers), no scan of the fleet;
 * with one, NOT_COUNTED unless the caller counted: the clock counts it just after (countTargets),
 * so confirming costs the same whatever the target's size.
 */
export function insertDeploymentStatement(db: Db, d: NewDeployment): D1PreparedStatement {
  const counted = d.target ? String(NOT_COUNTED) : "a.devices_in_use";
  return statement(
    db,
    `INSERT INTO deployments (id, account_id, org_id, number, revision_id, previous_revision_id, rollback_of, state, plan,
       switchover, target, phase_index, phase_started_at, next_step_at, timeout_at, targeted, note, created_by, created_at, started_at,
       updated_at, idempotency_key, paced_to, pace_offered, pace_rate, pace_at, kind, package_id, previous_package_id)
     SELECT ?, ?, ?, COALESCE((SELECT MAX(number) FROM deployments WHERE account_id = ?), 0) + 1, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?,
       COALESCE(?, ${counted}), ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?
     FROM accounts a WHERE a.id = ?`,
    d.id,
    d.accountId,
    d.orgId,
    d.accountId,
    d.revisionId,
    d.previousRevisionId,
    d.rollbackOf,
    d.state,
    JSON.stringify(d.plan),
    JSON.stringify(d.switchover),
    d.target === null ? null : JSON.stringify(d.target),
    d.state === "running" ? d.createdAt : null,
    d.nextStepAt,
    d.state === "running" ? timeoutFrom(d.plan, d.createdAt) : null,
    d.target === null ? null : d.targetedCount,
    d.note,
    d.createdBy,
    d.createdAt,
    d.state === "running" ? d.createdAt : null,
    d.createdAt,
    d.idempotencyKey,
    ...paceColumns(d.state === "running" ? d.pace : null),
    d.firmware ? "firmware" : "config",
    d.firmware?.packageId ?? null,
    d.firmware?.previousPackageId ?? null,
    d.accountId,
  );
}

/** paced_to, pace_offered, pace_rate and pace_at of a phase opening with a pace (none: all empty). */
export function paceColumns(opening: PaceOpening | null): [number | null, number, number | null, string | null] {
  if (!opening) return [null, 0, null, null];
  return [opening.pacedTo, opening.offered, opening.rate, opening.paceAt];
}

/** The deployment an earlier request with this key confirmed, if any. */
export async function findDeploymentByKey(db: Db, accountId: string, key: string): Promise<Deployment | null> {
  const row = await first<Row>(
    db,
    `SELECT ${columns} FROM ${from} WHERE d.account_id = ? AND d.idempotency_key = ?`,
    accountId,
    key,
  );
  return row ? toDeployment(row) : null;
}

/** When radios of a phase opened at `openedAt` time out: the plan's timeout, or a day. */
export function timeoutFrom(plan: Plan, openedAt: string): string {
  return new Date(Date.parse(openedAt) + (plan.timeoutMinutes ?? DEFAULT_TIMEOUT_MINUTES) * 60_000).toISOString();
}

/**
 * A deployment starting replaces the account's older active ones (a newer one scheduled for
 * later stays: it is a later decision). One for every radio replaces them all; one with a target
 * replaces only those with the same target (a retry, those retrying the same deployment): a
 * rollout to one site leaves the rest of the fleet's rollout running (each radio follows the
 * newest deployment that holds it). Only of its own kind: a firmware rollout leaves the
 * configuration's running, and the other way round (a radio follows one of each).
 */
export function supersedeOthersStatement(db: Db, accountId: string, keepId: string, at: string): D1PreparedStatement {
  return statement(
    db,
    `UPDATE deployments SET state = 'superseded', ended_at = ?1, next_step_at = NULL, timeout_at = NULL, pace_at = NULL, updated_at = ?1,
       version = version + 1
     WHERE account_id = ?2 AND state IN ('scheduled', 'running', 'paused')
       AND number < (SELECT number FROM deployments WHERE id = ?3)
       AND EXISTS (SELECT 1 FROM deployments n WHERE n.id = ?3 AND n.kind = deployments.kind AND (n.target IS NULL OR n.target = deployments.target
         OR (json_extract(n.target, '$.kind') = 'failedOf' AND json_extract(deployments.target, '$.kind') = 'failedOf'
           AND json_extract(n.target, '$.deploymentId') = json_extract(deployments.target, '$.deploymentId'))))`,
    at,
    accountId,
    keepId,
  );
}

/** The pending changes of the account now belong to this deployment (the banner empties). */
export function linkPendingChangesStatement(db: Db, accountId: string, deploymentId: string): D1PreparedStatement {
  return statement(
    db,
    "UPDATE activity_logs SET deployment_id = ? WHERE account_id = ? AND deployable = 1 AND deployment_id IS NULL",
    deploymentId,
    accountId,
  );
}

export type Transition = {
  to: DeploymentState;
  pauseReason?: string | null;
  phaseIndex?: number;
  nextStepAt?: string | null;
  /** A phase opens: when its radios time out (null: no more timeouts, as on cancel). */
  timeoutAt?: string | null;
  /** A phase opens with a pace: where it starts (paceColumns). */
  pace?: PaceOpening;
};

/**
 * Moves a deployment from one of `from` to another state; a single conditional statement, so
 * two people (or a radio's report and a person) cannot both win. Returns whether it moved.
 */
export function transitionStatement(
  db: Db,
  input: { id: string; from: readonly DeploymentState[]; version?: number; at: string } & Transition,
): D1PreparedStatement {
  const sets = ["state = ?", "updated_at = ?", "version = version + 1", "pause_reason = ?"];
  const params: Bindable[] = [input.to, input.at, input.pauseReason ?? null];
  if (input.phaseIndex !== undefined) {
    sets.push("phase_index = ?", "phase_started_at = ?");
    params.push(input.phaseIndex, input.at);
  }
  if (input.nextStepAt !== undefined) {
    sets.push("next_step_at = ?");
    params.push(input.nextStepAt);
  } else if (input.to !== "running") {
    sets.push("next_step_at = NULL");
  }
  if (input.timeoutAt !== undefined) {
    sets.push("timeout_at = ?");
    params.push(input.timeoutAt);
  } else if (input.to === "cancelled") {
    sets.push("timeout_at = NULL");
  }
  if (input.to === "running") {
    sets.push("started_at = COALESCE(started_at, ?)");
    params.push(input.at);
  }
  if (input.pace) {
    sets.push("paced_to = ?", "pace_offered = ?", "pace_rate = ?", "pace_at = ?");
    params.push(...paceColumns(input.pace));
  } else if (input.to !== "running" && input.to !== "paused") {
    sets.push("pace_at = NULL");
  }
  if (input.to === "finished" || input.to === "cancelled") {
    sets.push("ended_at = ?");
    params.push(input.at);
  }
  const where = [`id = ?`, `state IN (${input.from.map(() => "?").join(", ")})`];
  params.push(input.id, ...input.from);
  if (input.version !== undefined) {
    where.push("version = ?");
    params.push(input.version);
  }
  return statement(db, `UPDATE deployments SET ${sets.join(", ")} WHERE ${where.join(" AND ")}`, ...params);
}

/**
 * The radios of every phase opened so far time out (the clock's sweep), in one statement: their
 * deployment remembers the phase, its radios that never reported then read "timed out". Not a
 * person's edit, so the version stays (nobody's pending action becomes stale).
 */
export async function timeOutDue(db: Db, at: string): Promise<number> {
  const result = await statement(
    db,
    `UPDATE deployments SET timed_out_phase = CASE WHEN state = 'finished' THEN 99 ELSE phase_index END, timeout_at = NULL, updated_at = ?1
     WHERE timeout_at IS NOT NULL AND timeout_at <= ?1 AND state IN ('running', 'paused', 'finished')`,
    at,
  ).run();
  return result.meta.changes ?? 0;
}

/**
 * Deployments whose timed step (next phase, scheduled start) is due, newest of an account first:
 * a newer one starting supersedes an older one before the older's own step could run.
 */
export async function dueDeployments(db: Db, at: string): Promise<string[]> {
  // A pace steps only while its deployment runs (a paused one resumes where it was).
  const rows = await all<{ id: string }>(
    db,
    `SELECT id FROM deployments WHERE id IN (
       SELECT id FROM deployments WHERE next_step_at IS NOT NULL AND next_step_at <= ?1
       UNION SELECT id FROM deployments WHERE pace_at IS NOT NULL AND pace_at <= ?1 AND state = 'running')
     ORDER BY number DESC LIMIT 100`,
    at,
  );
  return rows.map((row) => row.id);
}

/**
 * One step of a paced phase (the clock's): the radios offered so far and the bucket bound they
 * reach, the rate for the next minute, when the next step is due (null: all offered), and the
 * radios' timeout pushed on, so the last ones offered get the plan's whole timeout. Only from
 * the step it was computed on (pace_at) and the phase it was for.
 */
export function paceStepStatement(
  db: Db,
  d: Deployment,
  step: { pacedTo: number | null; offered: number; rate: number; nextAt: string | null; timeoutAt: string; at: string },
): D1PreparedStatement {
  return statement(
    db,
    `UPDATE deployments SET paced_to = ?, pace_offered = ?, pace_rate = ?, pace_at = ?, timeout_at = ?, updated_at = ?
     WHERE id = ? AND state = 'running' AND phase_index = ? AND pace_at = ?`,
    step.pacedTo,
    step.offered,
    step.rate,
    step.nextAt,
    step.timeoutAt,
    step.at,
    d.id,
    d.phaseIndex,
    d.paceAt,
  );
}

// ---- What radios report ----

export type DeviceReport = {
  deploymentId: string;
  state: ReportState;
  phase: number;
  code: string;
  detail: string;
  updatedAt: string;
  /** Failures retried so far (the plan's retries), and when the radio may try again. */
  attempts: number;
  retryAt: string | null;
  /** A firmware report's stage and download progress (null for configuration). */
  stage: FirmwareStage | null;
  progress: number | null;
};

const reportColumns = "deployment_id, state, phase, code, detail, updated_at, attempts, retry_at, stage, progress";

/** The radio's reports as one JSON array of rows (for `toReports`); `uid` is the outer query's column. */
export function deviceReportsJsonSql(uid: string): string {
  return `(SELECT json_group_array(${jsonObjectOf(reportColumns)}) FROM (
     SELECT ${reportColumns} FROM deployment_devices dd WHERE dd.uid = ${uid} ORDER BY dd.deployment_id LIMIT 50))`;
}

export function toReports(
  rows: {
    deployment_id: string;
    state: ReportState;
    phase: number;
    code: string;
    detail: string;
    updated_at: string;
    attempts?: number;
    retry_at?: string | null;
    stage?: FirmwareStage | null;
    progress?: number | null;
  }[],
): Map<string, DeviceReport> {
  return new Map(
    rows.map((r) => [
      r.deployment_id,
      {
        deploymentId: r.deployment_id,
        state: r.state,
        phase: r.phase,
        code: r.code,
        detail: r.detail,
        updatedAt: r.updated_at,
        attempts: r.attempts ?? 0,
        retryAt: r.retry_at ?? null,
        stage: r.stage ?? null,
        progress: r.progress ?? null,
      },
    ]),
  );
}

/**
 * A failure with an attempt left (the plan's retries): the radio's row is kept in progress
 * ("delivered"), not failed, with one more attempt used and when it may try again; only from
 * an in-progress row at the attempts the caller read (two reports at once: one wins).
 */
export function retryReportStatement(
  db: Db,
  input: {
    deploymentId: string;
    uid: string;
    phase: number;
    code: string;
    detail: string;
    at: string;
    retryAt: string;
    attempts: number;
  },
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, detail, updated_at, attempts, retry_at)
     VALUES (?, ?, ?, 'delivered', ?, ?, ?, 1, ?)
     ON CONFLICT (deployment_id, uid) DO UPDATE SET state = 'delivered', code = excluded.code, detail = excluded.detail,
       updated_at = excluded.updated_at, attempts = deployment_devices.attempts + 1, retry_at = excluded.retry_at,
       stage = NULL, progress = NULL
     WHERE deployment_devices.state IN ('delivered', 'applying') AND deployment_devices.attempts = ?`,
    input.deploymentId,
    input.uid,
    input.phase,
    input.code,
    input.detail,
    input.at,
    input.retryAt,
    input.attempts,
  );
}

/**
 * A radio's report: written when new, or when it moves the radio forward (delivered →
 * applying → a final state); the same report twice changes nothing.
 */
export function upsertReportStatement(
  db: Db,
  input: { deploymentId: string; uid: string; phase: number; state: ReportState; code: string; detail: string; at: string },
): D1PreparedStatement {
  const rank = (column: string) => `CASE ${column} WHEN 'delivered' THEN 1 WHEN 'applying' THEN 2 ELSE 3 END`;
  return statement(
    db,
    `INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, detail, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (deployment_id, uid) DO UPDATE SET state = excluded.state, code = excluded.code, detail = excluded.detail,
       updated_at = excluded.updated_at
     WHERE ${rank("deployment_devices.state")} < ${rank("excluded.state")}`,
    input.deploymentId,
    input.uid,
    input.phase,
    input.state,
    input.code,
    input.detail,
    input.at,
  );
}

/**
 * A radio's report on a firmware deployment: as upsertReportStatement, forward only, but ranked
 * by stage and progress too (firmware-report.ts firmwareRankSql), so downloading at 40 % after
 * 60 %, or downloaded after verified, changes nothing. The first report keeps the firmware the
 * radio ran then (what it came from).
 */
export function upsertFirmwareReportStatement(
  db: Db,
  input: {
    deploymentId: string;
    uid: string;
    phase: number;
    state: ReportState;
    stage: FirmwareStage | null;
    progress: number | null;
    code: string;
    detail: string;
    at: string;
  },
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, detail, updated_at, stage, progress, from_firmware)
     VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, (SELECT firmware FROM devices WHERE uid = ?2))
     ON CONFLICT (deployment_id, uid) DO UPDATE SET state = excluded.state, code = excluded.code, detail = excluded.detail,
       updated_at = excluded.updated_at, stage = excluded.stage, progress = excluded.progress
     WHERE ${firmwareRankSql("deployment_devices")} < ${firmwareRankSql("excluded")}`,
    input.deploymentId,
    input.uid,
    input.phase,
    input.state,
    input.code,
    input.detail,
    input.at,
    input.stage,
    input.progress,
  );
}

/** What a radio has reported on a deployment, if anything. */
export async function reportStateOf(db: Db, deploymentId: string, uid: string): Promise<ReportState | undefined> {
  const row = await first<{ state: ReportState }>(
    db,
    "SELECT state FROM deployment_devices WHERE deployment_id = ? AND uid = ?",
    deploymentId,
    uid,
  );
  return row?.state;
}

export type StateCounts = Partial<Record<ShownState, number>>;
export type DeploymentCounts = { total: StateCounts; phases: { targeted: number; counts: StateCounts }[] };

/**
 * Per-state counts for the whole deployment and each phase: one grouped query over the
 * reports, one range count per phase over the devices' bucket index; pending = targeted −
 * reported (cancelled instead once the deployment is cancelled; phases not opened yet count
 * nothing reported).
 */
export async function deploymentCounts(db: Db, deployment: Deployment): Promise<DeploymentCounts> {
  const shares = deployment.plan.phases.map((phase) => phase.share);
  const ranges = shares.map((_, i) => bucketRange(shares, i));
  const [grouped, targets, archived] = await db.batch([
    // `targets` counts the account's active radios its target holds now: of the reports, only
    // theirs leave the pending ones (a radio that reported and was then retired or moved out of
    // the target is still listed by its report).
    statement(
      db,
      `SELECT x.phase, x.state, count(*) AS n,
         sum(ifnull(v.account_id = ?2 AND v.status = 'active' AND ${targetMatchSql("v", deployment.target)}, 0)) AS targeted
       FROM deployment_devices x LEFT JOIN devices v ON v.uid = x.uid WHERE x.deployment_id = ?1 GROUP BY x.phase, x.state`,
      deployment.id,
      deployment.accountId,
    ),
    phaseTargetsStatement(db, deployment, ranges),
    // Once its outcomes moved to R2 (src/server/retention), the counts kept then.
    statement(db, "SELECT counts FROM deployment_archived_counts WHERE deployment_id = ?", deployment.id),
  ]);
  const kept = (archived?.results?.[0] as { counts: string } | undefined)?.counts;
  if (kept) return JSON.parse(kept) as DeploymentCounts;
  const targetRow = ((targets?.results ?? [])[0] ?? {}) as Record<string, number | null>;
  const phases = ranges.map((_, i) => ({ targeted: targetRow[`p${i}`] ?? 0, counts: {} as StateCounts }));
  const reportedTargets = phases.map(() => 0);
  const total: StateCounts = {};
  for (const row of (grouped?.results ?? []) as { phase: number; state: ReportState; n: number; targeted: number }[]) {
    const phase = phases[row.phase];
    if (phase) phase.counts[row.state] = (phase.counts[row.state] ?? 0) + row.n;
    reportedTargets[row.phase] = (reportedTargets[row.phase] ?? 0) + row.targeted;
    total[row.state] = (total[row.state] ?? 0) + row.n;
  }
  const ended = deployment.state === "cancelled" || deployment.state === "superseded";
  phases.forEach((phase, i) => {
    const left = Math.max(0, phase.targeted - (reportedTargets[i] ?? 0));
    if (left === 0) return;
    const opened = deployment.state === "finished" || i <= deployment.phaseIndex;
    // An opened phase's silent radios: cancelled with their deployment, timed out once their
    // phase's timeout passed (the clock marks it), pending until then.
    const state: ShownState = !opened ? "pending" : ended ? "cancelled" : i <= deployment.timedOutPhase ? "timed_out" : "pending";
    phase.counts[state] = left;
    total[state] = (total[state] ?? 0) + left;
  });
  return { total, phases };
}

/**
 * How many radios each range of buckets holds (columns p0, p1, …). Every radio: one range count
 * per phase on the (account, status, bucket) index (the bucket is a generated column, so reading
 * it from the index avoids computing it row by row). A target: one pass over the account's
 * radios, each counted in its range when the target holds it.
 */
function phaseTargetsStatement(
  db: Db,
  deployment: Pick<Deployment, "accountId" | "target">,
  ranges: { from: number; to: number }[],
): D1PreparedStatement {
  if (deployment.target === null)
    return statement(
      db,
      `SELECT ${ranges
        .map(
          (_, i) =>
            `(SELECT count(*) FROM devices INDEXED BY devices_account_bucket WHERE account_id = ?1 AND status = 'active'
               AND rollout_bucket >= ?${i * 2 + 2} AND rollout_bucket < ?${i * 2 + 3}) AS p${i}`,
        )
        .join(", ")}`,
      deployment.accountId,
      ...ranges.flatMap((range) => [range.from, range.to]),
    );
  const sums = ranges.map((range, i) => `sum(b >= ${range.from} AND b < ${range.to}) AS p${i}`);
  return statement(
    db,
    `WITH t AS MATERIALIZED (SELECT d.rollout_bucket AS b FROM devices d
       WHERE d.account_id = ?1 AND d.status = 'active' AND ${targetMatchSql("d", deployment.target)})
     SELECT ${sums.join(", ")} FROM t`,
    deployment.accountId,
  );
}

/**
 * Whether a phase holds any radio now. EXISTS stops at the first one, so a phase with radios
 * costs one index probe however large the fleet; only an empty phase reads its whole range.
 */
export async function phaseHasRadios(
  db: Db,
  deployment: Pick<Deployment, "accountId" | "target" | "plan">,
  phase: number,
): Promise<boolean> {
  const range = bucketRange(
    deployment.plan.phases.map((p) => p.share),
    phase,
  );
  const target = deployment.target === null ? "1" : targetMatchSql("d", deployment.target);
  const row = await first<{ found: number }>(
    db,
    `SELECT EXISTS (SELECT 1 FROM devices d WHERE d.account_id = ?1 AND d.status = 'active'
       AND d.rollout_bucket >= ?2 AND d.rollout_bucket < ?3 AND ${target}) AS found`,
    deployment.accountId,
    range.from,
    range.to,
  );
  return row?.found === 1;
}

/** Counts of one phase only (threshold checks after a report). */
export async function phaseCounts(db: Db, deploymentId: string, phase: number): Promise<Partial<Record<ReportState, number>>> {
  const rows = await all<{ state: ReportState; n: number }>(
    db,
    "SELECT state, count(*) AS n FROM deployment_devices WHERE deployment_id = ? AND phase = ? GROUP BY state",
    deploymentId,
    phase,
  );
  return Object.fromEntries(rows.map((row) => [row.state, row.n]));
}

/** How many active radios of the account fall in a phase's buckets (and its target). */
export async function phaseTargeted(
  db: Db,
  deployment: Pick<Deployment, "accountId" | "target" | "plan">,
  phase: number,
): Promise<number> {
  const range = bucketRange(
    deployment.plan.phases.map((p) => p.share),
    phase,
  );
  const row = await phaseTargetsStatement(db, deployment, [range]).first<{ p0: number | null }>();
  return row?.p0 ?? 0;
}

export type DeploymentRadio = {
  uid: string;
  name: string;
  state: ShownState;
  code: string;
  detail: string;
  updatedAt: string | null;
  /** Firmware deployments: the stage, the download's progress and the firmware it came from. */
  stage: FirmwareStage | null;
  progress: number | null;
  fromFirmware: string | null;
};

/**
 * The radios of a deployment in one state, by uid after `after` (keyset). Reported states read
 * the reports; "pending"/"cancelled" are the opened phases' radios that have not reported.
 */
export async function listDeploymentRadios(
  db: Db,
  deployment: Deployment,
  state: ShownState,
  after: string,
  limit: number,
): Promise<DeploymentRadio[]> {
  if (state === "pending" || state === "cancelled" || state === "timed_out") {
    const shares = deployment.plan.phases.map((p) => p.share);
    const last = shares.length - 1;
    const opened = deployment.state === "finished" ? last : deployment.phaseIndex;
    const ended = deployment.state === "cancelled" || deployment.state === "superseded";
    const timedOut = Math.min(deployment.timedOutPhase, opened);
    // Bucket ranges: timed out = the timed-out phases; pending = the rest; cancelled = the opened ones.
    const [from, to] =
      state === "timed_out"
        ? [0, ended || timedOut < 0 ? 0 : bucketRange(shares, timedOut).to]
        : state === "pending"
          ? [
              ended ? bucketRange(shares, opened).to : timedOut < 0 ? 0 : bucketRange(shares, timedOut).to,
              bucketRange(shares, last).to,
            ]
          : [0, ended ? bucketRange(shares, opened).to : 0];
    if (from >= to) return [];
    const rows = await all<{ uid: string; name: string }>(
      db,
      `SELECT d.uid, d.name FROM devices d
       WHERE d.account_id = ? AND d.status = 'active' AND d.uid > ? AND d.rollout_bucket >= ? AND d.rollout_bucket < ?
         AND ${targetMatchSql("d", deployment.target)} AND NOT EXISTS (SELECT 1 FROM deployment_devices x WHERE x.deployment_id = ? AND x.uid = d.uid)
       ORDER BY d.uid LIMIT ?`,
      deployment.accountId,
      after,
      from,
      to,
      deployment.id,
      limit,
    );
    return rows.map((row) => ({
      uid: row.uid,
      name: row.name,
      state,
      code: "",
      detail: "",
      updatedAt: null,
      stage: null,
      progress: null,
      fromFirmware: null,
    }));
  }
  const rows = await all<{
    uid: string;
    name: string | null;
    state: ShownState;
    code: string;
    detail: string;
    updated_at: string;
    stage: FirmwareStage | null;
    progress: number | null;
    from_firmware: string | null;
  }>(
    db,
    `SELECT x.uid, d.name, x.state, x.code, x.detail, x.updated_at, x.stage, x.progress, x.from_firmware FROM deployment_devices x LEFT JOIN devices d ON d.uid = x.uid
     WHERE x.deployment_id = ? AND x.state = ? AND x.uid > ? ORDER BY x.uid LIMIT ?`,
    deployment.id,
    state,
    after,
    limit,
  );
  return rows.map((row) => ({
    uid: row.uid,
    name: row.name ?? "",
    state: row.state,
    code: row.code,
    detail: row.detail,
    updatedAt: row.updated_at,
    stage: row.stage,
    progress: row.progress,
    fromFirmware: row.from_firmware,
  }));
}

/** A firmware deployment's radios by stage (one grouped read of its reports). */
export async function stageCounts(db: Db, deploymentId: string): Promise<Partial<Record<FirmwareStage, number>>> {
  const rows = await all<{ stage: FirmwareStage; n: number }>(
    db,
    "SELECT stage, count(*) AS n FROM deployment_devices WHERE deployment_id = ? AND stage IS NOT NULL GROUP BY stage",
    deploymentId,
  );
  return Object.fromEntries(rows.map((row) => [row.stage, row.n]));
}

/**
 * The radios a pace step offers, buckets [from, to) of the deployment's target, named in the
 * radio-change log (migration 0040): their next check-in takes the full path and gets the
 * deployment; every other radio keeps its answer (the step leaves the fleet version alone). One
 * row per radio offered, so the step costs what the pace allows, never the fleet. Only when the
 * step itself wrote (the statement before it in the batch: its time and count are on the row).
 */
export function paceOfferedChangesStatement(
  db: Db,
  d: Deployment,
  step: { from: number; to: number; at: string; offered: number },
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO radio_changes (uid)
     SELECT v.uid FROM devices v INDEXED BY devices_account_bucket
     WHERE EXISTS (SELECT 1 FROM deployments WHERE id = ? AND updated_at = ? AND pace_offered = ?)
       AND v.account_id = ? AND v.status = 'active' AND v.rollout_bucket >= ? AND v.rollout_bucket < ?
       AND ${targetMatchSql("v", d.target)}`,
    d.id,
    step.at,
    step.offered,
    d.accountId,
    step.from,
    step.to,
  );
}

/**
 * Counts the radios of targeted deployments confirmed without a count (NOT_COUNTED): one index
 * count and one row written each, off the confirming request. The fleet version stays (0040).
 */
export async function countTargets(db: Db): Promise<number> {
  const rows = await all<Row>(
    db,
    `SELECT ${columns} FROM ${from} WHERE d.id IN (SELECT id FROM deployments INDEXED BY deployments_counting WHERE targeted < 0) LIMIT 20`,
  );
  const pending = rows.map(toDeployment);
  if (pending.length === 0) return 0;
  await db.batch(
    pending.map((d) =>
      statement(
        db,
        `UPDATE deployments SET targeted = (SELECT count(*) FROM devices v WHERE v.account_id = ?1 AND v.status = 'active'
           AND ${targetMatchSql("v", d.target)}) WHERE id = ?2 AND targeted < 0`,
        d.accountId,
        d.id,
      ),
    ),
  );
  return pending.length;
}

/** When the next timed step (or timeout) of any deployment is due, if one is. */
export async function nextStepDue(db: Db): Promise<string | null> {
  const row = await first<{ at: string | null }>(
    db,
    `SELECT min(at) AS at FROM (
       SELECT min(next_step_at) AS at FROM deployments WHERE next_step_at IS NOT NULL
       UNION ALL SELECT min(timeout_at) FROM deployments WHERE timeout_at IS NOT NULL
       UNION ALL SELECT min(pace_at) FROM deployments WHERE pace_at IS NOT NULL AND state = 'running'
       UNION ALL SELECT min(created_at) FROM deployments INDEXED BY deployments_counting WHERE targeted < 0)`,
  );
  return row?.at ?? null;
}

/** How many radios a deployment of the account would target now: its seat counter, O(1). */
export async function radiosOfAccount(db: Db, accountId: string): Promise<number> {
  const row = await first<{ n: number }>(db, "SELECT devices_in_use AS n FROM accounts WHERE id = ?", accountId);
  return row?.n ?? 0;
}

/** The number the account's next deployment gets (its activity entry's label). */
export async function nextDeploymentNumber(db: Db, accountId: string): Promise<number> {
  const row = await first<{ n: number }>(
    db,
    "SELECT COALESCE(MAX(number), 0) + 1 AS n FROM deployments WHERE account_id = ?",
    accountId,
  );
  return row?.n ?? 1;
}
