// Benchmark: lists at 100, 10,000 and 100,000 rows, and what the main pages cost against a
// signed-in no-op (issue 10 §4–6, DESIGN.md §8). Runs bench/scale/lists.bench-test.ts in
// workerd through Vitest with its own D1 (bench/scale/vitest.config.ts: a separate, generated
// database, not npm start's), reads the BENCH_JSON line it prints, and writes the ratios to
// bench/results/list-scale.json and list-scale.md.
//
// Alone: node bench/list-scale.mjs   (15 requests per figure after 2 warm-ups, median taken)
import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import { cpus, loadavg } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { ROOT } from "./server.mjs";

export const SCALE_GOAL = 1.5;
export const COST_GOAL = 0.5;

export function measureListScale() {
  const result = spawnSync("npx", ["vitest", "run", "--config", "bench/scale/vitest.config.ts"], {
    cwd: ROOT,
    env: { ...process.env, FORCE_COLOR: "0" },
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
  });
  return parseBenchJson(`${result.stdout}`, result.stderr);
}

/**
 * The figures of the BENCH_JSON lines in Vitest's output (which may put colour codes before
 * them), one per bench file (lists.bench-test.ts, more-lists.bench-test.ts), merged.
 */
export function parseBenchJson(stdout, stderr = "") {
  const lines = stdout.split("\n").filter((text) => text.includes("BENCH_JSON {"));
  if (!lines.length) {
    process.stderr.write(`${stdout}\n${stderr}`);
    throw new Error("the scale benchmark printed no BENCH_JSON line");
  }
  const parts = lines.map((line) => JSON.parse(line.slice(line.indexOf("BENCH_JSON ") + "BENCH_JSON ".length)));
  const [merged, ...rest] = parts;
  for (const part of rest) {
    Object.assign(merged.scale, part.scale);
    Object.assign(merged.cost, part.cost);
  }
  return merged;
}

const fmt = (value) => value.toFixed(2);

export function listScaleMarkdown(data) {
  const [small, , large] = data.scales;
  const lines = [
    `## Lists at ${data.scales.map((n) => n.toLocaleString("en")).join(" / ")} rows`,
    "",
    `Median of ${data.runs} whole requests through the Worker's app in workerd (session, procedures, D1, rendering), one at a time.`,
    `Load average when written: ${loadavg()
      .map((v) => v.toFixed(1))
      .join(", ")} on ${cpus().length} cores (other agents' work): single figures are noisy, compare within a row.`,
    "",
    `| case | ${data.scales.map((n) => `${n.toLocaleString("en")} rows (ms)`).join(" | ")} | ratio ${large.toLocaleString("en")} / ${small} | goal ≤ ${SCALE_GOAL} |`,
    `| --- | ${data.scales.map(() => "---:").join(" | ")} | ---: | --- |`,
  ];
  for (const [label, byRows] of Object.entries(data.scale)) {
    const ratio = byRows[large] / byRows[small];
    lines.push(
      `| ${label} | ${data.scales.map((n) => fmt(byRows[n])).join(" | ")} | ${fmt(ratio)}× | ${ratio <= SCALE_GOAL ? "met" : "**missed**"} |`,
    );
  }
  const noopKey = Object.keys(data.cost)[0];
  const noop = data.cost[noopKey];
  lines.push(
    "",
    `## Latency of one request against a signed-in no-op (at ${large.toLocaleString("en")} rows)`,
    "",
    "One request at a time, so every D1 round trip adds its full latency, and workerd's clock moves in whole",
    "milliseconds: this shows that the pages do not slow down with 100,000 rows. The server-cost goal",
    `(signed-in /accounts throughput ≥ ${COST_GOAL}× a signed-in no-op) is measured over HTTP under load by`,
    "bench/signed-in-throughput.mjs (`npm run bench`, bench/results/latest.md).",
    "",
    "| page | ms | time ratio |",
    "| --- | ---: | ---: |",
  );
  for (const [label, ms] of Object.entries(data.cost)) {
    lines.push(`| ${label} | ${fmt(ms)} | ${fmt(ms / noop)}× |`);
  }
  return `${lines.join("\n")}\n`;
}

export async function writeListScale(data) {
  await writeFile(
    join(ROOT, "bench/results/list-scale.json"),
    `${JSON.stringify({ at: new Date().toISOString(), ...data }, null, 2)}\n`,
  );
  const markdown = listScaleMarkdown(data);
  await writeFile(join(ROOT, "bench/results/list-scale.md"), markdown);
  return markdown;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  // `node bench/list-scale.mjs --from-log FILE` writes the results of a run's saved output.
  const fromLog = process.argv.indexOf("--from-log");
  const data = fromLog > 0 ? parseBenchJson(readFileSync(process.argv[fromLog + 1] ?? "", "utf8")) : measureListScale();
  console.log(await writeListScale(data));
}
