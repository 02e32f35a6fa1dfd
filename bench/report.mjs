// Plain-text tables for the terminal and the same tables in Markdown.

/** Bytes as kB (1 kB = 1000 B, as Vite prints them). */
export const kb = (bytes) => (bytes == null ? "-" : `${(bytes / 1000).toFixed(2)} kB`);
export const ms = (value, digits = 1) => (value == null || Number.isNaN(value) ? "-" : `${value.toFixed(digits)} ms`);
export const num = (value, digits = 0) => (value == null || Number.isNaN(value) ? "-" : value.toFixed(digits));

export function formatTable({ headers, rows }) {
  const cells = [headers, ...rows].map((row) => row.map((cell) => String(cell)));
  const widths = headers.map((_, i) => Math.max(...cells.map((row) => row[i].length)));
  const line = (row) => row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  return [line(cells[0]), widths.map((w) => "-".repeat(w)).join("  "), ...cells.slice(1).map(line)].join("\n");
}

export function markdownTable({ headers, rows }) {
  const cellText = (cell) => String(cell).replaceAll("|", "\\|");
  return [
    `| ${headers.map(cellText).join(" | ")} |`,
    `| ${headers.map((_, i) => (i === 0 ? "---" : "---:")).join(" | ")} |`,
    ...rows.map((row) => `| ${row.map(cellText).join(" | ")} |`),
  ].join("\n");
}

export const median = (values) => {
  const sorted = values.filter((v) => v != null && !Number.isNaN(v)).sort((a, b) => a - b);
  if (sorted.length === 0) return null;
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

export const mean = (values) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : null);

export const table = (headers, rows) => ({ headers, rows });
