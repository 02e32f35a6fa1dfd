import { useEffect, useRef, useState } from "react";
import { fieldMessage } from "@/schema/field-message-keys";
import { Button, ButtonLink } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field, SelectField } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm } from "./runtime/use-form";

const NAME_MAX_LENGTH = 120;

export type AccountFormProps = {
  messages: Messages;
  mode: "add" | "edit";
  /** Where the form posts: its own page. */
  action: string;
  /** name, subscriptionLevel, timezone, and orgId (add) or version (edit). */
  values: Record<string, string>;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
  /** The time zones to offer, each by its localised name. */
  timeZones: { value: string; label: string }[];
  /** The organizations an account may be added to (add only), indented by depth. */
  organizations: { value: string; label: string }[];
  /** The page again, to load the current version after a stale save. */
  reloadHref: string;
};

function validate(messages: Messages) {
  return (values: Record<string, string>): FieldErrors => {
    const name = (values.name ?? "").trim();
    if (!name) return { name: translate(messages, fieldMessage("accountName", "required")) };
    if (name.length > NAME_MAX_LENGTH) return { name: translate(messages, fieldMessage("accountName", "tooLong")) };
    return {};
  };
}

/**
 * The account's general fields, to add an account or edit one: a plain post without
 * JavaScript, validated in the browser and posted in the background with it.
 */
export default function AccountForm({
  messages,
  mode,
  action,
  values,
  errors: serverErrors,
  timeZones,
  organizations,
  reloadHref,
}: AccountFormProps) {
  const [validateValues] = useState(() => validate(messages));
  const form = useEnhancedForm({
    validate: validateValues,
    networkErrorText: translate(messages, "accounts.networkError"),
    initialErrors: serverErrors,
  });
  const { errors, onSubmit } = form;
  const t = (key: string) => translate(messages, key);
  const formElement = useRef<HTMLFormElement>(null);

  // A new account most likely runs where its maker sits: start from the browser's time zone,
  // unless the person already chose one (on a slow phone, before this ran).
  useEffect(() => {
    const local = Intl.DateTimeFormat().resolvedOptions().timeZone;
    const select = formElement.current?.elements.namedItem("timezone");
    const fresh = mode === "add" && values.timezone === "UTC" && Object.keys(serverErrors).length === 0;
    const untouched = select instanceof HTMLSelectElement && select.value === values.timezone;
    if (fresh && untouched && timeZones.some((zone) => zone.value === local)) {
      select.value = local;
    }
  }, [mode, values.timezone, timeZones, serverErrors]);

  return (
    <form
      ref={formElement}
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-xl flex-col gap-4"
    >
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} reload={{ href: reloadHref }} autoFocus={form.fromServer} />
      <input type="hidden" name="intent" value="save" />
      {mode === "edit" && <input type="hidden" name="version" value={values.version ?? ""} />}
      <Field
        label={t("accounts.fields.name")}
        name="name"
        defaultValue={values.name ?? ""}
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
        error={errors.name}
      />
      <SelectField
        label={t("accounts.fields.level")}
        name="subscriptionLevel"
        defaultValue={values.subscriptionLevel ?? "essential"}
        hint={t("accounts.fields.levelHint")}
        error={errors.subscriptionLevel}
        options={[
          { value: "essential", label: t("accounts.levels.essential") },
          { value: "advanced", label: t("accounts.levels.advanced") },
        ]}
      />
      <SelectField
        label={t("accounts.fields.timezone")}
        name="timezone"
        defaultValue={values.timezone ?? "UTC"}
        hint={t("accounts.fields.timezoneHint")}
        error={errors.timezone}
        options={timeZones}
      />
      {mode === "add" &&
        (organizations.length > 1 ? (
          <SelectField
            label={t("accounts.fields.organization")}
            name="orgId"
            defaultValue={values.orgId}
            error={errors.orgId}
            options={organizations}
          />
        ) : (
          <input type="hidden" name="orgId" value={values.orgId ?? ""} />
        ))}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" pending={form.pending}>
          {t(mode === "add" ? "accounts.add.submit" : "accounts.general.submit")}
        </Button>
        {mode === "add" && (
          <ButtonLink href="/accounts" variant="white">
            {t("accounts.cancel")}
          </ButtonLink>
        )}
      </div>
    </form>
  );
}
