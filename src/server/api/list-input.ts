import { z } from "zod";
import { type Cursor, cursorFrom } from "@/server/data/keyset";

/**
 * What every keyset list procedure takes besides its filters: `after` / `before`, the
 * `next` / `previous` of an earlier answer. A cursor that is not one of ours reads as
 * "from the start" rather than an error: it usually comes from an old bookmark.
 */
export const pageInput = {
  after: z.string().max(1_000).optional(),
  before: z.string().max(1_000).optional(),
  pageSize: z.number().int().min(1).max(100).default(25),
};

export function cursorOf(input: { after?: string; before?: string }, arity: number): Cursor | null {
  return cursorFrom(input.after, input.before, arity);
}
