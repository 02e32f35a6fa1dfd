import { type MouseEvent, useEffect, useRef, useState } from "react";
import { fieldMessage } from "@/schema/field-message-keys";
import { type FieldSpec, type FormModel, type FormSpec, fieldProblem, isBlankRow } from "../schema/profiles/form-spec";
import { Button, ButtonLink } from "../ui/button";
import { ErrorSummary } from "../ui/error-summary";
import { Field, SelectField } from "../ui/field";
import { type Messages, translate } from "./runtime/messages";
import { type FieldErrors, summaryTexts, useEnhancedForm, useFormSeed } from "./runtime/use-form";

const NAME_MAX_LENGTH = 120;

export type ProfileFormProps = {
  messages: Messages;
  /** Where the form posts: its own page. */
  action: string;
  reloadHref: string;
  cancelHref: string;
  submitLabel: string;
  type: string;
  name: string;
  /** The version the edit is made on (absent when adding). */
  version?: string;
  /** The type's form, translated by the server. */
  spec: FormSpec;
  model: FormModel;
  /** Errors of a post the server answered without JavaScript, already translated. */
  errors: FieldErrors;
};

type Row = { key: string; values: Record<string, string> };

/** The browser's judgement of the form (the server checks the same and more, e.g. repeated names). */
type Translate = (key: string, values?: Record<string, string>) => string;

function validate(values: Record<string, string>, spec: FormSpec, rows: Row[], t: Translate): FieldErrors {
  const errors: FieldErrors = {};
  const check = (field: FieldSpec, name: string) => {
    const problem = fieldProblem(field, values[name] ?? "", values);
    if (problem === "required") errors[name] = t("validation.fields.setting.required", { field: field.label });
    else if (problem) errors[name] = field.message ?? t("validation.fields.setting.choose", { field: field.label });
  };
  const name = (values.name ?? "").trim();
  if (!name) errors.name = t(fieldMessage("profileName", "required"));
  else if (name.length > NAME_MAX_LENGTH) errors.name = t(fieldMessage("profileName", "tooLong"));
  for (const field of spec.fields) check(field, field.name);
  const rowsSpec = spec.rows;
  if (rowsSpec) {
    let filled = 0;
    rows.forEach((_, n) => {
      const prefix = `${rowsSpec.name}.${n}.`;
      if (values[`${prefix}remove`] !== undefined) return;
      const text = Object.fromEntries(rowsSpec.columns.map((column) => [column.name, values[`${prefix}${column.name}`] ?? ""]));
      if (isBlankRow(rowsSpec.columns, text)) return;
      filled += 1;
      for (const column of rowsSpec.columns) check(column, `${prefix}${column.name}`);
    });
    if (filled < rowsSpec.min) errors[rowsSpec.name] = rowsSpec.message;
  }
  return errors;
}

function Control({
  spec,
  name,
  value,
  error,
  datalist,
}: {
  spec: FieldSpec;
  name: string;
  value: string;
  error?: string;
  datalist?: boolean;
}) {
  if (spec.kind === "select") {
    return (
      <SelectField label={spec.label} name={name} hint={spec.hint} defaultValue={value} options={spec.options} error={error} />
    );
  }
  if (spec.kind === "checkbox") {
    return (
      <label className="flex items-center gap-2 self-end py-2 text-sm font-medium text-slate-800">
        <input type="checkbox" id={`field-${name}`} name={name} defaultChecked={value === "on"} className="size-4" />
        {spec.label}
      </label>
    );
  }
  const decimal = spec.kind === "number" && !Number.isInteger(spec.step);
  return (
    <Field
      label={spec.label}
      name={name}
      hint={spec.hint}
      defaultValue={value}
      error={error}
      autoComplete="off"
      inputMode={spec.kind === "number" ? (decimal ? "decimal" : "numeric") : undefined}
      maxLength={spec.kind === "text" ? spec.maxLength : undefined}
      required={spec.kind === "number" || (spec.kind === "text" && spec.required)}
      list={spec.kind === "text" && datalist ? spec.list : undefined}
    />
  );
}

/**
 * A profile's name and settings, laid out from its type's form spec. Without JavaScript it is
 * a plain form: "Add another" posts it back for one more row (nothing typed is lost) and rows
 * have a Remove checkbox. With it, it is checked before posting and posted in the background,
 * and rows are added and removed in place.
 */
