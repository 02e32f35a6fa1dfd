import type { z } from "zod";
import { Island } from "@/islands/runtime/island";
import { isProfileType, type ProfileType, profileDefaults, profileForms, type typedSettings } from "@/schema/profiles";
import type { FieldSpec, FormSpec } from "@/schema/profiles/form-spec";
import type { Translate } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { postedValues } from "../settings/procedure-refusal";
import type { ActionResult, FormState, RouteContext } from "../types";
import { fieldOfIssue, modelFromPost, modelFromSettings, settingsFromPost, withBlankRow } from "./form-values";
import { configurationRefusal } from "./refusal";

/** A type's form with every label, hint and message in the page's language. */
export function translateSpec(spec: FormSpec, t: Translate): FormSpec {
  const text = (key: string | undefined) => (key === undefined ? undefined : String(t(key)));
  const field = (f: FieldSpec): FieldSpec => {
    const common = { ...f, label: String(t(f.label)), hint: text(f.hint), message: text(f.message) };
    return common.kind === "select"
      ? { ...common, options: common.options.map((option) => ({ ...option, label: String(t(option.label)) })) }
      : common;
  };
  return {
    fields: spec.fields.map(field),
    rows: spec.rows && {
      ...spec.rows,
      legend: String(t(spec.rows.legend)),
      hint: text(spec.rows.hint),
      // The island fills in each row's number.
      item: String(t(spec.rows.item, { number: "{{number}}" })),
      add: String(t(spec.rows.add)),
      remove: String(t(spec.rows.remove)),
      message: String(t(spec.rows.message)),
      columns: spec.rows.columns.map(field),
    },
    datalists: spec.datalists,
  };
}

export type StoredProfile = { name: string; version: number; settings: unknown };

/**
 * The errors in the page's language; a blank or unknown setting's message names it by its
 * label ("Fill in “Receive (MHz)”."), as the island's own checks do.
 */
function namedErrors(errors: Record<string, string> | undefined, spec: FormSpec, t: Translate): Record<string, string> {
  const labelOf = (field: string): string | undefined => {
    const own = spec.fields.find((f) => f.name === field);
    const rows = spec.rows;
    const column =
      rows && field.startsWith(`${rows.name}.`) ? rows.columns.find((c) => c.name === field.split(".").at(-1)) : undefined;
    const label = (own ?? column)?.label;
    return label ? String(t(label)) : undefined;
  };
  const named: Record<string, string> = {};
  for (const [field, key] of Object.entries(errors ?? {})) {
    const label = labelOf(field);
    if (label && key === "validation.Required") named[field] = String(t("validation.fields.setting.required", { field: label }));
    else if (label && key === "validation.ChooseOne")
      named[field] = String(t("validation.fields.setting.choose", { field: label }));
    else named[field] = String(t(key));
  }
  return named;
}

/**
 * The profile form of a type, for adding (from the type's defaults or a template's settings)
 * or editing; after a refused post, with what was typed and the errors.
 */
export function ProfileEditor({
  type,
  action,
  cancelHref,
  submitLabel,
  stored,
  startFrom,
  form,
}: {
  type: ProfileType;
  action: string;
  cancelHref: string;
  submitLabel: string;
  stored?: StoredProfile;
  startFrom?: unknown;
  form?: FormState;
}) {
  const { t } = usePage();
  const spec = profileForms[type];
  const posted = form ? modelFromPost(spec, form.values) : null;
  const model = posted
    ? form?.values.intent === "addRow"
      ? withBlankRow(spec, posted)
      : posted
    : withBlankRow(
        spec,
        modelFromSettings(spec, (stored?.settings ?? startFrom ?? profileDefaults[type]) as Record<string, unknown>),
      );
  return (
    <Island
      name="profile-form"
      props={{
        action,
        reloadHref: action,
        cancelHref,
        submitLabel,
        type,
        name: form?.values.name ?? stored?.name ?? "",
        version: form?.values.version ?? (stored ? String(stored.version) : undefined),
        spec: translateSpec(spec, t),
        model,
        errors: namedErrors(form?.errors, spec, t),
      }}
    />
  );
}

export type TypedSettingsInput = z.input<typeof typedSettings>;
type SaveInput = TypedSettingsInput & { name: string; version: number };

/**
 * A profile form's post: "Add another" shows the form again with one more row; otherwise the
 * settings are read from the post and `save` (a procedure) judges and stores them. A refusal
 * comes back on the form with everything typed.
 */
export async function profileAction(
  c: RouteContext,
  save: (input: SaveInput) => Promise<{ name: string; type: ProfileType }>,
  done: (profile: { name: string; type: ProfileType }) => ActionResult,
): Promise<ActionResult> {
  const values = await postedValues(c);
  if (!isProfileType(values.type)) return { ok: false, status: 400, form: { values, errors: { form: "validation.ChooseOne" } } };
  if (values.intent === "addRow") return { ok: false, status: 200, form: { values, errors: {} } };
  const spec = profileForms[values.type];
  const { settings, rowMap } = settingsFromPost(spec, values);
  try {
    const profile = await save({
      ...({ type: values.type, settings } as TypedSettingsInput),
      name: values.name ?? "",
      version: Number(values.version ?? 0) || 0,
    });
    return done(profile);
  } catch (error) {
    return configurationRefusal(error, values, (path) => fieldOfIssue(spec, path, rowMap));
  }
}
