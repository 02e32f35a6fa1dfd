/**
 * Calendar days of a time zone as instants: a filter "from 2026-03-08 to 2026-03-08" in the
 * account's time zone means the instants from that day's midnight there to the next one's.
 */
const DAY_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True for a real calendar day written YYYY-MM-DD. */
export function isCalendarDay(value: string): boolean {
  const match = DAY_PATTERN.exec(value);
  if (!match) return false;
  const [, y, m, d] = match.map(Number) as [number, number, number, number];
  const date = new Date(Date.UTC(y, m - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === m - 1 && date.getUTCDate() === d;
}

// One formatter per zone: building one costs far more than using it, and a report of a year's
// days asks for over a thousand offsets.
const formatters = new Map<string, Intl.DateTimeFormat>();

function formatterOf(timeZone: string): Intl.DateTimeFormat {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat("en-US", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    formatters.set(timeZone, formatter);
  }
  return formatter;
}

/** How far the wall clock of `timeZone` is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const parts = formatterOf(timeZone).formatToParts(new Date(instant));
  const part = (type: Intl.DateTimeFormatPartTypes) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  const wall = Date.UTC(part("year"), part("month") - 1, part("day"), part("hour"), part("minute"), part("second"));
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The instant (ISO, UTC) when `day` (YYYY-MM-DD) begins in `timeZone`; `plusDays` moves the day. */
export function startOfDay(day: string, timeZone: string, plusDays = 0): string {
  const [, y, m, d] = (DAY_PATTERN.exec(day) ?? []).map(Number) as [number, number, number, number];
  const wall = Date.UTC(y, m - 1, d + plusDays);
  // The offset at a first guess, then again at the instant found: right across a DST change.
  const guess = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(guess, timeZone)).toISOString();
}

/** An instant as the wall clock of `timeZone` shows it: "YYYY-MM-DD HH:mm:ss" (for files). */
export function wallClock(instant: string, timeZone: string): string {
  const ms = new Date(instant).getTime();
  return new Date(ms + offsetAt(ms, timeZone)).toISOString().slice(0, 19).replace("T", " ");
}

const LOCAL_PATTERN = /^(\d{4}-\d{2}-\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/**
 * A `datetime-local` value ("2026-03-08T14:30") read on the wall clock of `timeZone`: the
 * instant it names (ISO, UTC), or null when it is not such a value. A wall time skipped by a
 * DST change resolves to the offset before it, as clocks do.
 */
export function instantOfWallClock(local: string, timeZone: string): string | null {
  const match = LOCAL_PATTERN.exec(local);
  if (!match) return null;
  const [, day = "", hh = "", mm = "", ss = "0"] = match;
  const [hours, minutes, seconds] = [Number(hh), Number(mm), Number(ss)];
  if (!isCalendarDay(day) || hours > 23 || minutes > 59 || seconds > 59) return null;
  const [y, m, d] = day.split("-").map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d, hours, minutes, seconds);
  const guess = wall - offsetAt(wall, timeZone);
  return new Date(wall - offsetAt(guess, timeZone)).toISOString();
}

/** An instant as a `datetime-local` value on the wall clock of `timeZone` ("2026-03-08T14:30"). */
export function wallClockInput(instant: string, timeZone: string): string {
  return wallClock(instant, timeZone).slice(0, 16).replace(" ", "T");
}
