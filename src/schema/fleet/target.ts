import { z } from "zod";
import { deviceLimits, deviceModel } from "../devices";
import { LABEL_SOURCE } from "../rules";
import { syncStates } from "./sync-state";

/**
 * The radios a deployment (or a bulk command) is for (issue 25): all of the account's, a filter
 * over them, or the radios that failed (or timed out, or rejected) a deployment. A target is a
 * stored filter the engine evaluates (data/targets.ts), never a row per radio, so confirming
 * stays O(1) in rows written whatever its size (DESIGN §7).
 *
 * Every field of a filter narrows (AND); a saved group is a named filter of the account, so a
 * target may name one and narrow it further. A group's own filter names no group (no nesting,
 * no cycles).
 */
const id = z
  .string()
  .trim()
  .min(1)
  .max(64)
  .regex(/^[A-Za-z0-9_-]+$/, "validation.Invalid");

const firmware = z
  .string()
  .trim()
  .min(1, "validation.Invalid")
  .max(deviceLimits.model, "validation.TooLong")
  .regex(/^[^\p{Cc}]+$/u, "validation.ControlCharacters");

const tag = z
  .string()
  .trim()
  .min(1, "validation.DeviceTagInvalid")
  .max(deviceLimits.tag, "validation.DeviceTagInvalid")
  .regex(new RegExp(LABEL_SOURCE), "validation.DeviceTagInvalid");

/** The conditions a saved group keeps (each optional; none: every radio of the account). */
export const groupFilterSchema = z
  .object({
    siteId: id.optional(),
    /** A location of the chosen site (a location alone names its site). */
    locationId: id.optional(),
    model: deviceModel.optional(),
    firmware: firmware.optional(),
    tag: tag.optional(),
    sync: z.enum(syncStates).optional(),
  })
  .strict();
export type GroupFilter = z.infer<typeof groupFilterSchema>;

/** A target's filter: a group's conditions and, optionally, a saved group they narrow. */
export const targetFilterSchema = groupFilterSchema.extend({ groupId: id.optional() }).strict();
export type TargetFilter = z.infer<typeof targetFilterSchema>;

export const targetSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("all") }).strict(),
  z.object({ kind: z.literal("filter"), filter: targetFilterSchema }).strict(),
  /** The radios of deployment `deploymentId` that failed, rejected it or timed out: "retry the failed radios". */
  z.object({ kind: z.literal("failedOf"), deploymentId: id }).strict(),
]);
export type Target = z.infer<typeof targetSchema>;

export const ALL_RADIOS: Target = { kind: "all" };

export const groupNameSchema = z.string().trim().min(1, "validation.NameRequired").max(80, "validation.NameTooLong");

/** Whether a filter narrows at all (an empty filter is every radio). */
export function filterNarrows(filter: TargetFilter): boolean {
  return Object.values(filter).some((value) => value !== undefined && value !== "");
}

/** A target that is every radio, said once: an empty filter is "all". */
export function normalTarget(target: Target): Target {
  return target.kind === "filter" && !filterNarrows(target.filter) ? ALL_RADIOS : target;
}

/** Plain form fields (no JavaScript) to a filter: empty fields are no condition. */
export function filterFromFields(fields: Record<string, unknown>): Record<string, string> {
  const names = ["siteId", "locationId", "model", "firmware", "tag", "sync", "groupId"] as const;
  const filter: Record<string, string> = {};
  for (const name of names) {
    const value = fields[name];
    if (typeof value === "string" && value.trim() !== "") filter[name] = value;
  }
  return filter;
}
