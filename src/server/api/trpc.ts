import { initTRPC, TRPCError } from "@trpc/server";
import { z } from "zod";
import type { Language } from "@/schema/languages";
import type { Permission } from "@/schema/permissions";
import type { SessionUser } from "../auth/sessions";
import { databaseRefusal } from "../data/database-errors";
import type { Db } from "../data/db";
import type { Env } from "../env";
import type { Translate } from "../i18n/i18n";
import { integratorProcedures } from "./integrator-procedures";
import { Refusal } from "./refusal";

/** What every procedure knows about its caller; built per request (HTTP or in process). */
export type ApiContext = {
  env: Env;
  db: Db;
  user: SessionUser | null;
  language: Language;
  /** This site's origin, for links in mail. */
  origin: string;
  /** Messages of errors and mail are sent in the caller's language. */
  t: Translate;
};

/** What a procedure declares about itself; the permission matrix test reads it. */
export type ProcedureMeta = { permission?: Permission; signedIn?: boolean };

const t = initTRPC
  .context<ApiContext>()
  .meta<ProcedureMeta>()
  .create({
    // No stack traces on the wire; field messages for bad input (DESIGN.md §5).
    isDev: false,
    errorFormatter({ shape, error, ctx }) {
      // Zod messages are translation keys (validation.*); send them translated, field by field.
      const translate = (message: string) => (ctx && message.startsWith("validation.") ? String(ctx.t(message)) : message);
      const fieldErrors =
        error.cause instanceof z.ZodError
          ? Object.fromEntries(
              Object.entries(z.flattenError(error.cause).fieldErrors).map(([f, m]) => [f, (m as string[]).map(translate)]),
            )
          : undefined;
      // An unexpected error says nothing about its cause (no D1 text on the wire); the log has it.
      const message =
        shape.data.code === "INTERNAL_SERVER_ERROR" ? (ctx ? String(ctx.t("errors.internal")) : "Internal error") : shape.message;
      return { ...shape, message, data: { ...shape.data, stack: undefined, fieldErrors } };
    },
  });

/** D1 refusing what input made of a statement (a CHECK, a UNIQUE …) is a 4xx, whichever procedure ran it. */
const databaseErrors = t.middleware(async ({ ctx, next }) => {
  const result = await next();
  if (!result.ok && result.error.code === "INTERNAL_SERVER_ERROR") {
    const refusal = databaseRefusal(result.error.cause ?? result.error);
    if (refusal) {
      throw new TRPCError({ code: refusal.code, message: String(ctx.t(refusal.key)), cause: new Refusal(refusal.key, "form") });
    }
  }
  return result;
});

/** An API token reaches only the integrators' procedures (issue 27); the screens' own stay the screens'. */
const tokenReach = t.middleware(({ ctx, path, next }) => {
  if (ctx.user?.token && !integratorProcedures.has(path)) {
    throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("apiTokens.errors.notForTokens")) });
  }
  return next();
});

export const router = t.router;
export const publicProcedure = t.procedure.use(tokenReach).use(databaseErrors);
export const createCallerFactory = t.createCallerFactory;

/** A procedure for signed-in callers; the context's user is then never null. */
export const signedInProcedure = publicProcedure.meta({ signedIn: true }).use(({ ctx, next }) => {
  if (!ctx.user) throw new TRPCError({ code: "UNAUTHORIZED", message: String(ctx.t("errors.signInFirst")) });
  return next({ ctx: { ...ctx, user: ctx.user } });
});

/** A procedure for callers holding a permission flag (spec §6), checked here, not by hiding links. */
export function procedureWith(permission: Permission) {
  return signedInProcedure.meta({ signedIn: true, permission }).use(({ ctx, next }) => {
    if (!ctx.user.permissions[permission]) throw new TRPCError({ code: "FORBIDDEN", message: String(ctx.t("errors.protected")) });
    return next();
  });
}
