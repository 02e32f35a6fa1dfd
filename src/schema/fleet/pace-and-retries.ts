import { z } from "zod";

/**
 * Two optional parts of a deployment's plan (issue 25), after AWS IoT Jobs' retry config and
 * rollout rate (research/fleet-anchors.md). Both are part of planSchema: the pace is run by the
 * engine's clock (one step a minute: `paceSteps`), the retries by the device protocol when a radio
 * reports a failure (`afterFailure`).
 */
export const MAX_RETRY_ATTEMPTS = 5;
export const MAX_BACKOFF_MINUTES = 24 * 60;
export const MAX_PER_MINUTE = 10_000;
export const MAX_FACTOR = 5;

/** A radio that reports failed is told to try again after a growing pause, up to `attempts` times. */
export const retriesSchema = z.object({
  attempts: z.number().int().min(0, "validation.RetryAttempts").max(MAX_RETRY_ATTEMPTS, "validation.RetryAttempts"),
  backoffMinutes: z.number().int().min(1, "validation.RetryBackoff").max(MAX_BACKOFF_MINUTES, "validation.RetryBackoff"),
});
export type Retries = z.infer<typeof retriesSchema>;

const rate = z.number().int().min(1, "validation.PaceRate").max(MAX_PER_MINUTE, "validation.PaceRate");

/**
 * How fast a phase offers the deployment: at most `maximumPerMinute` radios a minute, or a rate
 * that starts at `exponential.start` and grows by `factor` each minute (capped by the maximum).
 */
export const paceSchema = z
  .object({
    maximumPerMinute: rate.optional(),
    exponential: z
      .object({
        start: rate,
        factor: z.number().min(1.1, "validation.PaceFactor").max(MAX_FACTOR, "validation.PaceFactor"),
      })
      .optional(),
  })
  .refine((pace) => pace.maximumPerMinute !== undefined || pace.exponential !== undefined, {
    message: "validation.PaceRate",
    path: ["maximumPerMinute"],
  });
export type Pace = z.infer<typeof paceSchema>;

/**
 * Minutes to wait before retry number `attempt` (1-based): the backoff doubles each time, so a
 * radio that keeps failing does not hammer whatever made it fail.
 */
export function retryDelayMinutes(retries: Retries, attempt: number): number {
  return Math.min(MAX_BACKOFF_MINUTES * 4, retries.backoffMinutes * 2 ** Math.max(0, attempt - 1));
}

/**
 * What a failure report means for a radio that has already retried `retriedSoFar` times: another
 * try at `retryAt`, or a failure that counts against the phase's thresholds.
 */
export function afterFailure(
  retries: Retries | undefined,
  retriedSoFar: number,
  reportedAt: Date,
): { kind: "retry"; attempt: number; retryAt: Date } | { kind: "failed" } {
  if (retries === undefined || retriedSoFar >= retries.attempts) return { kind: "failed" };
  const attempt = retriedSoFar + 1;
  return { kind: "retry", attempt, retryAt: new Date(reportedAt.getTime() + retryDelayMinutes(retries, attempt) * 60_000) };
}

/** The radios a paced phase may have offered by the end of minute `minute` (0: the first minute). */
export function pacedAllowance(pace: Pace, minute: number): number {
  const cap = pace.maximumPerMinute ?? Number.POSITIVE_INFINITY;
  if (pace.exponential === undefined) return cap * (minute + 1);
  let total = 0;
  let perMinute = pace.exponential.start;
  for (let m = 0; m <= minute; m++) {
    total += Math.min(cap, Math.floor(perMinute));
    // Once the rate reaches the cap it stays there: stop multiplying, the rest is linear.
    if (perMinute >= cap) return total + cap * (minute - m);
    perMinute *= pace.exponential.factor;
  }
  return total;
}

/**
 * Where a paced phase's opened bucket range ends (the stored `opened_to`): the phase's buckets
 * [from, to) hold `targeted` radios, so the range grows by the share of them the pace allows. Without
 * a pace (or no radios) the whole phase opens at once. Computed from the clock, never per radio, so
 * each step writes one row whatever the fleet's size.
 */
export function pacedOpenedTo(
  range: { from: number; to: number },
  targeted: number,
  pace: Pace | undefined,
  minutesSinceOpen: number,
): number {
  if (pace === undefined || targeted <= 0 || minutesSinceOpen < 0) return minutesSinceOpen < 0 ? range.from : range.to;
  const allowed = Math.min(targeted, pacedAllowance(pace, Math.floor(minutesSinceOpen)));
  return range.from + Math.floor(((range.to - range.from) * allowed) / targeted);
}

/** A paced phase as the deployment row keeps it: radios offered so far, and the rate a minute now. */
export type PaceState = { offered: number; rate: number };

/** Where a phase's pace starts: nothing offered, at the first minute's rate. */
export function paceStart(pace: Pace): PaceState {
  return { offered: 0, rate: pace.exponential?.start ?? pace.maximumPerMinute ?? 1 };
}

/**
 * `minutes` minutes of a paced phase of `targeted` radios: each offers the rate (never more than
 * the maximum), and an exponential rate grows by its factor only while the phase's reports hold
 * its success rate (`holds`); otherwise it stays where it is.
 */
export function paceSteps(pace: Pace, state: PaceState, minutes: number, targeted: number, holds: boolean): PaceState {
  const cap = pace.maximumPerMinute ?? Number.POSITIVE_INFINITY;
  let { offered, rate } = state;
  for (let m = 0; m < minutes && offered < targeted; m++) {
    offered = Math.min(targeted, offered + Math.min(cap, Math.floor(rate)));
    if (pace.exponential && holds) rate = Math.min(cap, rate * pace.exponential.factor);
  }
  return { offered, rate };
}

/**
 * The bucket bound a phase's buckets [from, to) are offered up to, for `offered` of its
 * `targeted` radios (radios spread evenly over buckets, so the bound follows the share; rounded
 * down, so never more than the pace allows): `to` once all are offered.
 */
export function pacedBucket(range: { from: number; to: number }, offered: number, targeted: number): number {
  if (targeted <= 0 || offered >= targeted) return range.to;
  return range.from + Math.floor(((range.to - range.from) * offered) / targeted);
}

/** A paced phase as it opens: its first minute offered at once, the clock's next step a minute on. */
export type PaceOpening = { pacedTo: number | null; offered: number; rate: number; paceAt: string | null };

export function paceOpening(pace: Pace, range: { from: number; to: number }, targeted: number, at: string): PaceOpening {
  const first = paceSteps(pace, paceStart(pace), 1, targeted, true);
  const reach = pacedBucket(range, first.offered, targeted);
  const done = reach >= range.to;
  return {
    pacedTo: done ? null : reach,
    offered: first.offered,
    rate: first.rate,
    paceAt: done ? null : new Date(Date.parse(at) + 60_000).toISOString(),
  };
}
