import type { Language } from "./languages";

/**
 * Dates and numbers go through Intl in the user's language. The first day of the week is
 * fixed per language (spec §9: English weeks start on Sunday, Spanish on Monday).
 */
export const firstDayOfWeek: Record<Language, 0 | 1> = { en: 0, "es-MX": 1, "fr-CA": 0, "pt-BR": 0 };

// Building an Intl formatter costs far more than using one (a list page formats hundreds of
// dates): each language-and-options pair is built once per isolate and kept.
const dateFormats = new Map<string, Intl.DateTimeFormat>();
const numberFormats = new Map<string, Intl.NumberFormat>();

function dateFormat(language: Language, options: Intl.DateTimeFormatOptions): Intl.DateTimeFormat {
  const key = `${language}|${JSON.stringify(options)}`;
  let format = dateFormats.get(key);
  if (!format) {
    format = new Intl.DateTimeFormat(language, options);
    dateFormats.set(key, format);
  }
  return format;
}

export function formatDate(language: Language, value: Date | string | number, options?: Intl.DateTimeFormatOptions): string {
  return dateFormat(language, options ?? { dateStyle: "medium" }).format(new Date(value));
}

/**
 * The one way a moment is shown (issue 23): to the minute, in the time zone of the place it is
 * shown in (inside an account the account's zone; outside every account UTC), always naming
 * that zone beside the time ("Feb 5, 2026, 4:00 AM CST", "5 feb 2026, 4:00 a.m. GMT-6"), so a
 * reader never has to guess which clock a time is on. The zone is required on purpose.
 */
export function formatDateTime(language: Language, value: Date | string | number, timeZone: string): string {
  return dateFormat(language, {
    year: "numeric",
    month: "short",
    day: "numeric",
    hour: "numeric",
    minute: "2-digit",
    timeZone,
    timeZoneName: "short",
  }).format(new Date(value));
}

/** The zone a page shows its times in: its account's, or UTC on pages outside every account. */
export function pageTimeZone(account: { timezone: string } | null | undefined): string {
  return account?.timezone ?? "UTC";
}

/** A time of day to the second in `timeZone`, naming it (the steps of a command, seconds apart). */
export function formatTimeOfDay(language: Language, value: Date | string | number, timeZone: string): string {
  return dateFormat(language, { hour: "numeric", minute: "2-digit", second: "2-digit", timeZone, timeZoneName: "short" }).format(
    new Date(value),
  );
}

/** A moment to the minute in UTC, saying so (for readers whose time zone the server does not know). */
export function formatUtcMinute(language: Language, value: Date | string | number): string {
  return formatDateTime(language, value, "UTC");
}

/** A CSV column of moments names its zone in the header: "Last seen (America/Chicago)". */
export function zonedHeader(label: string, timeZone: string): string {
  return `${label} (${timeZone})`;
}

export function formatNumber(language: Language, value: number, options?: Intl.NumberFormatOptions): string {
  const key = `${language}|${JSON.stringify(options ?? {})}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(language, options);
    numberFormats.set(key, format);
  }
  return format.format(value);
}

const zoneLabels = new Map<string, string>();

/**
 * An IANA time zone as people name it in their language: "Central Time – Chicago",
 * "Horário Central – Chicago"; UTC by its own name. Cached: lists show hundreds of them.
 */
export function timeZoneLabel(language: Language, zone: string): string {
  const key = `${language}|${zone}`;
  const cached = zoneLabels.get(key);
  if (cached) return cached;
  // UTC reads the same in every language.
  if (zone === "UTC" || zone === "Etc/UTC") return "UTC";
  let generic = "";
  try {
    generic =
      new Intl.DateTimeFormat(language, { timeZone: zone, timeZoneName: "longGeneric" })
        .formatToParts(new Date(0))
        .find((part) => part.type === "timeZoneName")?.value ?? "";
  } catch {
    return zone;
  }
  const city = (zone.split("/").at(-1) ?? zone).replaceAll("_", " ");
  const label =
    zone === "UTC" || !zone.includes("/") ? generic || zone : generic && generic !== city ? `${generic} – ${city}` : city;
  zoneLabels.set(key, label);
  return label;
}
