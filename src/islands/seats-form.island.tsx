import { type FormEvent, useCallback, useState } from "react";
import { Button, type ButtonVariant } from "../ui/button";
import { Field, SelectField } from "../ui/field";
import { FormAlert } from "../ui/form-alert";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, useEnhancedForm } from "./runtime/use-form";

/** The client rule of a field; the server checks the same and more (scope, free seats, versions). */
export type SeatsRule = "plan" | "reference" | "seats" | "start" | "end" | "choice";

export type SeatsField =
  | {
      kind: "text" | "number" | "date";
      name: string;
      label: string;
      value: string;
      rule?: SeatsRule;
      hint?: string;
    }
  | { kind: "select"; name: string; label: string; value: string; options: { value: string; label: string }[]; hint?: string }
  | { kind: "hidden"; name: string; value: string };

export type SeatsFormProps = {
  messages: Messages;
  /** Where the form posts: its own page. */
  action: string;
  fields: SeatsField[];
  submitLabel: string;
  variant?: ButtonVariant;
  /** A way back without saving. */
  cancel?: { href: string; text: string };
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  /** The page again, offered after a stale save to load the current version. */
  reload?: { href: string; text: string };
};

const TEXT_MAX = 80;
const MAX_SEATS = 1_000_000;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function isDay(value: string): boolean {
  return (
    DAY.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
  );
}

/** The same rules as the procedures' zod schemas, as translation keys. */
function problemKey(rule: SeatsRule | undefined, value: string, values: Record<string, string>): string | null {
  const text = value.trim();
  switch (rule) {
    case "plan":
      return text === "" ? "validation.Required" : text.length > TEXT_MAX ? "validation.PlanTooLong" : null;
    case "reference":
      return text.length > TEXT_MAX ? "validation.ReferenceTooLong" : null;
    case "seats":
      if (text === "") return "validation.Required";
      if (!/^\d+$/.test(text)) return "validation.SeatsWholeNumber";
      if (Number(text) < 1) return "validation.SeatsTooFew";
      return Number(text) > MAX_SEATS ? "validation.SeatsTooMany" : null;
    case "start":
      return text === "" ? "validation.Required" : isDay(text) ? null : "validation.DateInvalid";
    case "end": {
      if (text === "") return null;
      if (!isDay(text)) return "validation.DateInvalid";
      const start = (values.startsAt ?? "").trim();
      return isDay(start) && text < start ? "validation.EndBeforeStart" : null;
    }
    case "choice":
      return text === "" ? "validation.ChooseOne" : null;
    default:
      return null;
  }
}

/**
 * The forms of subscriptions and allocations: a plain post that works without JavaScript;
 * with it, validated in the browser (on submit, then on change) and posted in the background.
 */
export default function SeatsForm(props: SeatsFormProps) {
  const { messages, action, fields, submitLabel, variant = "primary", cancel, reload } = props;
  const validate = useCallback(
    (values: Record<string, string>) => {
      const errors: FieldErrors = {};
      for (const field of fields) {
        if (field.kind === "hidden") continue;
        const rule = field.kind === "select" ? "choice" : field.rule;
        const key = problemKey(rule, values[field.name] ?? "", values);
        if (key) errors[field.name] = translate(messages, key);
      }
      return errors;
    },
    [fields, messages],
  );
  const form = useEnhancedForm({ validate, networkErrorText: translate(messages, "subscriptions.networkError") });
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
      <FormAlert message={errors.form} link={errors.conflict && reload ? reload : undefined} />
      {fields.map((field) => {
        if (field.kind === "hidden") return <input key={field.name} type="hidden" name={field.name} value={field.value} />;
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
              required
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
            autoComplete="off"
            inputMode={field.kind === "number" ? "numeric" : undefined}
            min={field.kind === "number" ? 1 : undefined}
            max={field.kind === "number" ? MAX_SEATS : undefined}
            step={field.kind === "number" ? 1 : undefined}
            maxLength={field.kind === "text" ? TEXT_MAX : undefined}
            required={field.rule !== undefined && field.rule !== "reference" && field.rule !== "end"}
            error={errors[field.name]}
          />
        );
      })}
      <div className="flex flex-wrap items-center gap-3">
        <Button type="submit" variant={variant} pending={form.pending}>
          {submitLabel}
        </Button>
        {cancel && (
          <a href={cancel.href} className="text-sm font-semibold text-slate-700 hover:underline">
            {cancel.text}
          </a>
        )}
      </div>
    </form>
  );
}
