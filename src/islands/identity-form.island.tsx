import { useCallback } from "react";
import { Button } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm } from "./runtime/use-form";

/** The client rule a field follows; the server checks the same and more (common passwords). */
export type FieldRule = "email" | "new-password" | "same-as-password" | "name" | "none";

export type IdentityField = {
  name: string;
  label: string;
  type: "email" | "password" | "text";
  autoComplete: string;
  rule: FieldRule;
  hint?: string;
  value?: string;
  readOnly?: boolean;
};

export type IdentityFormProps = {
  messages: Messages;
  fields: IdentityField[];
  submitLabel: string;
  /** What a post without JavaScript left behind, already translated. */
  errors?: FieldErrors;
};

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function problemKey(rule: FieldRule, value: string, values: Record<string, string>): string | null {
  switch (rule) {
    case "email":
      if (value.trim() === "") return "validation.EmailRequired";
      return EMAIL.test(value.trim()) ? null : "validation.EmailInvalid";
    case "new-password":
      if (value === "") return "validation.PasswordRequired";
      if (value.length < 8) return "validation.PasswordTooShort";
      return value.length > 256 ? "validation.PasswordTooLong" : null;
    case "same-as-password":
      if (value === "") return "validation.PasswordConfirmationRequired";
      return value === values.password ? null : "validation.PasswordMismatch";
    case "name":
      if (value.trim() === "") return "validation.NameRequired";
      return value.trim().length > 120 ? "validation.NameTooLong" : null;
    default:
      return null;
  }
}

/**
 * The small forms around an account (forgot password, new password, accept invitation): a
 * plain post that works without JavaScript, validated in the browser when it runs.
 */
export default function IdentityForm({ messages, fields, submitLabel, errors: serverErrors = {} }: IdentityFormProps) {
  const validate = useCallback(
    (values: Record<string, string>) => {
      const errors: FieldErrors = {};
      for (const field of fields) {
        const key = problemKey(field.rule, values[field.name] ?? "", values);
        if (key) errors[field.name] = translate(messages, key);
      }
      return errors;
    },
    [fields, messages],
  );
  const form = useEnhancedForm({
    validate,
    networkErrorText: translate(messages, "identityForm.networkError"),
    initialErrors: serverErrors,
  });
  const { errors, onSubmit } = form;

  return (
    <form method="post" noValidate onSubmit={onSubmit} onChange={form.onChange} className="flex flex-col gap-4">
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} autoFocus={form.fromServer} />
      {fields.map((field) => (
        <Field
          key={field.name}
          name={field.name}
          label={field.label}
          type={field.type}
          autoComplete={field.autoComplete}
          hint={field.hint}
          error={errors[field.name]}
          defaultValue={field.value}
          readOnly={field.readOnly}
          required={!field.readOnly}
        />
      ))}
      <Button type="submit" pending={form.pending} className="self-start">
        {submitLabel}
      </Button>
    </form>
  );
}
