import { z } from "zod";
import { isPlainText } from "@/schema/text";
import { fieldMessage } from "./field-message-keys";

/**
 * The zod schemas of fields whose messages name the field (keys in field-message-keys.ts,
 * which the islands import without zod).
 */
export { type FieldProblem, fieldMessage, fieldMessageKeys } from "./field-message-keys";

/** Required text, trimmed, at most `max` characters, printable (@/schema/text); blank and too long each say which field. */
export function requiredText(subject: string, max: number) {
  const required = fieldMessage(subject, "required");
  return z
    .string(required)
    .trim()
    .min(1, required)
    .max(max, fieldMessage(subject, "tooLong"))
    .refine((value) => isPlainText(value), "validation.ControlCharacters");
}

/** Optional text, trimmed, at most `max` characters. */
export function optionalText(subject: string, max: number) {
  return z
    .string(fieldMessage(subject, "tooLong"))
    .trim()
    .max(max, fieldMessage(subject, "tooLong"))
    .refine((value) => isPlainText(value), "validation.ControlCharacters");
}

/** One of a list's ids (a <select>): blank or unknown says "Choose …" naming the field. */
export function chosenId(subject: string) {
  const required = fieldMessage(subject, "required");
  return z.string(required).min(1, required).max(64, required);
}
