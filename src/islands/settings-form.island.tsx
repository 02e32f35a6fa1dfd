import { useCallback } from "react";
import { fieldMessage, fieldMessageKeys } from "@/schema/field-message-keys";
import { Button, type ButtonVariant } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field, SelectField } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm } from "./runtime/use-form";

/**
 * The client rule of a field, the same as the procedures' zod schemas; the server checks
 * the same and more (scope, roles, free seats, unique domains, versions).
 */
export type SettingsFieldRule =
  | "required"
  | "name"
  | "email"
  | "issuer"
  | "domains"
  | "plan"
  | "reference"
  | "seats"
  | "start"
  | "end";

export type SettingsField =
  | {
      kind: "text" | "email" | "url" | "password" | "number" | "date";
      name: string;
      label: string;
      value: string;
      rule?: SettingsFieldRule;
      /** Whose messages name it (validation.fields.<subject>.*); else the rule's, else the field's name. */
      subject?: string;
      hint?: string;
      autoComplete?: string;
    }
  | {
      kind: "select";
      name: string;
      label: string;
      value: string;
      options: { value: string; label: string }[];
      /** "choice": an empty option is no answer. */
      rule?: "choice";
      subject?: string;
      hint?: string;
    }
  /** A fact shown, not changed ("Organization: Acme"). */
  | { kind: "note"; name: string; label: string; value: string }
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
  /** A way back without saving. */
  cancel?: { href: string; text: string };
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  /** The page again, offered after a stale save to load the current version. */
  reload?: { href: string; text: string };
  /** The message key shown when the server cannot be reached (declared in the registry). */
  networkErrorKey?: "settings.networkError" | "subscriptions.networkError" | "identityForm.networkError";
};

const NAME_MAX = 120;
const TEXT_MAX = 80;
const MAX_SEATS = 1_000_000;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const ISSUER = /^https:\/\/[^\s]+$|^http:\/\/(localhost|127\.0\.0\.1)(:\d+)?(\/[^\s]*)?$/;
const DOMAIN = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}$/;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const MAX_LENGTH: Partial<Record<SettingsFieldRule, number>> = { name: NAME_MAX, plan: TEXT_MAX, reference: TEXT_MAX };
/** Rules that check a value when there is one but accept none. */
const OPTIONAL: (SettingsFieldRule | undefined)[] = [undefined, "reference", "end"];

function isDay(value: string): boolean {
  return (
    DAY.test(value) &&
    !Number.isNaN(Date.parse(`${value}T00:00:00Z`)) &&
    new Date(`${value}T00:00:00Z`).toISOString().startsWith(value)
  );
}

/** Rules whose messages are about one thing whatever the field's name. */
const RULE_SUBJECT: Partial<Record<SettingsFieldRule, string>> = {
  plan: "plan",
  reference: "reference",
  seats: "seats",
  start: "startDate",
  end: "endDate",
  issuer: "issuer",
};

type Checked = Exclude<SettingsField, { kind: "note" } | { kind: "hidden" }>;

function subjectOf(field: Checked): string {
  return field.subject ?? (field.rule && field.rule !== "choice" ? RULE_SUBJECT[field.rule] : undefined) ?? field.name;
}

/** Which generic message each of a field's own messages replaces. */
const NAMED: Record<string, "required" | "tooLong" | "invalid"> = {
  "validation.Required": "required",
  "validation.ChooseOne": "required",
  "validation.NameTooLong": "tooLong",
  "validation.PlanTooLong": "tooLong",
  "validation.ReferenceTooLong": "tooLong",
  "validation.DateInvalid": "invalid",
  "validation.EmailRequired": "required",
  "validation.EmailInvalid": "invalid",
};

/** The keys of the fields' own messages, for the registry (the server sends those that exist). */
export function settingsFormMessageKeys(props: { fields: SettingsField[] }): string[] {
  return props.fields.flatMap((field) =>
    field.kind === "note" || field.kind === "hidden" ? [] : fieldMessageKeys(subjectOf(field)),
  );
}

