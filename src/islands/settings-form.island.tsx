import { type FormEvent, useCallback, useState } from "react";
import { Button, type ButtonVariant } from "../ui/button";
import { Field, SelectField } from "../ui/field";
import { FormAlert } from "../ui/form-alert";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, useEnhancedForm } from "./runtime/use-form";

/** The client rule of a field; the server checks the same and more (scope, roles, versions). */
export type SettingsFieldRule = "name" | "email";

export type SettingsField =
  | {
      kind: "text" | "email";
      name: string;
      label: string;
      value: string;
      rule?: SettingsFieldRule;
      hint?: string;
      autoComplete?: string;
    }
  | { kind: "select"; name: string; label: string; value: string; options: { value: string; label: string }[]; hint?: string }
  | { kind: "hidden"; name: string; value: string };

export type SettingsFormProps = {
  messages: Messages;
  /** Where the form posts: its own page. */
  action: string;
  fields: SettingsField[];
  submitLabel: string;
  /** Names the button for assistive technology when its text alone is ambiguous (one per list row). */
  submitDescription?: string;
  variant?: ButtonVariant;
  /** A single button in a list row: no field errors shown inline, a failure is a toast. */
  compact?: boolean;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  /** The page again, offered after a stale save to load the current version. */
  reload?: { href: string; text: string };
};

const NAME_MAX = 120;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function problemKey(rule: SettingsFieldRule | undefined, value: string): string | null {
  const text = value.trim();
  if (rule === "name") return text === "" ? "validation.Required" : text.length > NAME_MAX ? "validation.NameTooLong" : null;
  if (rule === "email") return text === "" ? "validation.EmailRequired" : EMAIL.test(text) ? null : "validation.EmailInvalid";
  return null;
}

/**
 * The forms of the settings screens (organizations, users, invitations): a plain post that
 * works without JavaScript; with it, validated in the browser and posted in the background.
 */
export default function SettingsForm(props: SettingsFormProps) {
  const { messages, action, fields, submitLabel, submitDescription, variant = "primary", compact = false, reload } = props;
  const validate = useCallback(
    (values: Record<string, string>) => {
      const errors: FieldErrors = {};
      for (const field of fields) {
        const key = field.kind === "text" || field.kind === "email" ? problemKey(field.rule, values[field.name] ?? "") : null;
        if (key) errors[field.name] = translate(messages, key);
      }
      return errors;
    },
    [fields, messages],
  );
  const form = useEnhancedForm({ validate, networkErrorText: translate(messages, "settings.networkError") });
  // The server's errors stand until the first submit here replaces them.
  const [submitted, setSubmitted] = useState(false);
  const errors = submitted ? form.errors : props.errors;
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    setSubmitted(true);
    return form.onSubmit(event);
  };

  const button = (
    <Button
      type="submit"
      variant={variant}
      size={compact ? "sm" : "md"}
      pending={form.pending}
      aria-label={submitDescription}
      className="self-start"
    >
      {submitLabel}
    </Button>
  );
  const hidden = fields.map((field) =>
    field.kind === "hidden" ? <input key={field.name} type="hidden" name={field.name} value={field.value} /> : null,
  );
  if (compact) {
    return (
      <form method="post" action={action} onSubmit={onSubmit} className="inline">
        {hidden}
        {button}
      </form>
    );
  }
  return (
    <form
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-xl flex-col gap-4"
    >
      <FormAlert message={errors.form} link={errors.conflict && reload ? reload : undefined} />
      {hidden}
      {fields.map((field) => {
        if (field.kind === "hidden") return null;
        if (field.kind === "select") {
          return (
            <SelectField
              key={field.name}
              name={field.name}
              label={field.label}
              hint={field.hint}
              defaultValue={field.value}
              options={field.options}
              error={errors[field.name]}
            />
          );
        }
        return (
          <Field
            key={field.name}
            name={field.name}
            type={field.kind}
            label={field.label}
            hint={field.hint}
            defaultValue={field.value}
            autoComplete={field.autoComplete ?? "off"}
            required={field.rule !== undefined}
            maxLength={field.rule === "name" ? NAME_MAX : undefined}
            error={errors[field.name]}
          />
        );
      })}
      {button}
    </form>
  );
}
