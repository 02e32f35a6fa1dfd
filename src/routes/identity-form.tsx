import type { IdentityField } from "../islands/identity-form.island";
import { Island } from "../islands/runtime/island";
import { usePage } from "../server/render/page-context";
import type { ActionResult, FormState } from "./types";

/**
 * The identity-form island as a page renders it: after a post without JavaScript, with the
 * typed values back in their fields (never passwords) and the errors in the page's language.
 */
export function IdentityFormIsland({
  fields,
  submitLabel,
  form,
}: {
  fields: IdentityField[];
  submitLabel: string;
  form?: FormState;
}) {
  const { t } = usePage();
  const errors = Object.fromEntries(Object.entries(form?.errors ?? {}).map(([field, key]) => [field, String(t(key))]));
  const withValues = fields.map((field) =>
    field.type === "password" || field.readOnly ? field : { ...field, value: form?.values[field.name] ?? field.value },
  );
  return <Island name="identity-form" props={{ fields: withValues, submitLabel, errors }} />;
}

/** A text field of a posted form ("" when absent or a file). */
export function formText(body: Record<string, unknown>, name: string): string {
  const value = body[name];
  return typeof value === "string" ? value : "";
}

/** A refused post: shown again with its errors; passwords are never sent back into the page. */
export function refused(
  status: 400 | 404 | 409 | 429,
  errors: Record<string, string>,
  values: Record<string, string> = {},
): ActionResult {
  return { ok: false, status, form: { values, errors } };
}

/** The rules of a new password and its confirmation, as translation keys per field. */
export function newPasswordErrors(password: string, confirmation: string, problem: string | null): Record<string, string> {
  const errors: Record<string, string> = {};
  if (problem) errors.password = problem;
  if (confirmation === "") errors.passwordConfirmation = "validation.PasswordConfirmationRequired";
  else if (confirmation !== password) errors.passwordConfirmation = "validation.PasswordMismatch";
  return errors;
}