export default function ProfileForm(props: ProfileFormProps) {
  const { messages, action, reloadHref, cancelHref, submitLabel, type, spec, model } = props;
  const t = (key: string, values?: Record<string, string | number>) => translate(messages, key, values);
  const [rows, setRows] = useState<Row[]>(() => model.rows.map((values, index) => ({ key: `r${index}`, values })));
  const rowsRef = useRef(rows);
  rowsRef.current = rows;
  const nextKey = useRef(0);
  const focusAfterAdd = useRef<string | null>(null);
  const formElement = useRef<HTMLFormElement>(null);
  const [validateValues] = useState(() => (values: Record<string, string>) => validate(values, spec, rowsRef.current, t));
  const form = useEnhancedForm({
    validate: validateValues,
    networkErrorText: t("profiles.networkError"),
    initialErrors: props.errors,
  });
  const { errors, onSubmit } = form;
  const rowsSpec = spec.rows;

  // A row whose Remove was ticked before hydration goes, as its button (which replaces the box) does.
  const enhanced = useFormSeed(formElement, (read) => {
    if (rowsSpec) setRows(rows.filter((_, n) => !read(`${rowsSpec.name}.${n}.remove`)?.checked));
  });
  useEffect(() => {
    if (!focusAfterAdd.current) return;
    const field = formElement.current?.elements.namedItem(focusAfterAdd.current);
    if (field instanceof HTMLElement) field.focus();
    focusAfterAdd.current = null;
  });

  function addRow(event: MouseEvent) {
    if (!rowsSpec) return;
    event.preventDefault();
    nextKey.current += 1;
    focusAfterAdd.current = `${rowsSpec.name}.${rows.length}.${rowsSpec.columns[0]?.name ?? ""}`;
    setRows([...rows, { key: `new${nextKey.current}`, values: { ...rowsSpec.blank } }]);
  }

  return (
    <form
      ref={formElement}
      method="post"
      action={action}
      noValidate
      onSubmit={onSubmit}
      onChange={form.onChange}
      className="flex max-w-5xl flex-col gap-5"
    >
      <ErrorSummary errors={errors} texts={summaryTexts(messages)} reload={{ href: reloadHref }} autoFocus={form.fromServer} />
      <input type="hidden" name="type" value={type} />
      {props.version && <input type="hidden" name="version" value={props.version} />}
      <Field
        label={t("profiles.form.name")}
        name="name"
        defaultValue={props.name}
        required
        maxLength={NAME_MAX_LENGTH}
        autoComplete="off"
        error={errors.name}
        className="max-w-xl"
      />
      {spec.fields.length > 0 && (
        <div className="grid max-w-3xl gap-4 sm:grid-cols-2">
          {spec.fields.map((field) => (
            <Control
              key={field.name}
              spec={field}
              name={field.name}
              value={model.values[field.name] ?? ""}
              error={errors[field.name]}
            />
          ))}
        </div>
      )}
      {rowsSpec && (
        <fieldset className="flex flex-col gap-3">
          <legend className="mb-1 text-lg font-semibold text-slate-900">{rowsSpec.legend}</legend>
          {rowsSpec.hint && <p className="text-sm text-slate-600">{rowsSpec.hint}</p>}
          {errors[rowsSpec.name] && (
            <p id={`field-${rowsSpec.name}`} className="text-sm font-medium text-red-700">
              {errors[rowsSpec.name]}
            </p>
          )}
          {rows.map((row, n) => {
            const legend = rowsSpec.item.replace("{{number}}", String(n + 1));
            return (
              <fieldset key={row.key} className="rounded-md border border-slate-200 bg-white p-3">
                <legend className="px-1 text-sm font-semibold text-slate-700">{legend}</legend>
                <div className="grid grid-cols-2 gap-3 md:grid-cols-4 lg:grid-cols-8">
                  {rowsSpec.columns.map((column) => {
                    const name = `${rowsSpec.name}.${n}.${column.name}`;
                    return (
                      <Control
                        key={column.name}
                        spec={column}
                        name={name}
                        value={row.values[column.name] ?? ""}
                        error={errors[name]}
                        datalist
                      />
                    );
                  })}
                  <div className="flex items-end">
                    {enhanced ? (
                      <Button variant="white" size="sm" onClick={() => setRows(rows.filter((r) => r.key !== row.key))}>
                        {rowsSpec.remove}
                        <span className="sr-only"> {legend}</span>
                      </Button>
                    ) : (
                      <label className="flex items-center gap-2 py-2 text-sm text-slate-800">
                        <input
                          type="checkbox"
                          name={`${rowsSpec.name}.${n}.remove`}
                          defaultChecked={row.values.remove === "on"}
                          className="size-4"
                        />
                        {rowsSpec.remove}
                      </label>
                    )}
                  </div>
                </div>
              </fieldset>
            );
          })}
          {rows.length < rowsSpec.max && (
            <div>
              {enhanced ? (
                <Button variant="white" size="sm" onClick={addRow}>
                  {rowsSpec.add}
                </Button>
              ) : (
                <Button type="submit" name="intent" value="addRow" variant="white" size="sm" formNoValidate>
                  {rowsSpec.add}
                </Button>
              )}
            </div>
          )}
        </fieldset>
      )}
      {spec.datalists?.map((list) => (
        <datalist key={list.id} id={list.id}>
          {list.values.map((value) => (
            <option key={value} value={value} />
          ))}
        </datalist>
      ))}
      <div className="flex flex-wrap gap-3">
        <Button type="submit" pending={form.pending}>
          {submitLabel}
        </Button>
        <ButtonLink href={cancelHref} variant="white">
          {t("profiles.form.cancel")}
        </ButtonLink>
      </div>
    </form>
  );
}