/** A field's problem as a translation key, or null. */
function problemKey(rule: SettingsFieldRule | "choice" | undefined, value: string, values: Record<string, string>) {
  const text = value.trim();
  switch (rule) {
    case "required":
      return text === "" ? "validation.Required" : null;
    case "name":
      return text === "" ? "validation.Required" : text.length > NAME_MAX ? "validation.NameTooLong" : null;
    case "email":
      return text === "" ? "validation.EmailRequired" : EMAIL.test(text) ? null : "validation.EmailInvalid";
    case "issuer":
      return text === "" ? "validation.Required" : ISSUER.test(text) ? null : "validation.IssuerInvalid";
    case "domains": {
      const domains = value.split(/[\s,;]+/).filter(Boolean);
      if (domains.length === 0) return "validation.DomainsRequired";
      return domains.some((domain) => !DOMAIN.test(domain.toLowerCase())) ? "validation.DomainInvalid" : null;
    }
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
 * The forms of the settings screens (organizations, users, invitations, subscriptions,
 * allocations, identity providers, sites, locations): a plain post that works without
 * JavaScript; with it, validated in the browser (on submit, then on change) and posted in
 * the background.
 */
export default function SettingsForm(props: SettingsFormProps) {
  const { messages, action, fields, submitLabel, submitDescription, variant = "primary", compact = false } = props;
  const { cancel, reload, networkErrorKey = "settings.networkError" } = props;
  const validate = useCallback(
    (values: Record<string, string>) => {
      const errors: FieldErrors = {};
      for (const field of fields) {
        if (field.kind === "hidden" || field.kind === "note") continue;
        const key = problemKey(field.rule, values[field.name] ?? "", values);
        if (!key) continue;
        const problem = NAMED[key];
        const named = problem && fieldMessage(subjectOf(field), problem);
        errors[field.name] = translate(messages, named && named in messages ? named : key);
      }
      return errors;
    },
    [fields, messages],
  );
  const form = useEnhancedForm({
    validate,
    networkErrorText: translate(messages, networkErrorKey),
    initialErrors: props.errors,
  });
  const { errors, onSubmit } = form;

  const button = (
    <Button
      type="submit"
      variant={variant}
      size={compact ? "sm" : "md"}
      pending={form.pending}
      aria-label={submitDescription}
      className={cancel ? "" : "self-start"}
    >
      {submitLabel}
    </Button>
  );
  const hidden = (field: SettingsField) =>
    field.kind === "hidden" ? <input key={field.name} type="hidden" name={field.name} value={field.value} /> : null;
  if (compact) {
    return (
      <form method="post" action={action} onSubmit={onSubmit} className="inline">
        {fields.map(hidden)}
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
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} reload={reload} autoFocus={form.fromServer} />
      {fields.map((field) => {
        if (field.kind === "hidden") return hidden(field);
        if (field.kind === "note") {
          return (
            <p key={field.name} className="text-sm text-slate-700">
              <span className="font-medium text-slate-800">{field.label}: </span>
              {field.value}
            </p>
          );
        }
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
              required={field.rule !== undefined}
            />
          );
        }
        const number = field.kind === "number";
        return (
          <Field
            key={field.name}
            name={field.name}
            type={field.kind}
            label={field.label}
            hint={field.hint}
            defaultValue={field.value}
            autoComplete={field.autoComplete ?? "off"}
            inputMode={number ? "numeric" : field.kind === "url" ? "url" : undefined}
            min={number ? 1 : undefined}
            max={number ? MAX_SEATS : undefined}
            step={number ? 1 : undefined}
            maxLength={field.rule && MAX_LENGTH[field.rule]}
            required={!OPTIONAL.includes(field.rule)}
            error={errors[field.name]}
          />
        );
      })}
      {cancel ? (
        <div className="flex flex-wrap items-center gap-3">
          {button}
          <a href={cancel.href} className="text-sm font-semibold text-slate-700 hover:underline">
            {cancel.text}
          </a>
        </div>
      ) : (
        button
      )}
    </form>
  );
}
