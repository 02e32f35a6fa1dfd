import { TRPCError } from "@trpc/server";
import { z } from "zod";
import type { ActionResult, RouteContext } from "../types";

/** The posted fields as text (files are not expected here and are dropped). */
export async function postedValues(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") values[name] = value;
  return values;
}

/** Procedures' zod messages are translation keys; anything else (a type error) gets a general one. */
function messageKey(message: string): string {
  return message.startsWith("validation.") ? message : "validation.Invalid";
}

type Refusal = {
  /** The form field an input path of the procedure belongs to ("form" when none). */
  fieldOf: (path: PropertyKey[]) => string;
  /** Where a PRECONDITION_FAILED goes (e.g. the typed confirmation of a delete). */
  precondition?: { field: string; key: string };
};

/**
 * A procedure's refusal as the form's answer: bad input on its fields (400), a stale version
 * as a form message with an offer to reload (409). Anything else (not found, forbidden) is not
 * about the form and goes on to the route error screen.
 */
export function refusal(error: unknown, values: Record<string, string>, { fieldOf, precondition }: Refusal): ActionResult {
  if (!(error instanceof TRPCError)) throw error;
  if (error.code === "BAD_REQUEST" && error.cause instanceof z.ZodError) {
    const errors: Record<string, string> = {};
    for (const issue of error.cause.issues) {
      const field = fieldOf(issue.path);
      errors[field] ??= messageKey(issue.message);
    }
    return { ok: false, status: 400, form: { values, errors } };
  }
  // Bad input without its issues (the procedures ran upstream, in proxy mode): said on the form.
  if (error.code === "BAD_REQUEST") return { ok: false, status: 400, form: { values, errors: { form: "validation.Invalid" } } };
  if (error.code === "CONFLICT") {
    return { ok: false, status: 409, form: { values, errors: { form: "errors.staleEdit", conflict: "accounts.reloadCurrent" } } };
  }
  if (error.code === "PRECONDITION_FAILED" && precondition) {
    return { ok: false, status: 422, form: { values, errors: { [precondition.field]: precondition.key } } };
  }
  throw error;
}

/** The server's errors (translation keys) in the page's language, for an island's first render. */
export function translatedErrors(
  errors: Record<string, string> | undefined,
  t: (key: string) => unknown,
): Record<string, string> {
  return Object.fromEntries(Object.entries(errors ?? {}).map(([field, key]) => [field, String(t(key))]));
}
