import { useRef, useState } from "react";
import { Button } from "../ui/button";
import { type Messages, translate } from "./runtime/messages";
import { useEnhancedForm, useFormSeed } from "./runtime/use-form";

export type CommandFormProps = {
  messages: Messages;
  /** Where the plain form posts (the page's own action). */
  action: string;
  types: string[];
  expiryChoices: number[];
  /** What was typed (after a refused post), and the refusals, already translated. */
  values: Record<string, string>;
  errors: Record<string, string>;
  /** One radio: its uid, which a stun asks to type again. Absent for a bulk send. */
  uid?: string;
  /** Fields the action needs besides (a bulk send's selection or filter). */
  hidden?: Record<string, string>;
  submitLabel: string;
};

const MESSAGE_MAX = 140;
/** The parameter fields each type uses; the others are hidden once JavaScript runs. */
const fieldsOf: Record<string, string[]> = {
  message: ["text"],
  locate: ["beepSeconds"],
  reboot: ["delaySeconds"],
  stun: ["confirmUid"],
};

/**
 * The send-a-command form: a plain post that works without JavaScript (every field shown,
 * the server uses those of the chosen type); with it, only the chosen type's fields show, the
 * message counts its characters, the stun confirmation is checked before posting, and the
 * post happens in the background.
 */
