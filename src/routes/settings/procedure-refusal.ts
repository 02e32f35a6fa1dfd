import { TRPCError } from "@trpc/server";
import { z } from "zod";
import { Refusal } from "@/server/api/refusal";
import type { ActionResult, RouteContext } from "../types";

type FormStatus = Extract<ActionResult, { ok: false }>["status"];

const statusOf: Partial<Record<TRPCError["code"], FormStatus>> = {
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  NOT_FOUND: 404,
  CONFLICT: 409,
  PRECONDITION_FAILED: 422,
};

/** The posted fields as text (files are not expected here and are dropped). */
export async function postedValues(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") values[name] = value;
  return values;
}

/**
 * A procedure's refusal as the form's answer, shown with the typed values: bad input on its
 * fields, a guard rail (own role, last owner, existing account …) where the procedure put it,
 * a stale version with an offer to reload. Messages about fields the form does not show go on
 * the whole form. Something not found (another tenant's id) is not about the form: it goes on
 * to the route error screen, unless `notFoundOnForm` (a row that has gone meanwhile).
 */
export function formRefusal(
  error: unknown,
  values: Record<string, string>,
  { fields, notFoundOnForm = false }: { fields: readonly string[]; notFoundOnForm?: boolean },
): ActionResult {
  if (!(error instanceof TRPCError)) throw error;
  const status = statusOf[error.code];
  if (!status || (error.code === "NOT_FOUND" && !notFoundOnForm)) throw error;
  const where = (field: string) => (fields.includes(field) ? field : "form");
  const errors: Record<string, string> = {};
  if (error.cause instanceof Refusal) {
    errors[where(error.cause.field)] = error.cause.key;
  } else if (error.cause instanceof z.ZodError) {
    for (const issue of error.cause.issues) {
      const field = typeof issue.path[0] === "string" ? issue.path[0] : "form";
      errors[where(field)] ??= issue.message.startsWith("validation.") ? issue.message : "validation.Invalid";
    }
  } else {
    // Called over HTTP (proxy mode): only the code is known here.
    errors.form = error.code === "CONFLICT" ? "errors.staleEdit" : "errors.internal";
  }
  if (errors.form === "errors.staleEdit") errors.conflict = "settings.reloadCurrent";
  return { ok: false, status, form: { values, errors } };
}

/** The server's errors (translation keys) in the page's language, for an island's first render. */
export function translatedErrors(
  errors: Record<string, string> | undefined,
  t: (key: string) => unknown,
): Record<string, string> {
  // A message translated already (a refusal with values) has spaces; keys never do.
  return Object.fromEntries(
    Object.entries(errors ?? {}).map(([field, key]) => [field, key.includes(" ") ? key : String(t(key))]),
  );
}
