import { formatNumber } from "@/schema/format";
import type { Language } from "@/schema/languages";
import type { ReportColumn, ReportRow } from "@/schema/reports";
import type { Translate } from "@/server/i18n/i18n";

/** A code shown by its translation, or as itself when it has none (a later issue's type). */
function translated(t: Translate, prefix: string, value: string): string {
  const key = `${prefix}.${value}`;
  const text = String(t(key));
  return text === key ? value : text;
}

/** A time span as people read it: the largest unit that keeps the number small, by Intl. */
export function formatSeconds(language: Language, seconds: number): string {
  const unit = (value: number, name: string) =>
    formatNumber(language, value, { style: "unit", unit: name, unitDisplay: "short", maximumFractionDigits: 1 });
  if (seconds < 60) return unit(seconds, "second");
  if (seconds < 3600) return unit(seconds / 60, "minute");
  if (seconds < 86_400) return unit(seconds / 3600, "hour");
  return unit(seconds / 86_400, "day");
}

/** A calendar day (YYYY-MM-DD) in the user's language; it is already the account's day. */
export function formatDay(language: Language, day: string): string {
  return new Intl.DateTimeFormat(language, { dateStyle: "medium", timeZone: "UTC" }).format(new Date(`${day}T00:00:00Z`));
}

/** A cell as the page shows it: Intl numbers, dates and durations in the user's language. */
export function cellText(t: Translate, language: Language, column: ReportColumn, row: ReportRow): string {
  const value = row[column.key];
  if (value === null || value === undefined || value === "") {
    return column.kind === "text" ? String(t("reports.none")) : "—";
  }
  switch (column.kind) {
    case "count":
      return formatNumber(language, Number(value));
    case "percent":
      return formatNumber(language, Number(value), { style: "percent", maximumFractionDigits: 1 });
    case "seconds":
      return formatSeconds(language, Number(value));
    case "day":
      return formatDay(language, String(value));
    default:
      return column.translate ? translated(t, column.translate, String(value)) : String(value);
  }
}

/**
 * A cell as the CSV holds it: the same figure as the page, plain for a spreadsheet (counts as
 * integers, shares as percentages with one decimal, spans in seconds, days as YYYY-MM-DD);
 * csvDownload keeps text a spreadsheet would run as a formula inert.
 */
export function cellValue(t: Translate, column: ReportColumn, row: ReportRow): string | number {
  const value = row[column.key];
  if (value === null || value === undefined || value === "") return column.kind === "text" ? String(t("reports.none")) : "";
  switch (column.kind) {
    case "count":
    case "seconds":
      return Number(value);
    case "percent":
      return Math.round(Number(value) * 1000) / 10;
    case "day":
      return String(value);
    default:
      return column.translate ? translated(t, column.translate, String(value)) : String(value);
  }
}

/** A column's header; the CSV says the unit of figures the page writes with theirs. */
export function columnHeader(t: Translate, column: ReportColumn, forCsv = false): string {
  const label = String(t(column.label));
  if (!forCsv) return label;
  if (column.kind === "seconds") return String(t("reports.csv.seconds", { label }));
  if (column.kind === "percent") return String(t("reports.csv.percent", { label }));
  return label;
}
