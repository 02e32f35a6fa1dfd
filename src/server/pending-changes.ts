import type { Context } from "hono";
import { api } from "./api/procedures-route";
import { askedOnce, isRefusedAccount } from "./asked-once";
import type { AppEnv } from "./env";

const asked = new WeakMap<object, Map<string, Promise<number>>>();

/**
 * How many configuration changes of an account wait to be deployed (spec §4's banner), asked
 * through activityLogs.listChangesToDeploy for the count alone, once per request. A failure is
 * logged and shows no banner: the page itself still works.
 */
export function pendingChangesOf(c: Context<AppEnv>): (accountId: string) => Promise<number> {
  return (accountId) =>
    askedOnce(asked, c, accountId, () =>
      api(c)
        .activityLogs.listChangesToDeploy({ accountId, limit: 0 })
        .then(
          (result) => result.count,
          (error: unknown) => {
            if (!isRefusedAccount(error)) console.error("pending changes lookup failed", error);
            return 0;
          },
        ),
    );
}
