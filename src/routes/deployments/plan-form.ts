import type { Plan, Switchover } from "@/schema/fleet/deployment-plan";
import {
  allAtOnce,
  DEFAULT_TIMEOUT_MINUTES,
  MAX_PHASES,
  MAX_USER_DELAY_MINUTES,
  MAX_WAIT_MINUTES,
} from "@/schema/fleet/deployment-plan";
import { MAX_BACKOFF_MINUTES, MAX_FACTOR, MAX_PER_MINUTE, MAX_RETRY_ATTEMPTS, type Pace } from "@/schema/fleet/pace-and-retries";
import { instantOfWallClock } from "@/schema/zoned-date";

/**
 * The confirm form's fields as a plan and switchover: all at once, or phases given as
 * cumulative percentages ("5, 25, 100") with one set of thresholds, which optional lists
 * override phase by phase ("100, 95, 90": one value per phase, in order); an optional
 * scheduled start and the radios' report timeout. Plain fields, so the form works without
 * JavaScript. Errors are translation keys by field.
 */
export const planFields = [
  "planKind",
  "shares",
  "successPercent",
  "successAction",
  "errorKind",
  "errorValue",
  "errorMinimum",
  "waitMinutes",
  "successPerPhase",
  "errorPerPhase",
  "startAt",
  "timeoutMinutes",
  "paceKind",
  "pacePerMinute",
  "paceStart",
  "paceFactor",
  "retryAttempts",
  "retryBackoffMinutes",
  "switchover",
  "switchoverAt",
  "maxDelayMinutes",
  "note",
] as const;

export const planDefaults: Record<string, string> = {
  planKind: "phases",
  shares: "5, 25, 100",
  successPercent: "90",
  successAction: "next",
  errorKind: "percent",
  errorValue: "10",
  errorMinimum: "5",
  waitMinutes: "0",
  successPerPhase: "",
  errorPerPhase: "",
  startAt: "",
  timeoutMinutes: String(DEFAULT_TIMEOUT_MINUTES),
  paceKind: "none",
  pacePerMinute: "",
  paceStart: "",
  paceFactor: "2",
  retryAttempts: "0",
  retryBackoffMinutes: "5",
  switchover: "delivery",
  switchoverAt: "",
  maxDelayMinutes: "60",
  note: "",
};

type Parsed = { ok: true; plan: Plan; switchover: Switchover; note: string } | { ok: false; errors: Record<string, string> };

function whole(value: string | undefined, min: number, max: number): number | null {
  if (!value || !/^\d{1,7}$/.test(value.trim())) return null;
  const n = Number(value.trim());
  return n >= min && n <= max ? n : null;
}

/**
 * An optional list with one whole number per phase: [] when left empty (the shared value
 * applies), null when it is not one value in range per phase.
 */
function perPhase(value: string | undefined, phases: number, min: number, max: number): number[] | null {
  const items = (value ?? "").split(/[,\s]+/).filter(Boolean);
  if (items.length === 0) return [];
  const numbers = items.map((item) => whole(item.replace("%", ""), min, max));
  return numbers.length === phases && numbers.every((n) => n !== null) ? (numbers as number[]) : null;
}

