/**
 * How a profile type's settings are laid out as a form: plain data, free of zod, so the
 * server can translate it and hand it to the profile form's island as JSON props. In the
 * type modules every label, hint and message is a translation key; the page translates the
 * spec before rendering it. `message` is the one message for any problem of the field other
 * than a blank (the zod schema uses the same key), so browser and server say the same thing.
 */
export type Option = { value: string; label: string };

type Common = { name: string; label: string; hint?: string; message?: string };

export type NumberSpec = Common & {
  kind: "number";
  min: number;
  max: number;
  /** 1 for whole numbers; 0.00125 for frequencies in MHz (1.25 kHz steps). */
  step: number;
  /** 0 is allowed too, below `min` (e.g. "0 turns GPS reporting off"). */
  orZero?: boolean;
  /** The range depends on another field's value (a channel's frequency on the profile's band). */
  rangeBy?: { field: string; ranges: Record<string, [number, number]> };
};

export type SelectSpec = Common & { kind: "select"; options: Option[] };

export type TextSpec = Common & {
  kind: "text";
  maxLength: number;
  required: boolean;
  /** A regular expression the whole value must match (when not blank). */
  pattern?: string;
  /** The id of a datalist of suggestions (FormSpec.datalists). */
  list?: string;
};

export type CheckboxSpec = Common & { kind: "checkbox" };

export type FieldSpec = NumberSpec | SelectSpec | TextSpec | CheckboxSpec;

/** A repeated group of fields (channels, contacts), posted as `<name>.<n>.<column>`. */
export type RowsSpec = {
  name: string;
  legend: string;
  hint?: string;
  /** One row's legend; `{{number}}` is its position from 1. */
  item: string;
  min: number;
  max: number;
  columns: FieldSpec[];
  /** What a new, empty row holds (selects and checkboxes); text and numbers start blank. */
  blank: Record<string, string>;
  add: string;
  remove: string;
  /** Said when fewer than `min` rows are filled in (the schema's message for it too). */
  message: string;
};

export type FormSpec = {
  fields: FieldSpec[];
  rows?: RowsSpec;
  datalists?: { id: string; values: string[] }[];
};

/** The form's values: scalar fields by name, and one map per row (checkboxes are "on" or ""). */
export type FormModel = { values: Record<string, string>; rows: Record<string, string>[] };

/** Whether a row is blank: nothing typed in its text and number fields (an untouched new row). */
export function isBlankRow(columns: FieldSpec[], row: Record<string, string>): boolean {
  return columns.every((column) => (column.kind !== "text" && column.kind !== "number") || !(row[column.name] ?? "").trim());
}

/** The [min, max] of a number field for the other values of the form. */
export function rangeOf(spec: NumberSpec, values: Record<string, string>): [number, number] {
  const dependent = spec.rangeBy ? spec.rangeBy.ranges[values[spec.rangeBy.field] ?? ""] : undefined;
  return dependent ?? [spec.min, spec.max];
}

/** Whether `value` is a multiple of `step`, up to floating-point noise. */
export function onStep(value: number, step: number): boolean {
  const ratio = value / step;
  return Math.abs(ratio - Math.round(ratio)) < 1e-6;
}

/**
 * The problem of one field's text, as "required", "invalid" or null. Shared by the island
 * (before posting) and the server's reading of a post, so both judge alike.
 */
export function fieldProblem(spec: FieldSpec, text: string, values: Record<string, string>): "required" | "invalid" | null {
  const value = text.trim();
  if (spec.kind === "number") {
    if (value === "") return "required";
    const number = Number(value);
    if (!Number.isFinite(number)) return "invalid";
    if (spec.orZero && number === 0) return null;
    const [min, max] = rangeOf(spec, values);
    return number < min || number > max || !onStep(number, spec.step) ? "invalid" : null;
  }
  if (spec.kind === "text") {
    if (value === "") return spec.required ? "required" : null;
    if (value.length > spec.maxLength) return "invalid";
    return spec.pattern && !new RegExp(spec.pattern).test(value) ? "invalid" : null;
  }
  if (spec.kind === "select") return spec.options.some((option) => option.value === text) ? null : "invalid";
  return null;
}
