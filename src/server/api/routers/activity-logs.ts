import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { searchText } from "@/schema/text";
import { isCalendarDay, startOfDay } from "@/schema/zoned-date";
import { type ActivityEntry, type ActivityPosition, listActivity, listChangesToDeploy } from "@/server/data/activity-logs";
import { redactNetworkDetails } from "../network-redaction";
import { accountInScope } from "../tenancy";
import { router, signedInProcedure } from "../trpc";

const accountId = z.string().min(1).max(64);
const day = z.string().refine(isCalendarDay, "validation.DateInvalid");

/**
 * The cursor is opaque to callers: base64url of the last entry's [createdAt, id]. Anything
 * else (edited by hand, truncated) is refused rather than guessed at.
 */
export function encodeCursor(entry: Pick<ActivityEntry, "createdAt" | "id">): string {
  return btoa(JSON.stringify([entry.createdAt, entry.id]))
    .replaceAll("+", "-")
    .replaceAll("/", "_")
    .replaceAll("=", "");
}

const position = z.tuple([z.iso.datetime(), z.string().min(1).max(64)]);

export function decodeCursor(cursor: string): ActivityPosition | null {
  try {
    const parsed = position.safeParse(JSON.parse(atob(cursor.replaceAll("-", "+").replaceAll("_", "/"))));
    return parsed.success ? { createdAt: parsed.data[0], id: parsed.data[1] } : null;
  } catch {
    return null;
  }
}

export const ACTIVITY_PAGE_MAX = 200;

export const activityLogsRouter = router({
  /**
   * An account's activity, newest first, a page at a time (an infinite query: pass back
   * `nextCursor` as `cursor`). Filters: entity type, part of the actor's email, and calendar
   * days in the account's time zone. `enabled: false` answers nothing without asking.
   */
  list: signedInProcedure
    .input(
      z.object({
        accountId,
        enabled: z.boolean().optional(),
        cursor: z.string().max(300).nullish(),
        limit: z.number().int().min(1).max(ACTIVITY_PAGE_MAX).default(25),
        entityType: z
          .string()
          .max(40)
          .regex(/^[a-z][a-z-]*$/)
          .optional(),
        actor: searchText.optional(),
        from: day.optional(),
        to: day.optional(),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (input.enabled === false) return { items: [] as ActivityEntry[], nextCursor: null };
      const account = await accountInScope(ctx, input.accountId);
      const after = input.cursor ? decodeCursor(input.cursor) : null;
      if (input.cursor && !after) throw new TRPCError({ code: "BAD_REQUEST", message: String(ctx.t("errors.cursorInvalid")) });
      const rows = await listActivity(ctx.db, {
        accountId: account._id,
        after,
        // One more than asked tells whether there is a next page.
        limit: input.limit + 1,
        filter: {
          entityType: input.entityType,
          actor: input.actor || undefined,
          from: input.from ? startOfDay(input.from, account.timezone) : undefined,
          until: input.to ? startOfDay(input.to, account.timezone, 1) : undefined,
        },
      });
      const items = redactNetworkDetails(ctx, rows.slice(0, input.limit));
      const last = items.at(-1);
      return { items, nextCursor: rows.length > input.limit && last ? encodeCursor(last) : null };
    }),

  /**
   * The configuration changes not deployed yet (spec §4's banner counts them), newest first,
   * with their diffs; `limit: 0` asks for the count alone.
   */
  listChangesToDeploy: signedInProcedure
    .input(
      z.object({
        accountId,
        enabled: z.boolean().optional(),
        limit: z.number().int().min(0).max(ACTIVITY_PAGE_MAX).default(100),
      }),
    )
    .query(async ({ ctx, input }) => {
      if (input.enabled === false) return { items: [] as ActivityEntry[], count: 0 };
      const account = await accountInScope(ctx, input.accountId);
      const changes = await listChangesToDeploy(ctx.db, account._id, input.limit);
      return { ...changes, items: redactNetworkDetails(ctx, changes.items) };
    }),
});