export default function CommandForm({
  messages,
  action,
  types,
  expiryChoices,
  values,
  errors: serverErrors,
  uid,
  hidden = {},
  submitLabel,
}: CommandFormProps) {
  const t = (key: string, v?: Record<string, string | number>) => translate(messages, key, v);
  const [type, setType] = useState(values.type && types.includes(values.type) ? values.type : (types[0] ?? "ping"));
  const [text, setText] = useState(values.text ?? "");
  const formRef = useRef<HTMLFormElement>(null);
  // A type chosen (or a message typed) before hydration stays the person's, rather than the next
  // render putting back the server's first type and hiding the stun confirmation.
  const enhanced = useFormSeed(formRef, (read) => {
    const chosen = read("type")?.value;
    if (chosen && types.includes(chosen)) setType(chosen);
    const typed = read("text")?.value;
    if (typed !== undefined) setText(typed);
  });
  const form = useEnhancedForm({
    networkErrorText: t("identityForm.networkError"),
    validate: (v) => {
      const errors: Record<string, string> = {};
      const chosen = v.type ?? "";
      if (chosen === "message" && !(v.text ?? "").trim()) errors.text = t("validation.Required");
      if (chosen === "message" && (v.text ?? "").trim().length > MESSAGE_MAX) errors.text = t("validation.MessageTooLong");
      if (chosen === "stun" && uid !== undefined && (v.confirmUid ?? "").trim() !== uid)
        errors.confirmUid = t("commands.errors.confirmUid");
      return errors;
    },
  });
  const errors = { ...serverErrors, ...form.errors };
  const shown = (field: string) => !enhanced || (fieldsOf[type] ?? []).includes(field);
  const input = "block w-full rounded-md border border-slate-300 px-3 py-2 text-base shadow-sm sm:text-sm";
  const error = (field: string) =>
    errors[field] ? (
      <p id={`command-${field}-error`} role="alert" className="text-sm font-medium text-red-700">
        {errors[field]}
      </p>
    ) : null;
  return (
    <form
      ref={formRef}
      method="post"
      action={action}
      onSubmit={form.onSubmit}
      onChange={form.onChange}
      className="max-w-xl space-y-5"
      data-testid="command-form"
    >
      {Object.entries(hidden).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {errors.form && (
        <p role="alert" className="rounded-md bg-red-50 p-3 text-sm font-medium text-red-800">
          {errors.form}
        </p>
      )}
      <fieldset>
        <legend className="mb-2 text-sm font-medium text-slate-800">{t("commands.form.type")}</legend>
        <div className="grid gap-2 sm:grid-cols-2">
          {types.map((option) => (
            <label
              key={option}
              className="flex cursor-pointer gap-2 rounded-md border border-slate-200 bg-white p-3 text-sm has-[:checked]:border-brand-600 has-[:checked]:bg-brand-50"
            >
              <input
                type="radio"
                name="type"
                value={option}
                checked={type === option}
                onChange={() => setType(option)}
                className="mt-1"
              />
              <span>
                <span className="block font-medium">{t(`commands.types.${option}`)}</span>
                <span className="block text-slate-600">{t(`commands.typeHelp.${option}`)}</span>
              </span>
            </label>
          ))}
        </div>
        {error("type")}
      </fieldset>
      {shown("text") && (
        <div className="flex flex-col gap-1">
          <label htmlFor="command-text" className="text-sm font-medium text-slate-800">
            {t("commands.form.text")}
          </label>
          <textarea
            id="command-text"
            name="text"
            rows={3}
            maxLength={MESSAGE_MAX}
            value={text}
            onChange={(event) => setText(event.target.value)}
            aria-invalid={errors.text ? true : undefined}
            aria-describedby={`command-text-hint${errors.text ? " command-text-error" : ""}`}
            className={input}
          />
          <p id="command-text-hint" className="text-sm text-slate-600">
            {t("commands.form.textHint", { count: text.length, max: MESSAGE_MAX })}
          </p>
          {error("text")}
        </div>
      )}
      {shown("beepSeconds") && (
        <div className="flex flex-col gap-1">
          <label htmlFor="command-beep" className="text-sm font-medium text-slate-800">
            {t("commands.form.beepSeconds")}
          </label>
          <input
            id="command-beep"
            name="beepSeconds"
            type="number"
            min={0}
            max={120}
            defaultValue={values.beepSeconds ?? "10"}
            className={`${input} w-32`}
          />
          {error("beepSeconds")}
        </div>
      )}
      {shown("delaySeconds") && (
        <div className="flex flex-col gap-1">
          <label htmlFor="command-delay" className="text-sm font-medium text-slate-800">
            {t("commands.form.delaySeconds")}
          </label>
          <input
            id="command-delay"
            name="delaySeconds"
            type="number"
            min={0}
            max={3600}
            defaultValue={values.delaySeconds ?? "0"}
            className={`${input} w-32`}
          />
          {error("delaySeconds")}
        </div>
      )}
      {uid !== undefined && shown("confirmUid") && (
        <div className="flex flex-col gap-1 rounded-md border border-red-200 bg-red-50 p-3">
          <p className="text-sm text-red-900">{t("commands.form.stunWarning")}</p>
          <label htmlFor="command-confirm" className="text-sm font-medium text-slate-800">
            {t("commands.form.confirmUid", { uid })}
          </label>
          <input
            id="command-confirm"
            name="confirmUid"
            autoComplete="off"
            defaultValue={values.confirmUid ?? ""}
            aria-invalid={errors.confirmUid ? true : undefined}
            aria-describedby={errors.confirmUid ? "command-confirmUid-error" : undefined}
            className={input}
          />
          {error("confirmUid")}
        </div>
      )}
      <div className="flex flex-col gap-1">
        <label htmlFor="command-expiry" className="text-sm font-medium text-slate-800">
          {t("commands.form.expiry")}
        </label>
        <select id="command-expiry" name="expiryHours" defaultValue={values.expiryHours ?? "24"} className={`${input} w-48`}>
          {expiryChoices.map((hours) => (
            <option key={hours} value={String(hours)}>
              {t(`commands.expiry.h${hours}`)}
            </option>
          ))}
        </select>
        {error("expiryHours")}
      </div>
      <Button type="submit" pending={form.pending} variant={type === "stun" ? "danger" : "primary"}>
        {submitLabel}
      </Button>
    </form>
  );
}

export const commandFormMessageKeys = (types: readonly string[], expiry: readonly number[]) => [
  "identityForm.networkError",
  "validation.Required",
  "validation.MessageTooLong",
  "commands.errors.confirmUid",
  "commands.form.type",
  "commands.form.text",
  "commands.form.textHint",
  "commands.form.beepSeconds",
  "commands.form.delaySeconds",
  "commands.form.expiry",
  "commands.form.stunWarning",
  "commands.form.confirmUid",
  ...types.map((type) => `commands.types.${type}`),
  ...types.map((type) => `commands.typeHelp.${type}`),
  ...expiry.map((hours) => `commands.expiry.h${hours}`),
];
