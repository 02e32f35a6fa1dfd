import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { Refusal } from "@/server/api/refusal";
import type { ActionResult } from "../types";

type FormStatus = Extract<ActionResult, { ok: false }>["status"];

const statusOf: Partial<Record<TRPCError["code"], FormStatus>> = {
  BAD_REQUEST: 400,
  CONFLICT: 409,
  PRECONDITION_FAILED: 422,
};

/**
 * A procedure's refusal as the profile and rule forms show it, with everything typed kept:
 * bad input next to its field (`fieldOf` places an input path on the form), a name already
 * taken on the name, a stale version on the whole form with a link to reload the current one.
 * Anything else (not found, forbidden) is not about the form: the route error screen says it.
 */
export function configurationRefusal(
  error: unknown,
  values: Record<string, string>,
  fieldOf: (path: readonly PropertyKey[]) => string,
): ActionResult {
  if (!(error instanceof TRPCError)) throw error;
  const status = statusOf[error.code];
  if (!status) throw error;
  const errors: Record<string, string> = {};
  if (error.cause instanceof Refusal) {
    errors[error.cause.field] = error.cause.key;
  } else if (error.cause instanceof z.ZodError) {
    for (const issue of error.cause.issues) {
      errors[fieldOf(issue.path)] ??= issue.message.startsWith("validation.") ? issue.message : "validation.Invalid";
    }
  } else {
    // Called over HTTP (proxy mode): only the code is known here.
    errors.form = error.code === "CONFLICT" ? "errors.staleEdit" : "validation.Invalid";
  }
  if (error.code === "CONFLICT") errors.conflict = "profiles.reload";
  return { ok: false, status, form: { values, errors } };
}
