// Who wrote the bytes of each built JavaScript chunk: React's runtime, other libraries, or us.
//
// Method: build the client environment again, in memory, with the project's own vite config
// plus a hidden source map (which changes neither the code nor the file names), and check
// that each chunk's code is byte-identical to the file on disk / the file the browser got.
// Then walk the source map: every run of minified output is credited to the source file the
// map points at. The minified text of each group is gzipped on its own, and the chunk's real
// gzip size is shared out in proportion to those sizes (gzip is not additive: the shares are
// an estimate, the chunk totals are measured).
//
// Groups:  react     node_modules/{react,react-dom,scheduler}
//          libraries any other node_modules package (e.g. sonner)
//          ours      our sources (src/**)
//          glue      output the map credits to no source or to a bundler helper (Vite's
//                    preload helper, Rolldown's runtime, import/export statements). The
//                    budget counts it as our code, to be conservative.
import { gzipSync } from "node:zlib";
import { BENCH_CONFIG, ROOT } from "./server.mjs";

export const GZIP_LEVEL = 9;
export const gzipSize = (text) => gzipSync(typeof text === "string" ? Buffer.from(text) : text, { level: GZIP_LEVEL }).length;

export const GROUPS = ["react", "libraries", "ours", "glue"];

function groupOf(source) {
  if (source == null) return "glue";
  const path = source.replaceAll("\\", "/");
  const nm = path.lastIndexOf("node_modules/");
  if (nm >= 0) {
    const rest = path.slice(nm + "node_modules/".length).split("/");
    const pkg = rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
    return ["react", "react-dom", "scheduler"].includes(pkg) ? "react" : "libraries";
  }
  if (/(^|\/)src\//.test(path)) return "ours";
  return "glue"; // vite/preload-helper, rolldown:runtime and other virtual modules
}

export function packageOf(source) {
  const path = (source ?? "").replaceAll("\\", "/");
  const nm = path.lastIndexOf("node_modules/");
  if (nm < 0) return null;
  const rest = path.slice(nm + "node_modules/".length).split("/");
  return rest[0].startsWith("@") ? `${rest[0]}/${rest[1]}` : rest[0];
}

const B64 = Object.fromEntries([..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].map((c, i) => [c, i]));

function decodeVlq(segment) {
  const values = [];
  let value = 0;
  let shift = 0;
  for (const char of segment) {
    const digit = B64[char];
    value += (digit & 31) << shift;
    if (digit & 32) {
      shift += 5;
    } else {
      values.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = 0;
      shift = 0;
    }
  }
  return values;
}

/** Splits the chunk's code into per-group text, following the source map's mappings. */
function splitBySource(code, map) {
  const text = Object.fromEntries(GROUPS.map((g) => [g, []]));
  const bySource = new Map();
  const lines = code.split("\n");
  const mappingLines = map.mappings.split(";");
  let sourceIndex = 0;
  for (let lineNo = 0; lineNo < lines.length; lineNo++) {
    const line = lines[lineNo];
    const segments = (mappingLines[lineNo] ?? "").split(",").filter(Boolean);
    let column = 0;
    const starts = [];
    for (const segment of segments) {
      const values = decodeVlq(segment);
      column += values[0];
      if (values.length >= 4) {
        sourceIndex += values[1];
        // the source line/column deltas (values[2], values[3]) are not needed here
        starts.push({ column, source: map.sources[sourceIndex] });
      } else {
        starts.push({ column, source: null });
      }
    }
    const pieces = [];
    if (starts.length === 0 || starts[0].column > 0) pieces.push({ from: 0, to: starts[0]?.column ?? line.length, source: null });
    for (const [i, start] of starts.entries()) {
      pieces.push({ from: start.column, to: starts[i + 1]?.column ?? line.length, source: start.source });
    }
    for (const piece of pieces) {
      if (piece.to <= piece.from) continue;
      const slice = line.slice(piece.from, piece.to);
      text[groupOf(piece.source)].push(slice);
      const key = piece.source ?? "(unmapped)";
      bySource.set(key, (bySource.get(key) ?? 0) + slice.length);
    }
    if (lineNo < lines.length - 1) text.glue.push("\n");
  }
  return { text: Object.fromEntries(GROUPS.map((g) => [g, text[g].join("")])), bySource };
}

/**
 * Builds the client environment in memory (same config, DIST_DIR as the benchmark build) and
 * returns, per output file name, its code and the attribution of its bytes.
 */
export async function attributeClientBuild({ distDir = BENCH_CONFIG.distDir } = {}) {
  const previous = { DIST_DIR: process.env.DIST_DIR, WARN: process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING };
  process.env.DIST_DIR = distDir;
  process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = "true";
  const cwd = process.cwd();
  process.chdir(ROOT);
  let outputs;
  try {
    const { createBuilder } = await import("vite");
    const builder = await createBuilder({
      root: ROOT,
      logLevel: "silent",
      environments: { client: { build: { write: false, sourcemap: "hidden" } } },
    });
    const result = await builder.build(builder.environments.client);
    outputs = (Array.isArray(result) ? result : [result]).flatMap((r) => r.output);
  } finally {
    process.chdir(cwd);
    if (previous.DIST_DIR === undefined) delete process.env.DIST_DIR;
    else process.env.DIST_DIR = previous.DIST_DIR;
    if (previous.WARN === undefined) delete process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING;
    else process.env.VITE_CONFIG_NATIVE_IGNORE_WARNING = previous.WARN;
  }

  const chunks = new Map();
  for (const output of outputs) {
    if (output.type !== "chunk" || !output.map) continue;
    const { text, bySource } = splitBySource(output.code, output.map);
    const standalone = Object.fromEntries(GROUPS.map((g) => [g, text[g].length ? gzipSize(text[g]) : 0]));
    const minified = Object.fromEntries(GROUPS.map((g) => [g, text[g].length]));
    const packages = {};
    for (const [source, bytes] of bySource) {
      const pkg = packageOf(source);
      if (pkg) packages[pkg] = (packages[pkg] ?? 0) + bytes;
    }
    chunks.set(output.fileName, {
      fileName: output.fileName,
      code: output.code,
      minifiedBytesByGroup: minified,
      standaloneGzipByGroup: standalone,
      minifiedBytesByPackage: packages,
      containsReactDom: packages["react-dom"] > 0,
    });
  }
  return chunks;
}

/**
 * Shares a measured gzip size out over the groups, in proportion to each group's own gzip
 * size. Returns whole bytes that add up to the measured size.
 */
export function shareGzip(totalGzip, standaloneGzipByGroup) {
  const sum = GROUPS.reduce((s, g) => s + standaloneGzipByGroup[g], 0);
  const shares = Object.fromEntries(GROUPS.map((g) => [g, 0]));
  if (sum === 0) return shares;
  let given = 0;
  for (const g of GROUPS) {
    shares[g] = Math.round((totalGzip * standaloneGzipByGroup[g]) / sum);
    given += shares[g];
  }
  const largest = GROUPS.reduce((a, b) => (shares[a] >= shares[b] ? a : b));
  shares[largest] += totalGzip - given; // rounding
  return shares;
}
