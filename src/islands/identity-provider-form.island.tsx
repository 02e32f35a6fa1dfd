import { type FormEvent, useCallback, useState } from "react";
import { Button } from "../ui/button";
import { Field, SelectField } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, useEnhancedForm } from "./runtime/use-form";

export type IdentityProviderFormProps = {
  messages: Messages;
  /** Where the form posts: its own page. */
  action: string;
  mode: "add" | "edit";
  /** The values to show: the stored ones, or what was typed before a refused post. Never the secret. */
  values: Record<string, string>;
  /** Organizations the provider may belong to (add only). */
  organizations: { value: string; label: string }[];
  /** Edit: the organization it belongs to, shown, not changed. */
  organizationName?: string;
  hasClientSecret: boolean;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  reloadHref?: string;
};

const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;

/** The client rules (the server checks the same and more: domains no other provider has). */
function problems(values: Record<string, string>): Record<string, string> {
  const found: Record<string, string> = {};
  const name = (values.name ?? "").trim();
  if (!name) found.name = "validation.Required";
  else if (name.length > 120) found.name = "validation.NameTooLong";
  const issuer = (values.issuer ?? "").trim();
  if (!issuer) found.issuer = "validation.Required";
  else if (!/^https:\/\/[^\s]+$|^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/[^\s]*)?$/.test(issuer))
    found.issuer = "validation.IssuerInvalid";
  if (!(values.clientId ?? "").trim()) found.clientId = "validation.Required";
  const domains = (values.emailDomains ?? "").split(/[\s,;]+/).filter(Boolean);
  if (domains.length === 0) found.emailDomains = "validation.DomainsRequired";
  else if (domains.some((d) => !DOMAIN.test(d.toLowerCase()))) found.emailDomains = "validation.DomainInvalid";
  return found;
}

/**
 * Adds or edits a single sign-on provider: a plain post that works without JavaScript; with it,
 * validated in the browser first and posted in the background. The client secret is write-only.
 */
export default function IdentityProviderForm(props: IdentityProviderFormProps) {
  const { messages, action, mode, values, organizations, organizationName, hasClientSecret, reloadHref } = props;
  const t = (key: string) => translate(messages, key);
  const validate = useCallback(
    (typed: Record<string, string>) =>
      Object.fromEntries(Object.entries(problems(typed)).map(([field, key]) => [field, translate(messages, key)])),
    [messages],
  );
  const form = useEnhancedForm({ validate, networkErrorText: t("identityForm.networkError") });
  // The server's errors stand until the first submit here replaces them.
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? form.errors : props.errors;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    return form.onSubmit(event);
  };
  return (
    <form
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-xl flex-col gap-4"
    >
      {errors.form && (
        <div role="alert" className="rounded-md border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p>{errors.form}</p>
          {errors.conflict && reloadHref && (
            <p className="mt-2">
              <a href={reloadHref} className="font-semibold underline">
                {errors.conflict}
              </a>
            </p>
          )}
        </div>
      )}
      {mode === "edit" && <input type="hidden" name="version" value={values.version ?? ""} />}
      {mode === "add" ? (
        <SelectField
          label={t("identityProviders.organization")}
          name="orgId"
          options={organizations}
          defaultValue={values.orgId}
          error={errors.orgId}
        />
      ) : (
        <p className="text-sm text-slate-700">
          <span className="font-medium text-slate-800">{t("identityProviders.organization")}: </span>
          {organizationName}
        </p>
      )}
      <Field
        label={t("identityProviders.name")}
        name="name"
        defaultValue={values.name}
        error={errors.name}
        required
        autoComplete="off"
      />
      <Field
        label={t("identityProviders.issuer")}
        name="issuer"
        type="url"
        inputMode="url"
        defaultValue={values.issuer}
        hint={t("identityProviders.issuerHint")}
        error={errors.issuer}
        required
        autoComplete="off"
      />
      <Field
        label={t("identityProviders.clientId")}
        name="clientId"
        defaultValue={values.clientId}
        error={errors.clientId}
        required
        autoComplete="off"
      />
      <Field
        label={t("identityProviders.clientSecret")}
        name="clientSecret"
        type="password"
        hint={t(hasClientSecret ? "identityProviders.clientSecretKeep" : "identityProviders.clientSecretHint")}
        error={errors.clientSecret}
        autoComplete="new-password"
      />
      <Field
        label={t("identityProviders.emailDomains")}
        name="emailDomains"
        defaultValue={values.emailDomains}
        hint={t("identityProviders.emailDomainsHint")}
        error={errors.emailDomains}
        required
        autoComplete="off"
      />
      <Button type="submit" pending={form.pending} className="self-start">
        {t(mode === "add" ? "identityProviders.add" : "identityProviders.save")}
      </Button>
    </form>
  );
}
