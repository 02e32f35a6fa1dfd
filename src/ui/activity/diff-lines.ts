/**
 * A log entry's diff as lines a person reads: "field: before → after". Nested settings are
 * walked down to the values that changed ("wifi › #2 › ssid"), lists of plain values are
 * joined. Used by the pages, the load-more island and the CSV alike, so it stays tiny.
 */
export type DiffLine = {
  field: string;
  /** Null on a create (nothing before) … */
  before: string | null;
  /** … and on a delete (nothing after). */
  after: string | null;
};

/**
 * The words a value may be shown as, in the reader's language, and how fields and coded values
 * are named (src/ui/activity/field-labels.ts); without those, the raw names show.
 */
export type DiffWords = {
  yes: string;
  no: string;
  none: string;
  empty: string;
  label?: (path: string[]) => string;
  value?: (path: string[], value: string) => string;
};

type Change = { before?: unknown; after?: unknown };

// Secrets never enter the log (writers diff what reads show); this is only a second lock.
const SECRET_KEYS = new Set(["password", "passphrase", "secret", "clientSecret", "token"]);

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function holdsObjects(value: unknown): value is unknown[] {
  return Array.isArray(value) && value.some((item) => typeof item === "object" && item !== null);
}

export function showValue(value: unknown, words: DiffWords, path: string[] = []): string {
  if (value === undefined || value === null) return words.none;
  if (typeof value === "boolean") return value ? words.yes : words.no;
  if (typeof value === "string") return value === "" ? words.empty : (words.value?.(path, value) ?? value);
  if (Array.isArray(value)) return value.length ? value.map((item) => showValue(item, words, path)).join(", ") : words.none;
  if (isRecord(value)) {
    return Object.entries(value)
      .filter(([key]) => !SECRET_KEYS.has(key))
      .map(([key, item]) => `${words.label?.([...path, key]) ?? key}: ${showValue(item, words, [...path, key])}`)
      .join("; ");
  }
  return String(value);
}

type Side = { present: boolean; value: unknown };

function walk(path: string[], before: Side, after: Side, words: DiffWords, out: DiffLine[]): void {
  const key = path.at(-1) ?? "";
  if (SECRET_KEYS.has(key)) return;
  // A list item's own id is bookkeeping (which network is which), not a setting anyone reads;
  // in a profile's settings an id is a setting (a contact's radio id).
  if (key === "id" && path.length > 1 && path[0] !== "settings") return;
  const child = (side: Side, name: string | number): Side => ({
    present: side.present,
    value: (side.value as Record<string | number, unknown> | undefined | null)?.[name],
  });
  if ((isRecord(before.value) || isRecord(after.value)) && !Array.isArray(before.value) && !Array.isArray(after.value)) {
    const keys = new Set([
      ...Object.keys(isRecord(before.value) ? before.value : {}),
      ...Object.keys(isRecord(after.value) ? after.value : {}),
    ]);
    for (const name of keys) walk([...path, name], child(before, name), child(after, name), words, out);
    return;
  }
  if (holdsObjects(before.value) || holdsObjects(after.value)) {
    const length = Math.max(
      Array.isArray(before.value) ? before.value.length : 0,
      Array.isArray(after.value) ? after.value.length : 0,
    );
    for (let index = 0; index < length; index += 1) {
      walk([...path, `#${index + 1}`], child(before, index), child(after, index), words, out);
    }
    return;
  }
  if (before.present && after.present && JSON.stringify(before.value) === JSON.stringify(after.value)) return;
  out.push({
    field: words.label?.(path) ?? path.join(" › "),
    before: before.present ? showValue(before.value, words, path) : null,
    after: after.present ? showValue(after.value, words, path) : null,
  });
}

/**
 * The lines of a diff. The action says which sides exist: a stored diff loses `before: undefined`
 * on its way through JSON, so an update's "was nothing" is told apart from a create's this way.
 */
export function diffLines(diff: Record<string, Change>, action: "create" | "update" | "delete", words: DiffWords): DiffLine[] {
  const out: DiffLine[] = [];
  for (const [field, change] of Object.entries(diff)) {
    walk(
      [field],
      { present: action !== "create", value: change?.before },
      { present: action !== "delete", value: change?.after },
      words,
      out,
    );
  }
  return out;
}

/** One line as plain text (CSV, titles): "field: before → after". */
export function diffLineText(line: DiffLine): string {
  if (line.before === null) return `${line.field}: ${line.after ?? ""}`;
  if (line.after === null) return `${line.field}: ${line.before}`;
  return `${line.field}: ${line.before} → ${line.after}`;
}
