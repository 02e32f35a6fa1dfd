import { timeZoneLabel } from "@/schema/format";
import type { Language } from "@/schema/languages";

/**
 * The time zones an account may use: UTC first, then every IANA zone the runtime knows.
 * A value outside the list (saved through the API under an alias) stays selectable.
 */
export function timeZoneOptions(current?: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC");
  const list = ["UTC", ...zones];
  return current && !list.includes(current) ? [current, ...list] : list;
}

/** The same list as select options, each zone by its localised name ("Central Time – Chicago"). */
export function timeZoneSelectOptions(language: Language, current?: string): { value: string; label: string }[] {
  return timeZoneOptions(current).map((zone) => ({ value: zone, label: timeZoneLabel(language, zone) }));
}
