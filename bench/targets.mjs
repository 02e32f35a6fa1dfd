// `node bench/targets.mjs` (issue 25): what a target costs at 1,000,000 radios. One account of
// BENCH_TARGETS_RADIOS (1,000,000) radios, generated in memory (node:sqlite, the app's
// migrations; 20 sites, 3 models, 2 firmware, a tag on one radio in five), and the data layer of
// this tree (src/server/data/targets.ts) bundled with esbuild. Prints the median of RUNS (5) of:
// a saved group's live count (budget < 200 ms), narrow to broad, and the phase sizes the confirm
// page shows for it. Writes bench/results/targets.md at the full size.
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { d1 } from "./reports-scale.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RADIOS = Number(process.env.BENCH_TARGETS_RADIOS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_TARGETS_RUNS ?? 5);
const CHUNK = 50_000;

async function dataLayer(dir) {
  const entry = join(dir, "entry.ts");
  const data = join(ROOT, "src/server/data");
  await writeFile(
    entry,
    `export * from "${data}/targets.ts";\nexport { createGroupStatements } from "${data}/radio-groups.ts";\nexport { batch } from "${data}/db.ts";\n`,
  );
  const outfile = join(dir, "targets.mjs");
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "silent",
    tsconfig: join(ROOT, "tsconfig.json"),
    nodePaths: [join(ROOT, "node_modules")],
  });
  return import(pathToFileURL(outfile).href);
}

function generate() {
  const sqlite = new DatabaseSync(":memory:");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const files = readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  // Radios inserted before the running totals' triggers (as bench/million.mjs does), then the rest.
  const at = files.indexOf("0023_report_running_totals.sql");
  const apply = (list) => {
    for (const f of list) sqlite.exec(readFileSync(join(ROOT, "migrations", f), "utf8"));
  };
  apply(files.slice(0, at));
  const sites = Array.from({ length: 20 }, (_, i) => `('site_${i}', 'acc_t', 'Site ${i}')`).join(", ");
  sqlite.exec(`INSERT INTO organizations (id, name, kind) VALUES ('org_t', 'Bench', 'customer');
    INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_t', 'org_t', 'Bench', ${RADIOS}, '2025-01-01');
    INSERT INTO accounts (id, org_id, name, subscription_level) VALUES ('acc_t', 'org_t', 'Targets', 'advanced');
    INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_t', 'sub_t', 'acc_t', ${RADIOS});
    INSERT INTO sites (id, account_id, name) VALUES ${sites};`);
  for (let from = 0; from < RADIOS; from += CHUNK) {
    const to = Math.min(RADIOS, from + CHUNK);
    sqlite.exec(`WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to})
      INSERT INTO devices (uid, org_id, account_id, site_id, brand, model, name, tags, secret_hash, firmware)
      SELECT printf('TGT-%07d', i), 'org_t', 'acc_t', 'site_' || (i % 20), 'Northwind',
        CASE i % 3 WHEN 0 THEN 'XR-7' WHEN 1 THEN 'XR-9' ELSE 'TX-200' END, printf('Radio %d', i),
        CASE WHEN i % 5 = 0 THEN '["night"]' ELSE '[]' END, 'x', CASE WHEN i % 7 = 0 THEN '1.8.2' ELSE '2.4.1' END
      FROM n`);
  }
  sqlite.exec(`INSERT INTO device_tags (uid, tag) SELECT uid, 'night' FROM devices WHERE tags = '["night"]'`);
  apply(files.slice(at));
  sqlite.exec("ANALYZE");
  return sqlite;
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(fn) {
  const times = [];
  let value;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    value = await fn();
    times.push(performance.now() - start);
  }
  return { ms: median(times), value };
}

const dir = await mkdtemp(join(tmpdir(), "targets-bench-"));
try {
  const data = await dataLayer(dir);
  const started = performance.now();
  const sqlite = generate();
  const db = d1(sqlite);
  const label = (n) => n.toLocaleString("en");
  console.log(
    `generated ${label(RADIOS)} radios in ${((performance.now() - started) / 1000).toFixed(0)} s; median of ${RUNS} runs`,
  );
  const actor = { id: "usr_t", email: "bench@example.com" };
  const groups = [
    ["North garage, old firmware (site + firmware)", { siteId: "site_3", firmware: "1.8.2" }],
    ["One site", { siteId: "site_3" }],
    ["Old firmware", { firmware: "1.8.2" }],
    ["One model, old firmware", { model: "XR-7", firmware: "1.8.2" }],
    ["Tagged night", { tag: "night" }],
    ["One model", { model: "XR-7" }],
  ];
  const lines = [];
  for (const [name, filter] of groups) {
    const { id, statements } = data.createGroupStatements(db, { orgId: "org_t", accountId: "acc_t", actor }, { name, filter });
    await data.batch(db, statements);
    const target = { kind: "filter", filter: { groupId: id } };
    // What the groups page and the confirm page do: resolve (tenancy checks, read the group), then count.
    const counted = await timed(async () => {
      const resolved = await data.resolveTarget(db, "acc_t", target);
      return data.countTarget(db, "acc_t", resolved.target);
    });
    const sized = await timed(async () => {
      const resolved = await data.resolveTarget(db, "acc_t", target);
      return data.targetPhaseSizes(db, "acc_t", resolved.target, [5, 25, 100]);
    });
    const line = `| ${name} | ${label(counted.value)} | ${counted.ms.toFixed(1)} ms | ${sized.ms.toFixed(1)} ms (${sized.value.map(label).join(" / ")}) |`;
    console.log(line);
    lines.push(line);
  }
  if (RADIOS >= 1_000_000) {
    const md = [
      "# Targets at 1,000,000 radios (issue 25)",
      "",
      `\`node bench/targets.mjs\`, ${new Date().toISOString().slice(0, 10)}: one account of ${label(RADIOS)} radios (node:sqlite in memory, the app's migrations), median of ${RUNS} runs. Budget: a saved group's count < 200 ms.`,
      "",
      "| Saved group | Radios | Count (resolve + count) | Phase sizes 5/25/100 % |",
      "|---|---:|---:|---:|",
      ...lines,
      "",
    ].join("\n");
    await writeFile(join(ROOT, "bench/results/targets.md"), md);
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
