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

/** A stretch of time to sum from the roll-ups of commands and changes (migration 0021). */
type Span = { key: string; start: string; end: string };

const HOUR = 3_600_000;
const DAY = 86_400_000;
const hourKey = (ms: number) => new Date(ms).toISOString().slice(0, 13);
const dayKey = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The whole UTC hours [firstHour, endHour) inside the instants [start, end), in ms. */
export function wholeHours(start: string, end: string) {
  const from = Date.parse(start);
  const to = Date.parse(end);
  const firstHour = Math.min(Math.ceil(from / HOUR) * HOUR, to);
  const endHour = Math.max(firstHour, Math.floor(to / HOUR) * HOUR);
  return { from, to, firstHour, endHour };
}

/** The UTC hour key ('YYYY-MM-DDTHH') of the running-total tables (migration 0023). */
export const hourOf = (ms: number) => new Date(ms).toISOString().slice(0, 13);

/**
 * Spans cut for the roll-ups as three VALUES tables: `spans(key)`; `pieces(key, grain, lo, hi)`,
 * the roll-up rows lo ≤ bucket < hi of each span: its whole UTC days (grain 'd') and the whole
 * hours either side ('h'; 'dt' and 'ht' for the totals over all types or kinds); and
 * `raws(key, lo, hi)`, the instants lo ≤ t < hi counted from the rows themselves: the parts of an
 * hour a zone with a :30 or :45 offset cuts (none for whole-hour zones). A month costs about 30
 * days and 24 hours of roll-up rows. Literals, checked like daysTable's; three tables keep each
 * query within D1's limit on compound SELECTs.
 */
export function spanTables(spans: Span[], totals: boolean): string {
  const keys: string[] = [];
  const pieces: string[] = [];
  const raws: string[] = [];
  const [dayGrain, hourGrain] = totals ? ["dt", "ht"] : ["d", "h"];
  for (const { key, start, end } of spans) {
    if (!/^[\w-]{1,10}$/.test(key) || !ISO_INSTANT.test(start) || !ISO_INSTANT.test(end)) {
      throw new Error("unexpected span boundary");
    }
    const { from, to, firstHour, endHour } = wholeHours(start, end);
    const firstDay = Math.ceil(firstHour / DAY) * DAY;
    const endDay = Math.floor(endHour / DAY) * DAY;
    const piece = (grain: string, lo: string, hi: string) => {
      if (lo < hi) pieces.push(`('${key}', '${grain}', '${lo}', '${hi}')`);
    };
    if (firstDay < endDay) {
      piece(dayGrain, dayKey(firstDay), dayKey(endDay));
      piece(hourGrain, hourKey(firstHour), hourKey(firstDay));
      piece(hourGrain, hourKey(endDay), hourKey(endHour));
    } else {
      piece(hourGrain, hourKey(firstHour), hourKey(endHour));
    }
    if (from < firstHour) raws.push(`('${key}', '${start}', '${new Date(firstHour).toISOString()}')`);
    if (endHour < to) raws.push(`('${key}', '${new Date(endHour).toISOString()}', '${end}')`);
    keys.push(`('${key}')`);
  }
  // A VALUES list cannot be empty: a row that matches nothing stands in.
  const none = (rows: string[], empty: string) => (rows.length ? rows.join(", ") : empty);
  return `spans(key) AS (VALUES ${none(keys, "('')")}),
    pieces(key, grain, lo, hi) AS (VALUES ${none(pieces, "('', '', '', '')")}),
    raws(key, lo, hi) AS (VALUES ${none(raws, "('', '', '')")})`;
}

/** The roll-up rows of every piece of the spans: `SELECT pieces.key, <columns of h>`. */
export function rolledUpRows(table: string, columns: string): string {
  return `SELECT pieces.key, ${columns} FROM pieces
    JOIN ${table} h ON h.account_id = ?1 AND h.grain = pieces.grain AND h.bucket >= pieces.lo AND h.bucket < pieces.hi`;
}

/** The range as one span (totals by type, person or kind) or as one span per day (figures by day). */
export function rangeSpans(range: DayRange, perDay: boolean): Span[] {
  if (perDay) return daysOf(range).map(({ day, start, end }) => ({ key: day, start, end }));
  const { start, end } = instantsOf(range);
  return [{ key: "range", start, end }];
}
