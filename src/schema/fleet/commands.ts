import { z } from "zod";

/**
 * Commands to radios (DESIGN.md §7, issue 13): what each type takes and answers, the states a
 * command goes through, and the limits. Shared by the procedures, the forms, the device
 * protocol and the simulator, so each refuses the same things.
 */
import { type CommandState, type CommandType, commandTypes } from "./command-kinds";

export { type CommandState, type CommandType, commandStates, commandTypes, expiryChoices } from "./command-kinds";

/** Types a bulk send may use: stunning many radios at once is not offered (each stun names its radio). */
export const bulkCommandTypes = commandTypes.filter((type) => type !== "stun");

/** Not yet handed over for good: the radio's queue (these count against its limit). */
export const waitingStates: readonly CommandState[] = ["queued", "sent"];
export const finalStates: readonly CommandState[] = ["succeeded", "failed", "expired", "cancelled"];
/** Anything not yet delivered can be cancelled. */
export const cancellableStates: readonly CommandState[] = ["queued", "sent"];

export const isFinalCommand = (state: string) => (finalStates as readonly string[]).includes(state);

export const commandLimits = {
  /** Commands waiting in one radio's queue. */
  queue: 50,
  messageLength: 140,
  defaultExpiryHours: 24,
  maxExpiryHours: 7 * 24,
  /** Commands one check-in hands over at most. */
  perCheckIn: 10,
} as const;

/** Stun and revive jump the queue (a lost radio must stop now; a found one must come back). */
export function priorityOf(type: CommandType): number {
  return type === "stun" || type === "revive" ? 0 : 1;
}

/** Each type's parameters; messages are translation keys. */
export const commandParams = {
  ping: z.object({}).strict(),
  locate: z
    .object({
      beepSeconds: z.coerce
        .number()
        .int("validation.Invalid")
        .min(0, "validation.Invalid")
        .max(120, "validation.Invalid")
        .default(10),
    })
    .strict(),
  message: z
    .object({
      text: z.string().trim().min(1, "validation.Required").max(commandLimits.messageLength, "validation.MessageTooLong"),
    })
    .strict(),
  reboot: z
    .object({
      delaySeconds: z.coerce
        .number()
        .int("validation.Invalid")
        .min(0, "validation.Invalid")
        .max(3600, "validation.Invalid")
        .default(0),
    })
    .strict(),
  sync: z.object({}).strict(),
  stun: z.object({}).strict(),
  revive: z.object({}).strict(),
} as const satisfies Record<CommandType, z.ZodType>;

/** What a radio answers when a command succeeded (failures carry a code and detail only). */
export const commandResults = {
  ping: z
    .object({ battery: z.number().int().min(0).max(100).optional(), signal: z.number().int().min(-150).max(0).optional() })
    .strict(),
  locate: z
    .object({
      latitude: z.number().min(-90).max(90),
      longitude: z.number().min(-180).max(180),
      accuracyMeters: z.number().min(0).max(100_000).optional(),
    })
    .strict(),
  message: z.object({ shownAt: z.string().max(40).optional() }).strict(),
  reboot: z.object({}).strict(),
  sync: z.object({ revision: z.string().max(64).nullable().optional() }).strict(),
  stun: z.object({}).strict(),
  revive: z.object({}).strict(),
} as const satisfies Record<CommandType, z.ZodType>;

export type CommandParams = Record<string, string | number>;

export const commandTypeInput = z.enum(commandTypes);

/** Hours until a command expires: default 24, at most 7 days. */
export const expiryHours = z.coerce
  .number("validation.Invalid")
  .int("validation.Invalid")
  .min(1, "validation.ExpiryRange")
  .max(commandLimits.maxExpiryHours, "validation.ExpiryRange")
  .default(commandLimits.defaultExpiryHours);

/** What a radio may report about a command (POST /device/v1/commands/{id}/status). */
export const commandReportStates = ["delivered", "succeeded", "failed"] as const;
export type CommandReportState = (typeof commandReportStates)[number];

/** The state a report may move a command from (a repeat of the current state changes nothing). */
export const reportableFrom: Record<CommandReportState, readonly CommandState[]> = {
  delivered: ["queued", "sent"],
  succeeded: ["queued", "sent", "delivered"],
  failed: ["queued", "sent", "delivered"],
};

/** A short text of a command's parameters, for lists. */
export function paramsSummary(type: CommandType, params: CommandParams): string {
  if (type === "message") return String(params.text ?? "");
  if (type === "locate") return `${params.beepSeconds ?? 10} s`;
  if (type === "reboot") return Number(params.delaySeconds ?? 0) > 0 ? `+${params.delaySeconds} s` : "";
  return "";
}
