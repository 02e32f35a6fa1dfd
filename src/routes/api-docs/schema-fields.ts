import type { JsonSchema } from "@/server/api/openapi/types";

/**
 * An input's JSON Schema as rows a person reads: one per field, nested objects flattened to
 * dotted names (`plan.phases[].share`), with a type, whether it is required and its limits in
 * the schema's own words (default, maxLength …). A union of objects (a profile's settings by
 * its type) gives each variant's fields, labelled with what tells the variant apart.
 */
export type FieldRow = {
  name: string;
  type: string;
  required: boolean;
  notes: string[];
  /** Which variant of a union the row belongs to, e.g. `type = "buttons"`. */
  variant?: string;
};

const NOTE_KEYWORDS = ["default", "minLength", "maxLength", "minimum", "maximum", "minItems", "maxItems", "pattern", "format"];
/** Limits everyone knows, not worth a note. */
const NOISE = new Set(["maximum: 9007199254740991"]);

function isSchema(value: unknown): value is JsonSchema {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function options(schema: JsonSchema): JsonSchema[] | null {
  const list = schema.anyOf ?? schema.oneOf;
  return Array.isArray(list) ? list.filter(isSchema) : null;
}

const isObjectSchema = (schema: JsonSchema) => schema.type === "object" && isSchema(schema.properties);

/** A short type: string, integer, "a" | "b", string[], object, string | null, any. */
export function typeLabel(schema: JsonSchema): string {
  if ("const" in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((value) => JSON.stringify(value)).join(" | ");
  const union = options(schema);
  if (union) return union.map(typeLabel).join(" | ");
  if (schema.type === "array") return `${isSchema(schema.items) ? typeLabel(schema.items) : "any"}[]`;
  if (schema.type === "object" && !isSchema(schema.properties) && isSchema(schema.additionalProperties)) {
    return `{ [key]: ${typeLabel(schema.additionalProperties)} }`;
  }
  if (typeof schema.type === "string") return schema.type;
  if (Array.isArray(schema.type)) return schema.type.join(" | ");
  return "any";
}

function notesOf(schema: JsonSchema): string[] {
  return (
    NOTE_KEYWORDS.filter((keyword) => keyword in schema)
      // A default is a JSON value ("" or "name" quoted); a pattern or format is read as written.
      .map((keyword) => {
        const value = schema[keyword];
        return `${keyword}: ${typeof value === "string" && keyword !== "default" ? value : JSON.stringify(value)}`;
      })
      .filter((note) => !NOISE.has(note))
  );
}

/** What tells a union's object variant apart: its first property with a const, else its number. */
function variantLabel(variant: JsonSchema, index: number): string {
  const properties = isSchema(variant.properties) ? variant.properties : {};
  for (const [name, property] of Object.entries(properties)) {
    if (isSchema(property) && "const" in property) return `${name} = ${JSON.stringify(property.const)}`;
  }
  return `#${index + 1}`;
}

function objectRows(schema: JsonSchema, prefix: string, variant: string | undefined): FieldRow[] {
  const properties = isSchema(schema.properties) ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties).flatMap(([name, property]) =>
    isSchema(property) ? fieldRows(property, `${prefix}${name}`, required.has(name), variant) : [],
  );
}

/** The rows of one field and, for an object or a list of objects, of the fields inside it. */
function fieldRows(schema: JsonSchema, name: string, required: boolean, variant: string | undefined): FieldRow[] {
  const row: FieldRow = { name, type: typeLabel(schema), required, notes: notesOf(schema), ...(variant ? { variant } : {}) };
  if (isObjectSchema(schema)) return [{ ...row, type: "object" }, ...objectRows(schema, `${name}.`, variant)];
  if (schema.type === "array" && isSchema(schema.items) && isObjectSchema(schema.items)) {
    return [{ ...row, type: "object[]" }, ...objectRows(schema.items, `${name}[].`, variant)];
  }
  const union = options(schema);
  const objects = union?.filter(isObjectSchema) ?? [];
  if (union && objects.length > 0) {
    const others = union.filter((option) => !isObjectSchema(option)).map(typeLabel);
    const head = { ...row, type: ["object", ...others].join(" | ") };
    return [head, ...objects.flatMap((option, index) => objectRows(option, `${name}.`, variantLabel(option, index)))];
  }
  return [row];
}

/** The rows of a procedure's whole input (an object, or a union of objects at the top). */
export function inputRows(schema: JsonSchema | null): FieldRow[] {
  if (!schema) return [];
  if (isObjectSchema(schema)) return objectRows(schema, "", undefined);
  const union = options(schema);
  if (union?.every(isObjectSchema)) return union.flatMap((option, index) => objectRows(option, "", variantLabel(option, index)));
  return fieldRows(schema, "input", true, undefined);
}
