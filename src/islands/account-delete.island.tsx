import { useState } from "react";
import { Button } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm } from "./runtime/use-form";

export type AccountDeleteProps = {
  messages: Messages;
  action: string;
  /** The account's name, which the user types to confirm. */
  name: string;
  version: number;
  /** What was typed before a post the server refused (without JavaScript). */
  confirmName: string;
  errors: FieldErrors;
  reloadHref: string;
};

/** Deleting an account: the user types its exact name first (checked here and on the server). */
export default function AccountDelete({
  messages,
  action,
  name,
  version,
  confirmName,
  errors: serverErrors,
  reloadHref,
}: AccountDeleteProps) {
  const [validate] = useState(
    () =>
      (values: Record<string, string>): FieldErrors =>
        (values.confirmName ?? "").trim() === name ? {} : { confirmName: translate(messages, "validation.ConfirmNameMismatch") },
  );
  const form = useEnhancedForm({
    validate,
    networkErrorText: translate(messages, "accounts.networkError"),
    initialErrors: serverErrors,
  });
  const { errors, onSubmit } = form;

  return (
    <form
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-xl flex-col gap-4"
    >
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} reload={{ href: reloadHref }} autoFocus={form.fromServer} />
      <input type="hidden" name="intent" value="delete" />
      <input type="hidden" name="version" value={version} />
      <Field
        label={translate(messages, "accounts.delete.confirmLabel", { name })}
        name="confirmName"
        defaultValue={confirmName}
        autoComplete="off"
        spellCheck={false}
        required
        error={errors.confirmName}
      />
      <div>
        <Button type="submit" variant="danger" pending={form.pending}>
          {translate(messages, "accounts.delete.submit")}
        </Button>
      </div>
    </form>
  );
}
