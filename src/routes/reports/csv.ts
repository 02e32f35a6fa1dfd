import { csvDownload } from "@/routes/csv-download";
import type { ReportTable } from "@/schema/reports";
import type { Translate } from "@/server/i18n/i18n";
import { cellValue, columnHeader } from "./cells";

/** Rows written per chunk of the stream. */
const CHUNK = 500;

/**
 * The report's table as a CSV file (see csvDownload), exactly the rows and columns the page
 * shows, streamed a chunk of rows at a time.
 */
export function reportCsv(t: Translate, table: ReportTable, filename: string): Promise<Response> {
  const records = table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column) => [column.key, cellValue(t, column, row)])),
  );
  return csvDownload({
    filename,
    columns: table.columns.map((column) => ({ key: column.key, header: columnHeader(t, column, true) })),
    // The rows are in memory already; the "pages" are chunks of them (the cursor is an offset).
    fetchPage: async (from = "0") => {
      const offset = Number(from);
      const next = offset + CHUNK < records.length ? String(offset + CHUNK) : null;
      return { items: records.slice(offset, offset + CHUNK), next };
    },
    record: (row) => row,
  });
}
