import { inert } from "@/schema/csv-cell";

/*
 * The CSV downloads (activity log, support sessions, devices, reports): RFC 4180 quoting by
 * csv-stringify, Windows line ends, UTF-8 with a BOM so spreadsheets read accents, streamed a
 * page of records at a time (never all rows in memory), and no cell a spreadsheet would run:
 * every text cell and header goes through `inert` here, so no caller can forget one (a uid
 * starting with "-" was written raw, issue 23). Numbers stay numbers.
 */

/** A record's cells as the file holds them: text made inert, numbers as they are, nothing as "". */
function inertCells(record: Record<string, unknown>): Record<string, string | number> {
  const cells: Record<string, string | number> = {};
  for (const [key, value] of Object.entries(record)) {
    cells[key] = typeof value === "number" ? value : inert(value === null || value === undefined ? "" : String(value));
  }
  return cells;
}

export type CsvColumn = { key: string; header: string };

/** A page of items and where the next one starts (none: the last page). */
export type CsvPage<T> = { items: readonly T[]; next?: string | null };

/**
 * A CSV file as a streamed answer. The first page is fetched before the answer starts, so a
 * refusal (another tenant's account, a missing permission) is an error page, not a broken file.
 */
export async function csvDownload<T>({
  filename,
  columns,
  fetchPage,
  record,
  maxRows = Number.POSITIVE_INFINITY,
}: {
  /** Characters other than letters, digits, ".", "-" and "_" are dropped. */
  filename: string;
  columns: readonly CsvColumn[];
  fetchPage: (next?: string) => Promise<CsvPage<T>>;
  record: (item: T) => Record<string, unknown>;
  /** The file holds at most this many rows (a Worker's request has bounded time). */
  maxRows?: number;
}): Promise<Response> {
  const { stringify } = await import("csv-stringify/browser/esm/sync");
  let page = await fetchPage();
  let written = 0;
  let first = true;
  const encoder = new TextEncoder();
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const items = page.items.slice(0, maxRows - written);
      const csv = stringify(
        items.map((item) => inertCells(record(item))),
        {
          header: first,
          bom: first,
          columns: columns.map((column) => ({ key: column.key, header: inert(column.header) })),
          record_delimiter: "windows",
        },
      );
      first = false;
      written += items.length;
      if (csv) controller.enqueue(encoder.encode(csv));
      if (!page.next || written >= maxRows) {
        controller.close();
        return;
      }
      page = await fetchPage(page.next);
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
