import { z } from "zod";
import { accountInScope } from "../tenancy";
import { router, signedInProcedure } from "../trpc";

/**
 * Devices (spec §7). Only the account home's counts so far: the devices table arrives with the
 * inventory, and until then every count is honestly 0 (no table to ask).
 */
export const devicesRouter = router({
  getConfiguredDeviceCounts: signedInProcedure
    .input(z.object({ accountId: z.string().min(1).max(64) }))
    .query(async ({ ctx, input }) => {
      await accountInScope(ctx, input.accountId);
      return { total: 0, upToDate: 0, pending: 0, neverSeen: 0 };
    }),
});
