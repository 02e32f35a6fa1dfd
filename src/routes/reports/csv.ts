import type { ReportTable } from "@/schema/reports";
import type { Translate } from "@/server/i18n/i18n";
import { cellValue, columnHeader } from "./cells";

/** Rows written per chunk of the stream. */
const CHUNK = 500;

/**
 * The report's table as a CSV file, exactly the rows and columns the page shows (RFC 4180
 * quoting by csv-stringify, UTF-8 with a BOM so spreadsheets read accents), streamed a chunk
 * of rows at a time like the activity log and device exports.
 */
export async function reportCsv(t: Translate, table: ReportTable, filename: string): Promise<Response> {
  const { stringify } = await import("csv-stringify/browser/esm/sync");
  const columns = table.columns.map((column) => ({ key: column.key, header: columnHeader(t, column, true) }));
  const records = table.rows.map((row) =>
    Object.fromEntries(table.columns.map((column) => [column.key, cellValue(t, column, row)])),
  );
  const encoder = new TextEncoder();
  let offset = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const first = offset === 0;
      const chunk = records.slice(offset, offset + CHUNK);
      offset += CHUNK;
      const csv = stringify(chunk, { header: first, bom: first, columns, record_delimiter: "windows" });
      if (csv) controller.enqueue(encoder.encode(csv));
      if (offset >= records.length) controller.close();
    },
  });
  return new Response(body, {
    headers: {
      "Content-Type": "text/csv; charset=utf-8",
      "Content-Disposition": `attachment; filename="${filename.replace(/[^\w.-]/g, "")}"`,
      "Cache-Control": "no-store",
    },
  });
}
