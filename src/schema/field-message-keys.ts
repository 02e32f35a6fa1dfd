/**
 * Messages that name their field, the GOV.UK way ("Enter a site name", not "This field is
 * required."): `validation.fields.<subject>.<problem>` in locales/. Server schemas
 * (field-messages.ts) and the browser's checks use the same keys, so both say the same thing.
 * No zod here: islands import this, and zod would ride along into the browser (issue 10 §2).
 */
export type FieldProblem = "required" | "tooLong" | "invalid";

export function fieldMessage(subject: string, problem: FieldProblem): string {
  return `validation.fields.${subject}.${problem}`;
}

/** The keys an island may need for a field's messages (only those in locales/ are sent). */
export function fieldMessageKeys(subject: string): string[] {
  return (["required", "tooLong", "invalid"] as const).map((problem) => fieldMessage(subject, problem));
}
