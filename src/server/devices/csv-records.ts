import { parse } from "csv-parse/stream";
import { fromInert } from "@/schema/csv-cell";
import { IMPORT_MAX_BYTES, IMPORT_MAX_ROWS } from "@/schema/devices";

/**
 * Reading an import file as a stream (issue 23): the bytes go through csv-parse a chunk at a
 * time and each record is handed on as it is read, so the import never holds the file as
 * records, only the rows it keeps. Lines are the file's (the header is line 1), so a problem
 * names the line a person finds in an editor.
 */

/** A problem of the file or of one line of it (0: the file itself). */
export type FileProblem = { row: number; column: "file"; message: string; values?: Record<string, string | number> };

/** One record by column name (lowercase), with the line it starts on. */
export type LineRecord = { cells: Record<string, string>; line: number };

const SLICE_CHARS = 64 * 1024;

/** A string as a stream of UTF-8 slices (the API's text), never split inside a surrogate pair. */
export function textSource(text: string): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let at = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= text.length) {
        controller.close();
        return;
      }
      let end = Math.min(text.length, at + SLICE_CHARS);
      const last = text.charCodeAt(end - 1);
      if (end < text.length && last >= 0xd800 && last <= 0xdbff) end += 1;
      controller.enqueue(encoder.encode(text.slice(at, end)));
      at = end;
    },
  });
}

class TooLarge extends Error {}

/** Passes the bytes on, and fails the stream at the first byte past `max`. */
function capped(max: number): TransformStream<Uint8Array, Uint8Array> {
  let size = 0;
  return new TransformStream({
    transform(chunk, controller) {
      size += chunk.byteLength;
      if (size > max) controller.error(new TooLarge());
      else controller.enqueue(chunk);
    },
  });
}

type Parsed = { record: string[]; info: { empty_lines: number } };

const LINE_BREAK = /\r\n|\r|\n/g;

/**
 * Reads the file and calls `onRecord` for each data record that has the header's fields (records whose fields are all empty are skipped, as spreadsheets write them). Returns
 * the problems of the file: `fatal` ones end the reading (too large, too many rows, no uid
 * column, unreadable), the others are lines with the wrong number of fields.
 */
export async function readCsvRecords(
  source: ReadableStream<Uint8Array>,
  onRecord: (record: LineRecord) => void,
): Promise<{ problems: FileProblem[]; fatal: boolean }> {
  const reader = source
    .pipeThrough(capped(IMPORT_MAX_BYTES))
    .pipeThrough(parse({ bom: true, trim: true, skip_empty_lines: true, relax_column_count: true, info: true }))
    .getReader();
  const problems: FileProblem[] = [];
  const fatal = (message: string, values?: Record<string, string | number>, row = 0) => {
    void reader.cancel().catch(() => {});
    return { problems: [{ row, column: "file" as const, message, ...(values ? { values } : {}) }], fatal: true };
  };
  let header: string[] | null = null;
  let rows = 0;
  // A record starts after the previous one and the empty lines between; it ends as many lines
  // further as its cells hold line breaks (csv-parse's own count takes a CRLF in quotes for two).
  let lastEnd = 0;
  let lastEmpty = 0;
  const startOf = (emptyLines: unknown) => lastEnd + 1 + (Number(emptyLines) - lastEmpty || 0);
  for (;;) {
    let next: ReadableStreamReadResult<Parsed>;
    try {
      next = (await reader.read()) as ReadableStreamReadResult<Parsed>;
    } catch (error) {
      if (error instanceof TooLarge) return fatal("devices.import.tooLarge");
      return fatal("devices.import.unreadable", undefined, startOf((error as { empty_lines?: unknown }).empty_lines));
    }
    if (next.done) break;
    const { record, info } = next.value;
    const line = startOf(info.empty_lines);
    lastEnd = line + record.reduce((breaks, cell) => breaks + (cell.match(LINE_BREAK)?.length ?? 0), 0);
    lastEmpty = info.empty_lines;
    if (record.every((cell) => cell === "")) continue;
    if (!header) {
      header = record.map((name) => name.toLowerCase());
      if (!header.includes("uid")) return fatal("devices.import.noUidColumn");
      continue;
    }
    rows += 1;
    if (rows > IMPORT_MAX_ROWS) return fatal("devices.import.tooManyRows", { max: IMPORT_MAX_ROWS });
    // Cells past the header's are tolerated when empty (a trailing comma on every line).
    if (record.length < header.length || record.slice(header.length).some((cell) => cell !== "")) {
      problems.push({
        row: line,
        column: "file",
        message: "devices.import.fieldCount",
        values: { count: record.length, expected: header.length },
      });
      continue;
    }
    const cells: Record<string, string> = {};
    header.forEach((name, index) => {
      cells[name] = fromInert(record[index] ?? "");
    });
    onRecord({ cells, line });
  }
  if (rows === 0) return { problems: [{ row: 0, column: "file", message: "devices.import.empty" }], fatal: true };
  return { problems, fatal: false };
}
