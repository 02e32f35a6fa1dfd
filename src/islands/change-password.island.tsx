import { useState } from "react";
import { fieldMessage } from "@/schema/field-message-keys";
import { Button } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm } from "./runtime/use-form";

/** Mirrors PASSWORD_MIN_LENGTH on the server, which stays the authority. */
const MIN_LENGTH = 8;

export type ChangePasswordProps = {
  messages: Messages;
  /** The account's email, for password managers (they save the new password under it). */
  email: string;
  /** Errors of a post the server answered without JavaScript, already translated. */
  initialErrors: FieldErrors;
};

function validate(messages: Messages) {
  return (values: Record<string, string>): FieldErrors => {
    const errors: FieldErrors = {};
    const next = values.newPassword ?? "";
    if (!values.currentPassword) errors.currentPassword = translate(messages, fieldMessage("currentPassword", "required"));
    if (!next) errors.newPassword = translate(messages, fieldMessage("newPassword", "required"));
    else if (next.length < MIN_LENGTH) errors.newPassword = translate(messages, "validation.PasswordTooShort");
    else if (!values.confirmPassword) errors.confirmPassword = translate(messages, "validation.PasswordConfirmationRequired");
    else if (values.confirmPassword !== next) errors.confirmPassword = translate(messages, "validation.PasswordMismatch");
    return errors;
  };
}

/** The change-password form of /security: a plain post without JavaScript, enhanced with it. */
export default function ChangePassword({ messages, email, initialErrors }: ChangePasswordProps) {
  const [validateValues] = useState(() => validate(messages));
  const form = useEnhancedForm({
    validate: validateValues,
    networkErrorText: translate(messages, "security.networkError"),
    initialErrors,
  });
  const { errors, onSubmit } = form;
  const t = (key: string) => translate(messages, key);

  return (
    <form
      method="post"
      action="/security"
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex flex-col gap-4"
    >
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} autoFocus={form.fromServer} />
      {/* Lets password managers file the new password under the right account. */}
      <input type="text" name="username" autoComplete="username" value={email} readOnly hidden />
      <Field
        label={t("security.currentPassword")}
        name="currentPassword"
        type="password"
        autoComplete="current-password"
        required
        error={errors.currentPassword}
      />
      <Field
        label={t("security.newPassword")}
        name="newPassword"
        type="password"
        autoComplete="new-password"
        required
        minLength={MIN_LENGTH}
        hint={t("security.newPasswordHint")}
        error={errors.newPassword}
      />
      <Field
        label={t("security.confirmPassword")}
        name="confirmPassword"
        type="password"
        autoComplete="new-password"
        required
        error={errors.confirmPassword}
      />
      <div>
        <Button type="submit" pending={form.pending}>
          {t("security.changePassword")}
        </Button>
      </div>
    </form>
  );
}