/** The form's fields; its times (`datetime-local`) are read on the account's wall clock, `timeZone`. */
export function parsePlanForm(values: Record<string, string>, timeZone: string): Parsed {
  const errors: Record<string, string> = {};
  const note = (values.note ?? "").trim();
  if (note.length > 500) errors.note = "validation.NoteTooLong";
  let plan: Plan = allAtOnce();
  if (values.planKind === "phases") {
    const shares = (values.shares ?? "")
      .split(/[,\s]+/)
      .filter(Boolean)
      .map((s) => whole(s.replace("%", ""), 1, 100));
    const valid =
      shares.length >= 1 &&
      shares.length <= MAX_PHASES &&
      shares.every((s, i) => s !== null && (i === 0 || s > (shares[i - 1] ?? 0))) &&
      shares.at(-1) === 100;
    if (!valid) errors.shares = "validation.PhaseShares";
    const successPercent = whole(values.successPercent, 1, 100);
    if (successPercent === null) errors.successPercent = "validation.Percent";
    const errorValue = whole(values.errorValue, 1, 100_000);
    if (errorValue === null || (values.errorKind === "percent" && errorValue > 100))
      errors.errorValue = "validation.ErrorThreshold";
    const errorMinimum = whole(values.errorMinimum || "0", 0, 100_000);
    if (errorMinimum === null) errors.errorMinimum = "validation.Count";
    const waitMinutes = whole(values.waitMinutes || "0", 0, MAX_WAIT_MINUTES);
    if (waitMinutes === null) errors.waitMinutes = "validation.WaitMinutes";
    const errorKind = values.errorKind === "count" ? "count" : "percent";
    const successList = perPhase(values.successPerPhase, shares.length, 1, 100);
    if (successList === null) errors.successPerPhase = "validation.PerPhaseList";
    const errorList = perPhase(values.errorPerPhase, shares.length, 1, errorKind === "percent" ? 100 : 100_000);
    if (errorList === null) errors.errorPerPhase = "validation.PerPhaseList";
    if (
      valid &&
      successPercent !== null &&
      errorValue !== null &&
      errorMinimum !== null &&
      waitMinutes !== null &&
      successList !== null &&
      errorList !== null
    ) {
      plan = {
        phases: (shares as number[]).map((share, i) => ({
          share,
          successPercent: successList[i] ?? successPercent,
          successAction: values.successAction === "pause" ? "pause" : "next",
          errorKind,
          errorValue: errorList[i] ?? errorValue,
          errorMinimum,
          waitMinutes,
        })),
      };
    }
  } else if (values.planKind !== "all") errors.planKind = "validation.Invalid";
  if (values.startAt) {
    const at = instantOfWallClock(values.startAt, timeZone);
    if (!at || Date.parse(at) < Date.now()) errors.startAt = "validation.FutureTime";
    else plan = { ...plan, startAt: at };
  }
  const timeout = whole(values.timeoutMinutes || String(DEFAULT_TIMEOUT_MINUTES), 5, MAX_WAIT_MINUTES);
  if (timeout === null) errors.timeoutMinutes = "validation.TimeoutMinutes";
  else plan = { ...plan, timeoutMinutes: timeout };
  const pace = parsePace(values, errors);
  if (pace) plan = { ...plan, pace };
  const attempts = whole(values.retryAttempts || "0", 0, MAX_RETRY_ATTEMPTS);
  if (attempts === null) errors.retryAttempts = "validation.RetryAttempts";
  const backoff = whole(values.retryBackoffMinutes || "5", 1, MAX_BACKOFF_MINUTES);
  if (backoff === null) errors.retryBackoffMinutes = "validation.RetryBackoff";
  if (attempts && backoff) plan = { ...plan, retries: { attempts, backoffMinutes: backoff } };
  let switchover: Switchover = { mode: "delivery" };
  if (values.switchover === "at") {
    const at = instantOfWallClock(values.switchoverAt ?? "", timeZone);
    if (!at || Date.parse(at) < Date.now()) errors.switchoverAt = "validation.FutureTime";
    else switchover = { mode: "at", at };
  } else if (values.switchover === "user-delay") {
    const max = whole(values.maxDelayMinutes, 1, MAX_USER_DELAY_MINUTES);
    if (max === null) errors.maxDelayMinutes = "validation.DelayMinutes";
    else switchover = { mode: "user-delay", maxMinutes: max };
  } else if (values.switchover !== "delivery") errors.switchover = "validation.Invalid";
  return Object.keys(errors).length ? { ok: false, errors } : { ok: true, plan, switchover, note };
}

/**
 * The pace fields: none; at most N radios a minute; or exponential, starting at N a minute and
 * multiplied by F each minute while the phase's successes hold (capped by the maximum, if given).
 */
function parsePace(values: Record<string, string>, errors: Record<string, string>): Pace | undefined {
  const kind = values.paceKind || "none";
  if (kind === "none") return undefined;
  const maximum = values.pacePerMinute ? whole(values.pacePerMinute, 1, MAX_PER_MINUTE) : undefined;
  if (maximum === null || (kind === "fixed" && maximum === undefined)) errors.pacePerMinute = "validation.PaceRate";
  if (kind === "fixed") return maximum ? { maximumPerMinute: maximum } : undefined;
  if (kind !== "exponential") {
    errors.paceKind = "validation.Invalid";
    return undefined;
  }
  const start = whole(values.paceStart, 1, MAX_PER_MINUTE);
  if (start === null) errors.paceStart = "validation.PaceRate";
  const factor = Number((values.paceFactor ?? "").replace(",", "."));
  const factorOk = /^\d+([.,]\d+)?$/.test((values.paceFactor ?? "").trim()) && factor >= 1.1 && factor <= MAX_FACTOR;
  if (!factorOk) errors.paceFactor = "validation.PaceFactor";
  if (start === null || !factorOk || maximum === null) return undefined;
  return { exponential: { start, factor }, ...(maximum ? { maximumPerMinute: maximum } : {}) };
}
