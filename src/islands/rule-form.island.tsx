import { useEffect, useRef, useState } from "react";
import { fieldMessage } from "@/schema/field-message-keys";
import { LABEL_SOURCE, ruleLimits, UID_PATTERN_SOURCE } from "@/schema/rule-limits";
import type { RuleFormModel } from "../routes/rules/rule-values";
import { Button, ButtonLink } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { controlClass, Field } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm, useFormSeed } from "./runtime/use-form";

const NAME_MAX_LENGTH = 120;

export type RuleFormProps = {
  messages: Messages;
  action: string;
  reloadHref: string;
  cancelHref: string;
  submitLabel: string;
  model: RuleFormModel;
  sites: { id: string; name: string }[];
  locations: { id: string; label: string }[];
  /** Places the rule names that no longer exist: shown ticked, so removing them is a choice. */
  deletedPlaces: { id: string; kind: "site" | "location" }[];
  /** The account's profiles, grouped by type (label), for the slots. */
  profileGroups: { label: string; options: { id: string; name: string }[] }[];
  maxSlots: number;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
};

const label = new RegExp(LABEL_SOURCE);
const uid = new RegExp(UID_PATTERN_SOURCE);

function listOf(text: string): string[] {
  return text
    .split(/[,\n]/)
    .map((item) => item.trim())
    .filter(Boolean);
}

function validate(values: Record<string, string>, t: (key: string) => string): FieldErrors {
  const errors: FieldErrors = {};
  const name = (values.name ?? "").trim();
  if (!name) errors.name = t(fieldMessage("ruleName", "required"));
  else if (name.length > NAME_MAX_LENGTH) errors.name = t(fieldMessage("ruleName", "tooLong"));
  for (const [field, many, bad] of [
    ["models", "validation.TooManyModels", "validation.ModelInvalid"],
    ["tags", "validation.TooManyTags", "validation.TagInvalid"],
  ] as const) {
    const items = listOf(values[field] ?? "");
    if (items.some((item) => item.length > ruleLimits.label || !label.test(item))) errors[field] = t(bad);
    else if (items.length > (field === "models" ? ruleLimits.models : ruleLimits.tags)) errors[field] = t(many);
  }
  const pattern = (values.uidPattern ?? "").trim();
  if (pattern && (pattern.length > ruleLimits.uidPattern || !uid.test(pattern)))
    errors.uidPattern = t("validation.UidPatternInvalid");
  const seen = new Set<string>();
  for (const [key, value] of Object.entries(values)) {
    if (!key.startsWith("profile.") || !value) continue;
    if (seen.has(value)) errors[key] = t("validation.ProfileRepeated");
    seen.add(value);
  }
  return errors;
}

function Legend({ children }: { children: string }) {
  return <legend className="mb-1 text-lg font-semibold text-slate-900">{children}</legend>;
}

/** A message about a group of checkboxes or slots; the error summary links here. */
function Problem({ name, text }: { name: string; text?: string }) {
  return text ? (
    <p id={`field-${name}`} className="text-sm font-medium text-red-700">
      {text}
    </p>
  ) : null;
}

type Slot = { key: string; value: string };

/**
 * A rule: its name, whether it is on, the conditions a device must meet, and the profiles it
 * assigns in order. Without JavaScript a plain form ("Add another profile" posts it back for
 * one more slot); with it, checked before posting, posted in the background, and slots are
 * added, moved and removed in place.
 */
