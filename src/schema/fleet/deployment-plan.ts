import { z } from "zod";
import { paceSchema, retriesSchema } from "./pace-and-retries";

/**
 * A deployment's plan and switchover (DESIGN.md §7), shared by the confirm form, the
 * procedures and the device protocol. Phases are cumulative shares of the account's radios
 * (by rollout bucket), the last one always 100 %.
 */
export const MAX_PHASES = 5;
export const MAX_WAIT_MINUTES = 7 * 24 * 60;
export const MAX_USER_DELAY_MINUTES = 24 * 60;
/** How long the radios of an opened phase have to report before they count as timed out. */
export const DEFAULT_TIMEOUT_MINUTES = 24 * 60;

export const phaseSchema = z.object({
  /** Cumulative share of the radios this phase reaches, percent. */
  share: z.number().int().min(1, "validation.PhaseShare").max(100, "validation.PhaseShare"),
  /** Share of the phase's radios that must have applied before it counts as a success. */
  successPercent: z.number().int().min(1, "validation.Percent").max(100, "validation.Percent"),
  /** On success: open the next phase, or pause so someone can look first. */
  successAction: z.enum(["next", "pause"]),
  /** Failures (failed or rejected) that pause the deployment: a count, or a percent of the reports. */
  errorKind: z.enum(["count", "percent"]),
  errorValue: z.number().int().min(1, "validation.ErrorThreshold").max(100_000, "validation.ErrorThreshold"),
  /** The percent rule applies only once this many radios of the phase have reported. */
  errorMinimum: z.number().int().min(0).max(100_000).default(0),
  /** Minutes to wait after success before the next phase opens (0: at once). */
  waitMinutes: z.number().int().min(0).max(MAX_WAIT_MINUTES, "validation.WaitMinutes").default(0),
});
export type Phase = z.infer<typeof phaseSchema>;

export const planSchema = z
  .object({
    phases: z.array(phaseSchema).min(1).max(MAX_PHASES, "validation.TooManyPhases"),
    /** Start later (ISO instant); until then the deployment is scheduled. */
    startAt: z.iso.datetime().optional(),
    /**
     * Minutes the radios of the phases opened so far have, from the latest phase opening, to
     * report before they count as timed out (default DEFAULT_TIMEOUT_MINUTES).
     */
    timeoutMinutes: z
      .number()
      .int()
      .min(5, "validation.TimeoutMinutes")
      .max(MAX_WAIT_MINUTES, "validation.TimeoutMinutes")
      .optional(),
    /** Each phase offered at a pace rather than at once (issue 25). */
    pace: paceSchema.optional(),
    /** A radio that reports failed tries again after a backoff, up to this many times (issue 25). */
    retries: retriesSchema.optional(),
  })
  .refine((plan) => plan.phases.every((phase, i) => i === 0 || phase.share > (plan.phases[i - 1]?.share ?? 0)), {
    message: "validation.PhaseOrder",
    path: ["phases"],
  })
  .refine((plan) => plan.phases.at(-1)?.share === 100, { message: "validation.LastPhase", path: ["phases"] });
export type Plan = z.infer<typeof planSchema>;

export const switchoverSchema = z.discriminatedUnion("mode", [
  z.object({ mode: z.literal("delivery") }),
  z.object({ mode: z.literal("at"), at: z.iso.datetime() }),
  z.object({ mode: z.literal("user-delay"), maxMinutes: z.number().int().min(1).max(MAX_USER_DELAY_MINUTES) }),
]);
export type Switchover = z.infer<typeof switchoverSchema>;

/** Everything at once: one phase, pausing after 10 failures or 20 % of at least 10 reports. */
export function allAtOnce(): Plan {
  return {
    phases: [
      {
        share: 100,
        successPercent: 100,
        successAction: "next",
        errorKind: "percent",
        errorValue: 20,
        errorMinimum: 10,
        waitMinutes: 0,
      },
    ],
  };
}

export const deploymentStates = ["scheduled", "running", "paused", "finished", "cancelled", "superseded"] as const;
export type DeploymentState = (typeof deploymentStates)[number];

export const deploymentActions = ["pause", "resume", "advance", "cancel"] as const;
export type DeploymentAction = (typeof deploymentActions)[number];

/** The states each action may start from; anything else is a CONFLICT. */
export const allowedFrom: Record<DeploymentAction, readonly DeploymentState[]> = {
  pause: ["running"],
  resume: ["paused"],
  advance: ["running", "paused"],
  cancel: ["scheduled", "running", "paused"],
};

export function isActive(state: DeploymentState): boolean {
  return state === "scheduled" || state === "running" || state === "paused";
}

/** What radios report (DESIGN.md §7); "pending", "timed_out" and "cancelled" are derived. */
export const reportStates = ["delivered", "applying", "applied", "failed", "rejected", "already_in_sync"] as const;
export type ReportState = (typeof reportStates)[number];
export const terminalStates: readonly ReportState[] = ["applied", "failed", "rejected", "already_in_sync"];
export const failureStates: readonly ReportState[] = ["failed", "rejected"];
export const successStates: readonly ReportState[] = ["applied", "already_in_sync"];

/** Order of progress: a report never moves a radio backwards. */
export function progressOf(state: ReportState): number {
  return state === "delivered" ? 1 : state === "applying" ? 2 : 3;
}

export { type ShownState, shownStates } from "./states";
