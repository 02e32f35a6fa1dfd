/**
 * The time zones an account may use: UTC first, then every IANA zone the runtime knows.
 * A value outside the list (saved through the API under an alias) stays selectable.
 */
export function timeZoneOptions(current?: string): string[] {
  const zones = Intl.supportedValuesOf("timeZone").filter((zone) => zone !== "UTC");
  const list = ["UTC", ...zones];
  return current && !list.includes(current) ? [current, ...list] : list;
}
