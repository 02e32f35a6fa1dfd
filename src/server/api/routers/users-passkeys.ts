import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { nameText } from "@/schema/text";
import { PASSKEY_NAME_MAX } from "@/server/auth/passkeys";
import { batch } from "@/server/data/db";
import { deletePasskeyStatement, findUserPasskey, listUserPasskeys, renamePasskeyStatement } from "@/server/data/passkeys";
import { type ApiContext, signedInProcedure } from "../trpc";

const id = z.string().min(1).max(64);
export const passkeyName = nameText(PASSKEY_NAME_MAX, "validation.PasskeyNameTooLong", "validation.PasskeyNameRequired");

/** The caller's own passkey; anyone else's is NOT_FOUND, as if it did not exist. */
async function ownPasskey(ctx: ApiContext & { user: NonNullable<ApiContext["user"]> }, passkeyId: string) {
  const passkey = await findUserPasskey(ctx.db, ctx.user.id, passkeyId);
  if (!passkey) throw new TRPCError({ code: "NOT_FOUND", message: String(ctx.t("passkeys.notFound")) });
  return passkey;
}

/** users.* procedures about the caller's own passkeys (spread into routers/users.ts). */
export const passkeyProcedures = {
  listPasskeysForUser: signedInProcedure.query(async ({ ctx }) => {
    const passkeys = await listUserPasskeys(ctx.db, ctx.user.id);
    return passkeys.map((p) => ({
      id: p.id,
      name: p.name,
      createdAt: p.createdAt,
      lastUsedAt: p.lastUsedAt,
      deviceType: p.deviceType,
      backedUp: p.backedUp,
    }));
  }),

  renamePasskey: signedInProcedure.input(z.object({ id, name: passkeyName })).mutation(async ({ ctx, input }) => {
    await ownPasskey(ctx, input.id);
    await batch(ctx.db, [renamePasskeyStatement(ctx.db, ctx.user.id, input.id, input.name)]);
    return { id: input.id, name: input.name };
  }),

  removePasskey: signedInProcedure.input(z.object({ id })).mutation(async ({ ctx, input }) => {
    await ownPasskey(ctx, input.id);
    await batch(ctx.db, [deletePasskeyStatement(ctx.db, ctx.user.id, input.id)]);
    return { id: input.id };
  }),
};
