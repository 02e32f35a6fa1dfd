import { TRPCError } from "@trpc/server";
import type { ReactNode } from "react";
import { Refusal } from "@/server/api/refusal";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field, SelectField, TextareaField } from "@/ui/field";
import { FormAlert } from "@/ui/form-alert";
import type { ActionResult, FormState, RouteContext } from "../types";

/** A message of a form: a key, or a refusal's message translated already (it has spaces). */
export function useMessage(): (key: string | undefined) => string | undefined {
  const { t } = usePage();
  return (key) => (key ? (key.includes(" ") ? key : String(t(key))) : undefined);
}

/** The posted fields as text. */
export async function posted(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody();
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) if (typeof value === "string") values[name] = value;
  return values;
}

const statusOf: Record<string, Extract<ActionResult, { ok: false }>["status"]> = {
  BAD_REQUEST: 400,
  FORBIDDEN: 403,
  CONFLICT: 409,
  PRECONDITION_FAILED: 422,
};

/**
 * A procedure's refusal as the form's answer: field messages on their fields, the rest on the
 * form. NOT_FOUND and anything unexpected go on to the error screen.
 */
export function refusedForm(error: unknown, values: Record<string, string>, fields: readonly string[]): ActionResult {
  if (!(error instanceof TRPCError)) throw error;
  const status = statusOf[error.code];
  if (!status) throw error;
  const where = (field: string) => (fields.includes(field) ? field : "form");
  const errors: Record<string, string> = {};
  if (error.cause instanceof Refusal) errors[where(error.cause.field)] = error.cause.key;
  else if (error.cause && "issues" in error.cause && Array.isArray(error.cause.issues)) {
    for (const issue of error.cause.issues as { path: unknown[]; message: string }[]) {
      const field = typeof issue.path[0] === "string" ? issue.path[0] : "form";
      errors[where(field)] ??= issue.message.startsWith("validation.") ? issue.message : "validation.Invalid";
    }
  } else errors.form = error.code === "CONFLICT" ? "errors.staleEdit" : "validation.Invalid";
  return { ok: false, status, form: { values, errors } };
}

/** Text inputs of a device form, with the posted values and errors. */
export function TextInput({
  form,
  name,
  label,
  value,
  hint,
  required,
  maxLength,
}: {
  form: FormState | undefined;
  name: string;
  label: string;
  value: string;
  hint?: string;
  required?: boolean;
  maxLength?: number;
}) {
  const message = useMessage();
  return (
    <Field
      label={label}
      name={name}
      defaultValue={form?.values[name] ?? value}
      hint={hint}
      error={message(form?.errors[name])}
      required={required}
      maxLength={maxLength}
    />
  );
}

export function NotesInput({ form, value }: { form: FormState | undefined; value: string }) {
  const { t } = usePage();
  const message = useMessage();
  return (
    <TextareaField
      label={String(t("devices.fields.notes"))}
      name="notes"
      defaultValue={form?.values.notes ?? value}
      error={message(form?.errors.notes)}
      maxLength={2000}
      rows={3}
    />
  );
}

export function Choice({
  form,
  name,
  label,
  value,
  options,
  hint,
}: {
  form: FormState | undefined;
  name: string;
  label: string;
  value: string;
  options: { value: string; label: string }[];
  hint?: string;
}) {
  const message = useMessage();
  return (
    <SelectField
      label={label}
      name={name}
      defaultValue={form?.values[name] ?? value}
      options={options}
      hint={hint}
      error={message(form?.errors[name])}
    />
  );
}

/** A plain post form: its alert for messages about the whole form, its fields, its button. */
export function PostForm({
  action,
  form,
  submit,
  children,
  variant = "primary",
  encType,
}: {
  action: string;
  form?: FormState | undefined;
  submit: string;
  children?: ReactNode;
  variant?: "primary" | "secondary" | "danger" | "white";
  encType?: string;
}) {
  const message = useMessage();
  return (
    <form method="post" action={action} className="flex max-w-xl flex-col gap-4" encType={encType}>
      {form?.errors.form ? <FormAlert message={message(form.errors.form)} /> : null}
      {children}
      <div>
        <Button type="submit" variant={variant}>
          {submit}
        </Button>
      </div>
    </form>
  );
}

/** What a technician needs to provision a radio, with its secret shown this once. */
export function SecretPanel({ uid, secret, origin }: { uid: string; secret: string; origin: string }) {
  const { t } = usePage();
  return (
    <section aria-labelledby="secret-title" className="mb-6 rounded-lg border border-amber-300 bg-amber-50 p-4">
      <h2 id="secret-title" className="text-lg font-semibold text-slate-900">
        {t("devices.secret.title")}
      </h2>
      <p className="mt-1 text-sm text-slate-700">{t("devices.secret.once")}</p>
      <dl className="mt-3 grid gap-2 text-sm sm:grid-cols-[max-content_1fr]">
        <dt className="font-medium">{t("devices.fields.uid")}</dt>
        <dd className="font-mono">{uid}</dd>
        <dt className="font-medium">{t("devices.secret.secret")}</dt>
        <dd>
          <code className="font-mono break-all" data-device-secret>
            {secret}
          </code>
        </dd>
        <dt className="font-medium">{t("devices.secret.server")}</dt>
        <dd className="font-mono break-all">{`${origin}/device/v1`}</dd>
        <dt className="font-medium">{t("devices.secret.header")}</dt>
        <dd className="font-mono break-all">{`Authorization: Bearer ${uid}:${secret}`}</dd>
      </dl>
    </section>
  );
}
