import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import { ftsQuery } from "@/server/data/fts";
import { cursorFrom, decodeCursor, encodeCursor, keysetWhere, order, pageOf } from "@/server/data/keyset";

// The two helpers every list is built on (README "How a list is made"): cursors that survive
// a URL and reject anything not ours, and search text that can never be FTS5 syntax.

describe("keyset cursors", () => {
  it("round-trips key values through URL-safe text", () => {
    const values = ["Zürich “depot” 🚒", 42];
    const text = encodeCursor(values);
    expect(text).toMatch(/^[\w-]+$/);
    expect(decodeCursor(text, 2)).toEqual(values);
  });

  it("reads anything else as no cursor", () => {
    for (const text of ["", "!!", "x".repeat(2_000), encodeCursor(["a"]), btoa('{"a":1}'), btoa("[[1],2]"), "%ED%A0%80"]) {
      expect(decodeCursor(text, 2)).toBeNull();
    }
    expect(cursorFrom("junk", encodeCursor(["b", 2]), 2)).toEqual({ direction: "before", values: ["b", 2] });
  });

  it("pages forwards and backwards over the same rows", () => {
    const byName = order("asc", ["name", "rowid"]);
    const rows = Array.from({ length: 7 }, (_, i) => ({ name: `n${i}`, rowid: i }));
    const key = (row: { name: string; rowid: number }) => [row.name, row.rowid];
    const first = pageOf(rows.slice(0, 4), keysetWhere(byName, null, 3), key, (row) => row.name);
    expect(first).toMatchObject({ items: ["n0", "n1", "n2"], previous: null });
    const after = keysetWhere(byName, { direction: "after", values: decodeCursor(first.next, 2) ?? [] }, 3);
    // The leading key's own bound lets SQLite seek the index (a rowid in the row value stops it).
    expect(after.where).toBe("name >= ? AND (name, rowid) > (?, ?)");
    expect(after.params).toEqual(["n2", "n2", 2]);
    const back = keysetWhere(byName, { direction: "before", values: ["n3", 3] }, 3);
    expect(back.orderBy).toBe("name DESC, rowid DESC");
    const previous = pageOf([rows[2], rows[1], rows[0]].filter(Boolean) as typeof rows, back, key, (row) => row.name);
    expect(previous).toMatchObject({ items: ["n0", "n1", "n2"], previous: null });
  });
});

describe("FTS5 search text", () => {
  it("quotes every word as a prefix term and drops what is not a word", () => {
    expect(ftsQuery("fle 2")).toBe('"fle"* "2"*');
    expect(ftsQuery('"x" NEAR(a b) -c d*')).toBe('"x"* "NEAR"* "a"* "b"* "c"* "d"*');
    expect(ftsQuery("  %_*\"' ")).toBeNull();
    expect(ftsQuery("")).toBeNull();
  });

  it("never makes SQLite fail, whatever is typed", async () => {
    await env.DB.exec(
      "CREATE VIRTUAL TABLE IF NOT EXISTS probe_fts USING fts5(name, tokenize = 'unicode61 remove_diacritics 2')",
    );
    await env.DB.prepare("INSERT INTO probe_fts (name) VALUES ('Harbor Ferry 07'), ('São Paulo depot')").run();
    const typed = [
      '"',
      "AND",
      "OR NOT",
      "NEAR(",
      "a:b",
      "^x",
      "\u0000",
      "\ud800x",
      "é".repeat(500),
      "w ".repeat(300),
      "sao",
      "ferry 0",
    ];
    for (const text of typed) {
      const query = ftsQuery(text);
      if (!query) continue;
      await expect(env.DB.prepare("SELECT rowid FROM probe_fts WHERE probe_fts MATCH ?").bind(query).all()).resolves.toBeTruthy();
    }
    const { results } = await env.DB.prepare("SELECT name FROM probe_fts WHERE probe_fts MATCH ?").bind(ftsQuery("sao")).all();
    expect(results).toEqual([{ name: "São Paulo depot" }]);
  });
});
