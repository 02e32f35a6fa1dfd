import { z } from "zod";
import { configuredEntitiesSummary } from "@/server/data/account-summary";
import { lastConfigurationActivity } from "@/server/data/activity-logs";
import { redactNetworkDetails } from "../network-redaction";
import { accountInScope } from "../tenancy";
import { signedInProcedure } from "../trpc";

const input = z.object({ accountId: z.string().min(1).max(64) });

/** What the account home shows (spec §7); spread into the accounts router. No flag: home is open to all (§6). */
export const accountSummaryProcedures = {
  /** Counts of the account's sites, locations, profiles, rules and devices. */
  getConfiguredEntitiesSummary: signedInProcedure.input(input).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    return configuredEntitiesSummary(ctx.db, account._id);
  }),

  /** The newest configuration change of the account, or null when there is none. */
  getLastConfigurationActivity: signedInProcedure.input(input).query(async ({ ctx, input }) => {
    const account = await accountInScope(ctx, input.accountId);
    const last = await lastConfigurationActivity(ctx.db, account._id);
    return last ? (redactNetworkDetails(ctx, [last])[0] ?? null) : null;
  }),
};
