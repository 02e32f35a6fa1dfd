import { z } from "zod";
import type { ReportState } from "./deployment-plan";

/**
 * What a deployment stores of its target (issue 25): the conditions a radio must meet to be
 * given the deployment, frozen at confirmation (a saved group's conditions as they were then,
 * ANDed with the target's own), or "the radios that failed deployment X". No stored target: every
 * radio of the account. A radio is evaluated against it whenever it checks in, so a radio moved
 * into the target mid-deployment is given it, and one moved out before it reported is not; one
 * that reported keeps it (desired-deployment.ts). The SQL twins are in data/deployment-target-sql.ts.
 */
const conditions = {
  siteId: z.string().optional(),
  locationId: z.string().optional(),
  model: z.string().optional(),
  firmware: z.string().optional(),
  /** Every one of these (lower case), as device_tags keeps them. */
  tags: z.array(z.string()).optional(),
  /** One of these models (a firmware deployment: the models its package fits). */
  models: z.array(z.string()).optional(),
  /** Two conditions on one field that cannot both hold: the conditions hold no radio. */
  none: z.literal(true).optional(),
};

export const deploymentTargetSchema = z.discriminatedUnion("kind", [
  z
    .object({
      kind: z.literal("filter"),
      ...conditions,
      /** The saved group it came from, for people to read (its conditions are above). */
      groupName: z.string().optional(),
    })
    .strict(),
  /**
   * "Retry the failed radios" of deployment `deploymentId`: those that reported failed or
   * rejected on it, and those that never reported before their phase timed out (buckets below
   * `timedOutTo`, frozen at confirmation) among the radios its own conditions held (above).
   */
  z
    .object({
      kind: z.literal("failedOf"),
      deploymentId: z.string(),
      number: z.number().int(),
      timedOutTo: z.number().int().min(0),
      ...conditions,
    })
    .strict(),
]);
export type DeploymentTarget = z.infer<typeof deploymentTargetSchema>;

/** What the match needs of a radio (its row as it is now). */
export type TargetRadio = {
  bucket: number;
  siteId: string | null;
  locationId: string | null;
  model: string;
  firmware: string;
  tags: readonly string[];
};

/** Whether a radio is in a deployment's target now; `reportOn` answers what it reported on another deployment. */
export function inTarget(
  target: DeploymentTarget | null,
  radio: TargetRadio,
  reportOn: (deploymentId: string) => ReportState | undefined,
): boolean {
  if (target === null) return true;
  if (target.kind === "failedOf") {
    const report = reportOn(target.deploymentId);
    if (report === "failed" || report === "rejected") return true;
    return report === undefined && radio.bucket < target.timedOutTo && meetsConditions(target, radio);
  }
  return meetsConditions(target, radio);
}

function meetsConditions(target: DeploymentTarget, radio: TargetRadio): boolean {
  if (target.none) return false;
  if (target.siteId !== undefined && radio.siteId !== target.siteId) return false;
  if (target.locationId !== undefined && radio.locationId !== target.locationId) return false;
  if (target.model !== undefined && radio.model !== target.model) return false;
  if (target.firmware !== undefined && radio.firmware !== target.firmware) return false;
  if (target.models !== undefined && !target.models.includes(radio.model)) return false;
  if (target.tags && target.tags.length > 0) {
    const own = new Set(radio.tags.map((tag) => tag.toLowerCase()));
    if (!target.tags.every((tag) => own.has(tag))) return false;
  }
  return true;
}

/** A stored target's JSON, or null (every radio); unreadable JSON holds no radio rather than all. */
export function parseDeploymentTarget(json: string | null): DeploymentTarget | null {
  if (json === null) return null;
  try {
    const parsed = deploymentTargetSchema.safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data;
  } catch {
    // falls through
  }
  return { kind: "filter", none: true };
}
