import { type FieldSpec, type FormModel, type FormSpec, isBlankRow } from "@/schema/profiles/form-spec";

/**
 * A profile's settings between what is stored (typed values), the form (text per field, one
 * map per row) and a post (flat names such as `channels.3.rxMhz`). The type's zod schema, in
 * the procedure, judges what comes out of a post; this only reads it.
 */

function textOf(spec: FieldSpec, value: unknown): string {
  if (spec.kind === "checkbox") return value === true ? "on" : "";
  return value === undefined || value === null ? "" : String(value);
}

/** The form for stored (or default) settings. */
export function modelFromSettings(spec: FormSpec, settings: Record<string, unknown>): FormModel {
  const values = Object.fromEntries(spec.fields.map((field) => [field.name, textOf(field, settings[field.name])]));
  const stored = spec.rows ? settings[spec.rows.name] : undefined;
  const rows = Array.isArray(stored)
    ? stored.map((row: Record<string, unknown>) =>
        Object.fromEntries((spec.rows?.columns ?? []).map((column) => [column.name, textOf(column, row[column.name])])),
      )
    : [];
  return { values, rows };
}

/** The row numbers posted under `<name>.<n>.`, in order. */
function rowNumbers(posted: Record<string, string>, name: string, max: number): number[] {
  const pattern = new RegExp(`^${name}\\.(\\d+)\\.`);
  const found = new Set<number>();
  for (const key of Object.keys(posted)) {
    const match = pattern.exec(key);
    if (match) found.add(Number(match[1]));
  }
  // A few more than the limit may be posted; the schema refuses too many with its own message.
  return [...found].sort((a, b) => a - b).slice(0, max + 5);
}

/** The form as it was posted, to show it again with what was typed (a removed row stays ticked). */
export function modelFromPost(spec: FormSpec, posted: Record<string, string>): FormModel {
  const values = Object.fromEntries(spec.fields.map((field) => [field.name, posted[field.name] ?? ""]));
  const rowsSpec = spec.rows;
  const rows = rowsSpec
    ? rowNumbers(posted, rowsSpec.name, rowsSpec.max).map((n) => {
        const row = Object.fromEntries(
          rowsSpec.columns.map((column) => [column.name, posted[`${rowsSpec.name}.${n}.${column.name}`] ?? ""]),
        );
        if (posted[`${rowsSpec.name}.${n}.remove`] !== undefined) row.remove = "on";
        return row;
      })
    : [];
  return { values, rows };
}

/**
 * One more empty row: after the stored ones, so a new entry needs no extra round trip, and
 * for "Add another" without JavaScript (it posts the form back for one).
 */
export function withBlankRow(spec: FormSpec, model: FormModel): FormModel {
  const rowsSpec = spec.rows;
  if (!rowsSpec || model.rows.length >= rowsSpec.max) return model;
  return { ...model, rows: [...model.rows, { ...rowsSpec.blank }] };
}

function read(spec: FieldSpec, text: string | undefined): unknown {
  if (spec.kind === "checkbox") return text !== undefined && text !== "";
  if (spec.kind === "number") return (text ?? "").trim() === "" ? undefined : Number(text);
  return text ?? "";
}

export type PostedSettings = {
  settings: Record<string, unknown>;
  /** For each row of `settings`, the number of the form row it came from. */
  rowMap: number[];
};

/** What a post asks to store: rows marked for removal and rows left blank are left out. */
export function settingsFromPost(spec: FormSpec, posted: Record<string, string>): PostedSettings {
  const settings: Record<string, unknown> = {};
  for (const field of spec.fields) settings[field.name] = read(field, posted[field.name]);
  const rowMap: number[] = [];
  const rowsSpec = spec.rows;
  if (rowsSpec) {
    const rows: Record<string, unknown>[] = [];
    for (const n of rowNumbers(posted, rowsSpec.name, rowsSpec.max)) {
      if (posted[`${rowsSpec.name}.${n}.remove`] !== undefined) continue;
      const text = Object.fromEntries(
        rowsSpec.columns.map((column) => [column.name, posted[`${rowsSpec.name}.${n}.${column.name}`] ?? ""]),
      );
      if (isBlankRow(rowsSpec.columns, text)) continue;
      rowMap.push(n);
      rows.push(Object.fromEntries(rowsSpec.columns.map((column) => [column.name, read(column, text[column.name])])));
    }
    settings[rowsSpec.name] = rows;
  }
  return { settings, rowMap };
}

/** The form field an issue of the procedure's input is about ("form" when none fits). */
export function fieldOfIssue(spec: FormSpec, path: readonly PropertyKey[], rowMap: number[]): string {
  const [root, field, index, column] = path;
  if (root === "name") return "name";
  if (root !== "settings" || typeof field !== "string") return "form";
  if (spec.rows && field === spec.rows.name) {
    if (typeof index !== "number" || typeof column !== "string") return field;
    const row = rowMap[index];
    return row === undefined ? field : `${field}.${row}.${column}`;
  }
  return spec.fields.some((f) => f.name === field) ? field : "form";
}
