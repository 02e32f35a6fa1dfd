import { z } from "zod";
import { isPlainText } from "@/schema/text";

/**
 * Messages that name their field, the GOV.UK way ("Enter a site name", not "This field is
 * required."): `validation.fields.<subject>.<problem>` in locales/. Server schemas and the
 * browser's checks use the same keys, so both say the same thing.
 */
export type FieldProblem = "required" | "tooLong" | "invalid";

export function fieldMessage(subject: string, problem: FieldProblem): string {
  return `validation.fields.${subject}.${problem}`;
}

/** The keys an island may need for a field's messages (only those in locales/ are sent). */
export function fieldMessageKeys(subject: string): string[] {
  return (["required", "tooLong", "invalid"] as const).map((problem) => fieldMessage(subject, problem));
}

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
