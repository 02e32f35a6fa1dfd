import type { ReactNode } from "react";
import { usePage } from "@/server/render/page-context";
import { type FieldRow, inputRows } from "./schema-fields";

/** A block of code or shell text; long lines wrap so that a phone never scrolls sideways. */
export function CodeBlock({ children }: { children: string }) {
  return (
    <pre className="mt-2 rounded-lg bg-slate-900 p-3 font-mono text-xs leading-relaxed text-slate-100 whitespace-pre-wrap break-all">
      <code>{children}</code>
    </pre>
  );
}

/** A section of the overview with a heading the contents list links to. */
export function DocSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
  return (
    <section id={id} aria-labelledby={`${id}-heading`} className="scroll-mt-4">
      <h2 id={`${id}-heading`} className="text-xl font-semibold text-slate-900">
        {title}
      </h2>
      <div className="mt-3 flex flex-col gap-3 leading-relaxed text-slate-700">{children}</div>
    </section>
  );
}

function FieldItem({ row }: { row: FieldRow }) {
  const { t } = usePage();
  return (
    <li className="py-2">
      <code className="font-mono text-sm font-semibold break-all text-slate-900">{row.name}</code>{" "}
      <code className="font-mono text-xs break-all text-brand-700">{row.type}</code>{" "}
      <span className={row.required ? "text-xs font-semibold text-slate-900" : "text-xs text-slate-600"}>
        {t(row.required ? "apiDocs.requiredField" : "apiDocs.optionalField")}
      </span>
      {row.notes.length > 0 && <span className="block font-mono text-xs break-all text-slate-600">{row.notes.join(" · ")}</span>}
    </li>
  );
}

/** Consecutive rows of the same union variant, in order (rows of a plain object form one group). */
function byVariant(rows: FieldRow[]): { variant: string | undefined; rows: FieldRow[] }[] {
  const groups: { variant: string | undefined; rows: FieldRow[] }[] = [];
  for (const row of rows) {
    const last = groups.at(-1);
    if (last && last.variant === row.variant) last.rows.push(row);
    else groups.push({ variant: row.variant, rows: [row] });
  }
  return groups;
}

function FieldList({ rows }: { rows: FieldRow[] }) {
  return (
    <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white px-3">
      {rows.map((row) => (
        <FieldItem key={row.name} row={row} />
      ))}
    </ul>
  );
}

/**
 * An input's fields, one line each (name, type, required, limits): readable at any width. A
 * union's variants (a profile's settings by its type) each get their own list under "when …".
 */
export function InputFields({ schema }: { schema: Record<string, unknown> | null }) {
  const { t } = usePage();
  const rows = inputRows(schema);
  if (rows.length === 0) return <p className="text-sm text-slate-600">{t("apiDocs.noInput")}</p>;
  return (
    <div className="flex flex-col gap-3">
      {byVariant(rows).map((group) => (
        <div key={`${group.variant ?? ""}:${group.rows[0]?.name ?? ""}`}>
          {group.variant && (
            <p className="mb-1 text-sm font-medium text-slate-700">{t("apiDocs.when", { condition: group.variant })}</p>
          )}
          <FieldList rows={group.rows} />
        </div>
      ))}
    </div>
  );
}
