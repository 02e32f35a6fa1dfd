import { startOfDay } from "@/schema/zoned-date";

/** Calendar days (YYYY-MM-DD, both included) in the account's time zone; already validated by the procedure. */
export type DayRange = { from: string; to: string; timeZone: string };

/** The instants the range covers: from the first day's midnight to the midnight after the last day. */
export function instantsOf(range: DayRange): { start: string; end: string } {
  return { start: startOfDay(range.from, range.timeZone), end: startOfDay(range.to, range.timeZone, 1) };
}

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Each day of the range with the instants it spans (DST-correct: each midnight is computed in the zone). */
export function daysOf(range: DayRange): { day: string; start: string; end: string }[] {
  const days: { day: string; start: string; end: string }[] = [];
  const [y, m, d] = range.from.split("-").map(Number) as [number, number, number];
  for (let i = 0; ; i++) {
    const day = new Date(Date.UTC(y, m - 1, d + i)).toISOString().slice(0, 10);
    if (day > range.to) break;
    days.push({ day, start: startOfDay(range.from, range.timeZone, i), end: startOfDay(range.from, range.timeZone, i + 1) });
  }
  return days;
}

/**
 * The days as a VALUES table for a grouped query: one index range per day. The values are
 * written as literals (D1 binds at most 100 parameters; a year has 366 days) and every one is
 * checked to be a date or an ISO instant this module made, so nothing typed reaches the SQL.
 */
export function daysTable(range: DayRange): string {
  const rows = daysOf(range).map(({ day, start, end }) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(day) || !ISO_INSTANT.test(start) || !ISO_INSTANT.test(end)) {
      throw new Error("unexpected day boundary");
    }
    return `('${day}', '${start}', '${end}')`;
  });
  return `days(day, start, finish) AS (VALUES ${rows.join(", ")})`;
}

/** A stretch of time split for the hourly roll-ups: whole UTC hours, and the bits a zone's odd offset leaves at each end. */
type Span = { key: string; start: string; end: string };

const HOUR = 3_600_000;
const hourKey = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * Spans as a VALUES table `spans(key, start, finish, first_hour, end_hour, first_at, end_at)`:
 * the roll-up hours first_hour ≤ hour < end_hour (keys 'YYYY-MM-DDTHH') lie wholly inside the
 * span; [start, first_at) and [end_at, finish) are the parts of an hour that a zone with a :30
 * or :45 offset cuts, counted from the rows themselves (empty for whole-hour zones). Literals,
 * checked like daysTable's.
 */
export function spansTable(spans: Span[]): string {
  const rows = spans.map(({ key, start, end }) => {
    if (!/^[\w-]{1,10}$/.test(key) || !ISO_INSTANT.test(start) || !ISO_INSTANT.test(end)) {
      throw new Error("unexpected span boundary");
    }
    const from = Date.parse(start);
    const to = Date.parse(end);
    const firstHour = Math.ceil(from / HOUR) * HOUR;
    const endHour = Math.max(firstHour, Math.floor(to / HOUR) * HOUR);
    const firstAt = new Date(Math.min(firstHour, to)).toISOString();
    const endAt = new Date(Math.max(endHour, Date.parse(firstAt))).toISOString();
    return `('${key}', '${start}', '${end}', '${hourKey(firstHour)}', '${hourKey(endHour)}', '${firstAt}', '${endAt}')`;
  });
  return `spans(key, start, finish, first_hour, end_hour, first_at, end_at) AS (VALUES ${rows.join(", ")})`;
}

/** The range as one span (totals by type, person or kind) or as one span per day (figures by day). */
export function rangeSpans(range: DayRange, perDay: boolean): Span[] {
  if (perDay) return daysOf(range).map(({ day, start, end }) => ({ key: day, start, end }));
  const { start, end } = instantsOf(range);
  return [{ key: "range", start, end }];
}
