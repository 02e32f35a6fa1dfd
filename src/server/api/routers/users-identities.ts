import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { activityStatement } from "@/server/data/activity-logs";
import { listUserExternalIdentities, unlinkExternalIdentityStatement } from "@/server/data/external-identities";
import { resolveSettings } from "@/server/settings";
import { signedInProcedure } from "../trpc";

/** users.* procedures about the caller's own linked identities (spread into routers/users.ts). */
export const identityProcedures = {
  /** The identities linked to the caller: provider, the email it gave, when linked and last used. */
  listIdentityProvidersForUser: signedInProcedure.query(async ({ ctx }) => {
    const defaultProvider = resolveSettings(ctx.env).defaultIdentityProvider;
    const identities = await listUserExternalIdentities(ctx.db, ctx.user.id);
    return identities.map((identity) => ({
      id: identity.id,
      providerId: identity.providerId,
      providerName:
        identity.providerName ?? (identity.providerId === defaultProvider.id ? defaultProvider.name : identity.providerId),
      email: identity.email,
      linkedAt: identity.linkedAt,
      lastUsedAt: identity.lastUsedAt,
    }));
  }),

  /**
   * Unlinks one of the caller's identities, refused (PRECONDITION_FAILED) when it is their last
   * way to sign in: no password, no passkey and no other linked identity.
   */
  unlinkExternalIdentity: signedInProcedure
    .input(z.object({ id: z.string().min(1).max(64) }))
    .mutation(async ({ ctx, input }) => {
      const identities = await listUserExternalIdentities(ctx.db, ctx.user.id);
      const identity = identities.find((i) => i.id === input.id);
      if (!identity) throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("security.identityNotFound")) });
      const [result] = await ctx.db.batch([
        unlinkExternalIdentityStatement(ctx.db, ctx.user.id, identity.id),
        activityStatement(ctx.db, {
          orgId: ctx.user.orgId,
          accountId: null,
          actor: ctx.user,
          action: "delete",
          entityType: "external-identity",
          entityId: identity.id,
          entityLabel: identity.email,
          diff: { provider: { before: identity.providerName ?? identity.providerId }, email: { before: identity.email } },
          deployable: false,
        }),
      ]);
      if (!result?.meta.changes) {
        throw new TRPCError({ code: "PRECONDITION_FAILED", message: String(ctx.t("security.unlinkLastWayIn")) });
      }
      return { ok: true as const };
    }),
};
