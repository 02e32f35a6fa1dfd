import type { ErrorCodeName } from "@/schema/errors";

/**
 * D1 errors that input can cause, as the 4xx they deserve (issue 9): a table CHECK or NOT
 * NULL is bad input, a UNIQUE is a conflict, a missing parent is gone, an over-long pattern or
 * statement is too much. The text D1 wrote never reaches a caller; the key says it instead.
 */
const rules: [pattern: RegExp, code: ErrorCodeName, key: string][] = [
  [
    /CHECK constraint failed|NOT NULL constraint failed|datatype mismatch|integer overflow/i,
    "BAD_REQUEST",
    "errors.valueRefused",
  ],
  [/UNIQUE constraint failed|PRIMARY KEY constraint failed/i, "CONFLICT", "errors.alreadyExists"],
  [/FOREIGN KEY constraint failed/i, "NOT_FOUND", "errors.relatedGone"],
  [
    /LIKE or GLOB pattern too complex|fts5: syntax error|unterminated string|malformed MATCH/i,
    "BAD_REQUEST",
    "errors.searchRefused",
  ],
  [
    /string or blob too big|too many SQL variables|too many terms|Expression tree is too large|statement too long/i,
    "PAYLOAD_TOO_LARGE",
    "errors.payloadTooLarge",
  ],
];

export type DatabaseRefusal = { code: ErrorCodeName; key: string };

/** The refusal an error (or any error in its cause chain) stands for, when D1 raised it because of input. */
export function databaseRefusal(error: unknown): DatabaseRefusal | null {
  for (let current = error, hops = 0; current instanceof Error && hops < 5; current = current.cause, hops += 1) {
    if (!/D1_|SQLITE/i.test(current.message)) continue;
    const rule = rules.find(([pattern]) => pattern.test(current.message));
    if (rule) return { code: rule[1], key: rule[2] };
  }
  return null;
}
