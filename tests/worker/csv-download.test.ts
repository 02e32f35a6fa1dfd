import { describe, expect, it } from "vitest";
import { csvDownload } from "@/routes/csv-download";

/** Pages of numbered rows, as a keyset list answers them (the cursor is where the next page starts). */
function pages(total: number, size: number) {
  const fetched: (string | undefined)[] = [];
  const fetchPage = async (next?: string) => {
    fetched.push(next);
    const from = Number(next ?? 0);
    const items = Array.from({ length: Math.max(0, Math.min(size, total - from)) }, (_, i) => ({ n: from + i }));
    return { items, next: from + size < total ? String(from + size) : null };
  };
  return { fetchPage, fetched };
}

const columns = [{ key: "n", header: "Number" }];

describe("csvDownload", () => {
  it("streams every page once, with one BOM and one header row, as an attachment", async () => {
    const source = pages(5, 2);
    const response = await csvDownload({ filename: "rows.csv", columns, fetchPage: source.fetchPage, record: (r) => r });
    expect(response.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="rows.csv"');
    const bytes = new Uint8Array(await response.arrayBuffer());
    expect([...bytes.slice(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = new TextDecoder().decode(bytes.slice(3));
    expect(text).toBe("Number\r\n0\r\n1\r\n2\r\n3\r\n4\r\n");
    expect(source.fetched).toEqual([undefined, "2", "4"]);
  });

  it("stops at maxRows without fetching further pages", async () => {
    const source = pages(100, 3);
    const response = await csvDownload({ filename: "x.csv", columns, fetchPage: source.fetchPage, record: (r) => r, maxRows: 4 });
    const lines = (await response.text())
      .replace(/^\uFEFF/, "")
      .trim()
      .split("\r\n");
    expect(lines).toEqual(["Number", "0", "1", "2", "3"]);
    expect(source.fetched).toEqual([undefined, "3"]);
  });

  it("writes the header alone when there is nothing to export", async () => {
    const response = await csvDownload({ filename: "x.csv", columns, fetchPage: pages(0, 10).fetchPage, record: (r) => r });
    expect((await response.text()).replace(/^\uFEFF/, "")).toBe("Number\r\n");
  });

  it("refuses before the answer starts when the first page is refused", async () => {
    const refused = csvDownload({
      filename: "x.csv",
      columns,
      fetchPage: () => Promise.reject(new Error("NOT_FOUND")),
      record: (r: { n: number }) => r,
    });
    await expect(refused).rejects.toThrow("NOT_FOUND");
  });

  it("keeps a hostile file name and every hostile text cell harmless by itself; numbers stay numbers", async () => {
    const response = await csvDownload({
      filename: 'a"; b=\r\n../c.csv',
      columns: [
        { key: "cell", header: "=Cell" },
        { key: "n", header: "N" },
      ],
      fetchPage: async () => ({ items: ["=HYPERLINK(1)", "+1", "-2-3", "@SUM(A1)", "\tx", "plain, with comma"] }),
      // No caller has to remember: the record's raw values go in.
      record: (cell) => ({ cell, n: -1 }),
    });
    expect(response.headers.get("content-disposition")).toBe('attachment; filename="ab..c.csv"');
    const lines = (await response.text()).replace(/^\uFEFF/, "").split("\r\n");
    expect(lines).toEqual([
      "'=Cell,N",
      "'=HYPERLINK(1),-1",
      "'+1,-1",
      "'-2-3,-1",
      "'@SUM(A1),-1",
      "'\tx,-1",
      '"plain, with comma",-1',
      "",
    ]);
  });
});
