/**
 * Many pages' sheets stored as one list of rules: each page's sheet is a subset of it, kept as
 * a bit set, so the Worker carries each rule once instead of ~100 near-copies of a 20 KB sheet.
 *
 * A piece is a rule inside an `@layer name{…}` block (kept with its layer) or a top-level
 * statement (`@property`, `@page`, the licence comment). Tailwind orders rules the same way in
 * every sheet, so one order agrees with every page's own: a page's pieces, taken in that order
 * and wrapped in their layers again, give back its sheet byte for byte (packSheets checks it).
 */

export type Piece = { layer: number; text: string };
export type PackedSheets = { layers: string[]; pieces: Piece[]; sheets: string[] };

/** The end (exclusive) of the statement or block that starts at `start`, at the same depth. */
function statementEnd(css: string, start: number): number {
  let depth = 0;
  for (let i = start; i < css.length; i++) {
    const char = css[i];
    if (char === '"' || char === "'") {
      i = css.indexOf(char, i + 1);
      if (i < 0) throw new Error("unterminated string in CSS");
    } else if (char === "/" && css[i + 1] === "*") {
      i = css.indexOf("*/", i + 2) + 1;
      if (i <= 0) throw new Error("unterminated comment in CSS");
      if (depth === 0) {
        while (/\s/.test(css[i + 1] ?? "")) i++;
        return i + 1;
      }
    } else if (char === "{") depth++;
    else if (char === "}") {
      depth--;
      if (depth === 0) return i + 1;
      if (depth < 0) throw new Error("unbalanced braces in CSS");
    } else if (char === ";" && depth === 0) return i + 1;
  }
  throw new Error("CSS ends inside a statement");
}

/** A sheet as [layer name or null, piece text] in order. */
export function splitSheet(css: string): [string | null, string][] {
  const out: [string | null, string][] = [];
  let i = 0;
  while (i < css.length) {
    const end = statementEnd(css, i);
    const statement = css.slice(i, end);
    const layer = /^@layer ([\w-]+)\{/.exec(statement);
    if (layer?.[1]) {
      const body = statement.slice(layer[0].length, -1);
      for (let j = 0; j < body.length; ) {
        const childEnd = statementEnd(body, j);
        out.push([layer[1], body.slice(j, childEnd)]);
        j = childEnd;
      }
    } else out.push([null, statement]);
    i = end;
  }
  return out;
}

/** The sheet of a page from its pieces (in their common order): the runtime does the same. */
export function assemble(packed: { layers: string[]; pieces: Piece[] }, has: (index: number) => boolean): string {
  let css = "";
  let open = -1;
  packed.pieces.forEach((piece, index) => {
    if (!has(index)) return;
    if (piece.layer !== open) {
      if (open >= 0) css += "}";
      if (piece.layer >= 0) css += `@layer ${packed.layers[piece.layer]}{`;
      open = piece.layer;
    }
    css += piece.text;
  });
  return open >= 0 ? `${css}}` : css;
}

/** One order of all pieces that agrees with every sheet's own order (a topological sort). */
function commonOrder(sequences: string[][]): string[] {
  const firstSeen = new Map<string, number>();
  const after = new Map<string, Set<string>>();
  const before = new Map<string, number>();
  for (const sequence of sequences) {
    sequence.forEach((key, index) => {
      if (!firstSeen.has(key)) {
        firstSeen.set(key, firstSeen.size);
        after.set(key, new Set());
        before.set(key, 0);
      }
      const previous = sequence[index - 1];
      if (previous !== undefined && !after.get(previous)?.has(key)) {
        after.get(previous)?.add(key);
        before.set(key, (before.get(key) ?? 0) + 1);
      }
    });
  }
  const ready = [...firstSeen.keys()].filter((key) => before.get(key) === 0);
  const order: string[] = [];
  while (ready.length > 0) {
    // The earliest seen first, so the order stays close to Tailwind's own.
    ready.sort((a, b) => (firstSeen.get(a) ?? 0) - (firstSeen.get(b) ?? 0));
    const key = ready.shift() as string;
    order.push(key);
    for (const next of after.get(key) ?? []) {
      const left = (before.get(next) ?? 0) - 1;
      before.set(next, left);
      if (left === 0) ready.push(next);
    }
  }
  if (order.length !== firstSeen.size) throw new Error("page sheets order their rules differently: cannot share pieces");
  return order;
}

const keyOf = (layer: string | null, text: string) => `${layer ?? ""}\u0000${text}`;

/** Packs sheets into shared pieces plus one base64 bit set per sheet; fails if one would not come back exactly. */
export function packSheets(sheets: string[]): PackedSheets {
  const split = sheets.map(splitSheet);
  const order = commonOrder(split.map((pieces) => pieces.map(([layer, text]) => keyOf(layer, text))));
  const layers: string[] = [];
  const pieces: Piece[] = order.map((key) => {
    const [layer = "", text = ""] = key.split("\u0000");
    if (layer && !layers.includes(layer)) layers.push(layer);
    return { layer: layer ? layers.indexOf(layer) : -1, text };
  });
  const indexOf = new Map(order.map((key, index) => [key, index]));
  const bitSets = split.map((sheetPieces, sheetIndex) => {
    const bits = new Uint8Array(Math.ceil(pieces.length / 8));
    for (const [layer, text] of sheetPieces) {
      const index = indexOf.get(keyOf(layer, text)) as number;
      bits[index >> 3] = (bits[index >> 3] ?? 0) | (1 << (index & 7));
    }
    const back = assemble({ layers, pieces }, (index) => ((bits[index >> 3] ?? 0) & (1 << (index & 7))) !== 0);
    if (back !== sheets[sheetIndex]) throw new Error(`sheet ${sheetIndex} does not come back from its pieces`);
    return Buffer.from(bits).toString("base64");
  });
  return { layers, pieces, sheets: bitSets };
}