export default function RuleForm(props: RuleFormProps) {
  const { messages, model, sites, locations, deletedPlaces, profileGroups, maxSlots } = props;
  const t = (key: string, values?: Record<string, string | number>) => translate(messages, key, values);
  const [slots, setSlots] = useState<Slot[]>(() => model.profileIds.map((value, index) => ({ key: `s${index}`, value })));
  const nextKey = useRef(0);
  const focusSlot = useRef<string | null>(null);
  const formElement = useRef<HTMLFormElement>(null);
  const [validateValues] = useState(() => (values: Record<string, string>) => validate(values, t));
  const form = useEnhancedForm({
    validate: validateValues,
    networkErrorText: t("rules.networkError"),
    initialErrors: props.errors,
  });
  const { errors, onSubmit } = form;
  const checkedSites = new Set(model.siteIds);
  const checkedLocations = new Set(model.locationIds);

  // Profiles chosen before hydration stay chosen, rather than the next render putting back the server's.
  const enhanced = useFormSeed(formElement, (read) => {
    setSlots(slots.map((slot, n) => ({ ...slot, value: read(`profile.${n}`)?.value ?? slot.value })));
  });
  useEffect(() => {
    if (!focusSlot.current) return;
    const target = formElement.current?.querySelector<HTMLElement>(focusSlot.current);
    target?.focus();
    focusSlot.current = null;
  });

  function moveSlot(from: number, to: number, direction: "up" | "down") {
    const next = [...slots];
    const [moved] = next.splice(from, 1);
    if (!moved) return;
    next.splice(to, 0, moved);
    setSlots(next);
    // Keep the focus on the same button of the moved slot, or its other one at an end.
    const atEnd = direction === "up" ? to === 0 : to === next.length - 1;
    focusSlot.current = `[data-slot="${moved.key}"][data-move="${atEnd ? (direction === "up" ? "down" : "up") : direction}"]`;
  }

  function addSlot() {
    nextKey.current += 1;
    const key = `new${nextKey.current}`;
    focusSlot.current = `select[data-slot="${key}"]`;
    setSlots([...slots, { key, value: "" }]);
  }

  const noProfiles = profileGroups.every((group) => group.options.length === 0);
  const deletedSites = deletedPlaces.filter((place) => place.kind === "site");
  const deletedLocations = deletedPlaces.filter((place) => place.kind === "location");

  return (
    <form
      ref={formElement}
      method="post"
      action={props.action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-3xl flex-col gap-6"
    >
      <ErrorSummary
        errors={errors}
        texts={summaryTexts(messages)}
        reload={{ href: props.reloadHref }}
        autoFocus={form.fromServer}
      />
      {model.version && <input type="hidden" name="version" value={model.version} />}
      <Field
        label={t("rules.form.name")}
        name="name"
        defaultValue={model.name}
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
        error={errors.name}
        className="max-w-xl"
      />
      <label className="flex items-start gap-2 text-sm text-slate-800">
        <input type="checkbox" name="enabled" defaultChecked={model.enabled} className="mt-0.5 size-4" />
        <span>
          <span className="font-medium">{t("rules.form.enabled")}</span>
          <span className="block text-slate-600">{t("rules.form.enabledHint")}</span>
        </span>
      </label>

      <fieldset className="flex flex-col gap-4 rounded-lg border border-slate-200 bg-white p-4">
        <Legend>{t("rules.form.conditions")}</Legend>
        <p className="text-sm text-slate-600">{t("rules.form.conditionsHint")}</p>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("rules.form.sites")}</legend>
          <Problem name="sites" text={errors.sites} />
          {sites.length === 0 && deletedSites.length === 0 ? (
            <p className="text-sm text-slate-600">{t("rules.form.noSites")}</p>
          ) : (
            <ul className="mt-1 grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
              {[
                ...sites.map((s) => ({ id: s.id, text: s.name })),
                ...deletedSites.map((p) => ({ id: p.id, text: t("rules.form.deletedSite") })),
              ].map((site) => (
                <li key={site.id}>
                  <label className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name={`site.${site.id}`}
                      defaultChecked={checkedSites.has(site.id)}
                      className="size-4"
                    />
                    {site.text}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <fieldset>
          <legend className="text-sm font-medium text-slate-800">{t("rules.form.locations")}</legend>
          <Problem name="locations" text={errors.locations} />
          {locations.length === 0 && deletedLocations.length === 0 ? (
            <p className="text-sm text-slate-600">{t("rules.form.noLocations")}</p>
          ) : (
            <ul className="mt-1 grid max-h-48 gap-1 overflow-y-auto sm:grid-cols-2">
              {[
                ...locations.map((l) => ({ id: l.id, text: l.label })),
                ...deletedLocations.map((p) => ({ id: p.id, text: t("rules.form.deletedLocation") })),
              ].map((location) => (
                <li key={location.id}>
                  <label className="flex items-center gap-2 text-sm text-slate-800">
                    <input
                      type="checkbox"
                      name={`location.${location.id}`}
                      defaultChecked={checkedLocations.has(location.id)}
                      className="size-4"
                    />
                    {location.text}
                  </label>
                </li>
              ))}
            </ul>
          )}
        </fieldset>
        <Field
          label={t("rules.form.models")}
          hint={t("rules.form.modelsHint")}
          name="models"
          defaultValue={model.models}
          autoComplete="off"
          error={errors.models}
        />
        <Field
          label={t("rules.form.tags")}
          hint={t("rules.form.tagsHint")}
          name="tags"
          defaultValue={model.tags}
          autoComplete="off"
          error={errors.tags}
        />
        <Field
          label={t("rules.form.uidPattern")}
          hint={t("rules.form.uidPatternHint")}
          name="uidPattern"
          defaultValue={model.uidPattern}
          maxLength={ruleLimits.uidPattern}
          autoComplete="off"
          error={errors.uidPattern}
        />
      </fieldset>

      <fieldset className="flex flex-col gap-3 rounded-lg border border-slate-200 bg-white p-4">
        <Legend>{t("rules.form.profiles")}</Legend>
        <p className="text-sm text-slate-600">{t("rules.form.profilesHint")}</p>
        <Problem name="profiles" text={errors.profiles} />
        {noProfiles && <p className="text-sm text-slate-600">{t("rules.form.noProfilesYet")}</p>}
        <ol className={noProfiles ? "hidden" : "flex flex-col gap-3"}>
          {slots.map((slot, n) => {
            const name = `profile.${n}`;
            const slotLabel = t("rules.form.slot", { number: n + 1 });
            const id = `field-${name}`;
            return (
              <li key={slot.key} className="flex flex-wrap items-end gap-2">
                <div className="flex min-w-[min(16rem,100%)] flex-1 flex-col gap-1">
                  <label htmlFor={id} className="text-sm font-medium text-slate-800">
                    {slotLabel}
                  </label>
                  <select
                    id={id}
                    name={name}
                    data-slot={slot.key}
                    value={slot.value}
                    onChange={(event) =>
                      setSlots(slots.map((s) => (s.key === slot.key ? { ...s, value: event.target.value } : s)))
                    }
                    aria-invalid={errors[name] ? true : undefined}
                    aria-describedby={errors[name] ? `${id}-error` : undefined}
                    className={`${controlClass(errors[name])} bg-white`}
                  >
                    <option value="">{t("rules.form.noProfile")}</option>
                    {profileGroups
                      .filter((group) => group.options.length > 0)
                      .map((group) => (
                        <optgroup key={group.label} label={group.label}>
                          {group.options.map((option) => (
                            <option key={option.id} value={option.id}>
                              {option.name}
                            </option>
                          ))}
                        </optgroup>
                      ))}
                  </select>
                  {errors[name] && (
                    <p id={`${id}-error`} className="text-sm font-medium text-red-700">
                      {errors[name]}
                    </p>
                  )}
                </div>
                {enhanced && (
                  <div className="flex gap-1">
                    <Button
                      variant="white"
                      size="sm"
                      data-slot={slot.key}
                      data-move="up"
                      disabled={n === 0}
                      onClick={() => moveSlot(n, n - 1, "up")}
                    >
                      {t("rules.form.moveUp")}
                      <span className="sr-only"> {slotLabel}</span>
                    </Button>
                    <Button
                      variant="white"
                      size="sm"
                      data-slot={slot.key}
                      data-move="down"
                      disabled={n === slots.length - 1}
                      onClick={() => moveSlot(n, n + 1, "down")}
                    >
                      {t("rules.form.moveDown")}
                      <span className="sr-only"> {slotLabel}</span>
                    </Button>
                    <Button variant="white" size="sm" onClick={() => setSlots(slots.filter((s) => s.key !== slot.key))}>
                      {t("rules.form.removeProfile")}
                      <span className="sr-only"> {slotLabel}</span>
                    </Button>
                  </div>
                )}
              </li>
            );
          })}
        </ol>
        {slots.length < maxSlots && !noProfiles && (
          <div>
            {enhanced ? (
              <Button variant="white" size="sm" onClick={addSlot}>
                {t("rules.form.addProfile")}
              </Button>
            ) : (
              <Button type="submit" name="intent" value="addSlot" variant="white" size="sm" formNoValidate>
                {t("rules.form.addProfile")}
              </Button>
            )}
          </div>
        )}
      </fieldset>

      <div className="flex flex-wrap gap-3">
        <Button type="submit" pending={form.pending}>
          {props.submitLabel}
        </Button>
        <ButtonLink href={props.cancelHref} variant="white">
          {t("rules.form.cancel")}
        </ButtonLink>
      </div>
    </form>
  );
}
