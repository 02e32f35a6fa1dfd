import { TRPCError } from "@trpc/server";
import type { Context } from "hono";
import { api } from "./api/procedures-route";
import type { AppEnv } from "./env";

// Per request, so every part of a page that shows the banner asks once.
const asked = new WeakMap<Request, Map<string, Promise<number>>>();

/**
 * How many configuration changes of an account wait to be deployed (spec §4's banner), asked
 * through activityLogs.listChangesToDeploy for the count alone. A failure is logged and shows
 * no banner: the page itself still works.
 */
export function pendingChangesOf(c: Context<AppEnv>): (accountId: string) => Promise<number> {
  return (accountId) => {
    let byId = asked.get(c.req.raw);
    if (!byId) {
      byId = new Map();
      asked.set(c.req.raw, byId);
    }
    let count = byId.get(accountId);
    if (!count) {
      count = api(c)
        .activityLogs.listChangesToDeploy({ accountId, limit: 0 })
        .then(
          (result) => result.count,
          (error: unknown) => {
            // Another tenant's or an unknown account: the page itself says so.
            const expected = error instanceof TRPCError && ["NOT_FOUND", "FORBIDDEN", "BAD_REQUEST"].includes(error.code);
            if (!expected) console.error("pending changes lookup failed", error);
            return 0;
          },
        );
      byId.set(accountId, count);
    }
    return count;
  };
}
