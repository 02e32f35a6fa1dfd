import { z } from "zod";
import { nameText } from "../text";

/**
 * Zod pieces the profile types share. Messages are translation keys; a blank number is
 * "required", anything else wrong with it is the field's own message.
 */
export function numberField(message: string) {
  return z.number({ error: (issue) => (issue.input === undefined ? "validation.Required" : message) });
}

export function wholeNumber(message: string, min: number, max: number) {
  return numberField(message).int(message).min(min, message).max(max, message);
}

export function choice<const T extends readonly [string, ...string[]]>(values: T) {
  return z.enum(values, "validation.ChooseOne");
}

/** A name a radio shows on its small display. */
export const SHORT_NAME_MAX = 16;
export const shortName = nameText(SHORT_NAME_MAX, "validation.ShortNameTooLong");

/** The positions of the entries whose key repeats an earlier entry's (compared without case). */
export function repeatedAt<T>(items: readonly T[], keyOf: (item: T) => string): number[] {
  const seen = new Set<string>();
  const repeated: number[] = [];
  items.forEach((item, index) => {
    const key = keyOf(item).toLowerCase();
    if (seen.has(key)) repeated.push(index);
    seen.add(key);
  });
  return repeated;
}
