// `node bench/compliance-scale.mjs`: the compliance report and the inventory filtered by sync
// state at 100,000 radios (an account of 99,000 and one of 1,000 in one database), before and
// after issue 23. "Before" is compliance.ts at BENCH_COMPLIANCE_BEFORE (d7833e7: the running
// totals of migrations 0021/0023, which disagreed with the home); "after" is the current one
// (syncGroups: one grouped pass over the account's radios with the sync and contact expressions
// of data/fleet-sync.ts). Generated in memory with the app's migrations (node:sqlite), radios
// inserted before migration 0023 so its backfill builds the running totals as production got
// them; median of BENCH_COMPLIANCE_RUNS (7) after a warm-up.
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { d1 } from "./reports-scale.mjs";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_COMPLIANCE_RUNS ?? 7);
const BEFORE = process.env.BENCH_COMPLIANCE_BEFORE ?? "d7833e7";
const LARGE = Number(process.env.BENCH_COMPLIANCE_LARGE ?? 99_000);
const SMALL = 1_000;

/** One module bundled; `../x` and `./x` imports of a file outside the tree resolve to the app's data layer. */
async function bundle(dir, entry, name) {
  const outfile = join(dir, `${name}.mjs`);
  const dataLayer = {
    name: "data-layer",
    setup(b) {
      b.onResolve({ filter: /^\.\.?\// }, (args) => {
        if (!args.importer.startsWith(dir)) return undefined;
        const base = args.path.startsWith("../") ? "src/server/data" : "src/server/data/reports";
        return { path: join(ROOT, base, `${args.path.replace(/^\.\.?\//, "")}.ts`) };
      });
    },
  };
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "silent",
    tsconfig: join(ROOT, "tsconfig.json"),
    plugins: [dataLayer],
  });
  return import(pathToFileURL(outfile).href);
}

const plan = JSON.stringify({
  phases: [
    {
      share: 100,
      successPercent: 100,
      successAction: "next",
      errorKind: "percent",
      errorValue: 20,
      errorMinimum: 1,
      waitMinutes: 0,
    },
  ],
});

function account(sqlite, id, prefix, radios) {
  const sites = Array.from({ length: 20 }, (_, i) => `('${id}_site_${i}', '${id}', 'Site ${i}')`).join(", ");
  sqlite.exec(`
    INSERT INTO accounts (id, org_id, name, subscription_level) VALUES ('${id}', 'org_bench', '${id}', 'advanced');
    INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_${id}', 'sub_bench', '${id}', ${radios});
    INSERT INTO sites (id, account_id, name) VALUES ${sites};
    INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES ('rev_${id}_1', '${id}', 1, 'h1', '{}'), ('rev_${id}_2', '${id}', 2, 'h2', '{}');
    WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${radios})
    INSERT INTO devices (uid, org_id, account_id, site_id, brand, model, secret_hash, firmware, last_seen_at, reported_revision)
    SELECT printf('${prefix}-%07d', i), 'org_bench', '${id}', '${id}_site_' || (i % 20), 'Northwind', 'XR-7', 'x', '2.4.1',
      CASE WHEN i % 10 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', (i * 97) % 600)) END,
      CASE WHEN i % 4 = 0 THEN NULL WHEN i % 101 = 0 THEN 'rev_elsewhere' WHEN i % 3 = 0 THEN 'rev_${id}_1' ELSE 'rev_${id}_2' END
    FROM n;`);
  for (const [d, revision] of [
    [1, 1],
    [2, 2],
  ]) {
    sqlite.exec(`
      INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at)
      VALUES ('dep_${id}_${d}', '${id}', 'org_bench', ${d}, 'rev_${id}_${revision}', 'finished', '${plan}', '{"mode":"delivery"}', ${radios}, 'bench',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${3 - d} days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${3 - d} days'));
      WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${radios})
      INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at)
      SELECT 'dep_${id}_${d}', printf('${prefix}-%07d', i), 0,
        CASE WHEN i % 50 = 0 THEN 'failed' WHEN i % 97 = 0 THEN 'rejected' WHEN i % 13 = 0 THEN 'delivered' ELSE 'applied' END,
        CASE WHEN i % 50 = 0 THEN 'E1' ELSE '' END, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 days')
      FROM n WHERE i % 4 <> 0;`);
  }
}

function median(values) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function timed(run) {
  await run();
  const times = [];
  for (let n = 0; n < RUNS; n++) {
    const start = performance.now();
    await run();
    times.push(performance.now() - start);
  }
  return median(times);
}

const dir = await mkdtemp(join(tmpdir(), "compliance-bench-"));
try {
  const oldSource = execFileSync("git", ["show", `${BEFORE}:src/server/data/reports/compliance.ts`], {
    cwd: ROOT,
    encoding: "utf8",
  });
  await writeFile(join(dir, "compliance-before.ts"), oldSource);
  const before = await bundle(dir, join(dir, "compliance-before.ts"), "before");
  const after = await bundle(dir, join(ROOT, "src/server/data/reports/compliance.ts"), "after");
  await writeFile(
    join(dir, "listing.ts"),
    `export { listDevices } from "${join(ROOT, "src/server/data/devices.ts")}";
     export { syncSql } from "${join(ROOT, "src/server/data/fleet-sync.ts")}";`,
  );
  const listing = await bundle(dir, join(dir, "listing.ts"), "listing");

  const started = performance.now();
  const sqlite = new DatabaseSync(":memory:");
  sqlite.exec("PRAGMA foreign_keys = ON");
  const files = readdirSync(join(ROOT, "migrations"))
    .filter((f) => f.endsWith(".sql"))
    .sort();
  const apply = (list) => {
    for (const f of list) sqlite.exec(readFileSync(join(ROOT, "migrations", f), "utf8"));
  };
  const at = files.indexOf("0023_report_running_totals.sql");
  apply(files.slice(0, at));
  sqlite.exec(`INSERT INTO organizations (id, name, kind) VALUES ('org_bench', 'Bench', 'customer');
    INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_bench', 'org_bench', 'Bench', 1000000, '2025-01-01');`);
  account(sqlite, "acc_small", "SML", SMALL);
  account(sqlite, "acc_large", "LRG", LARGE);
  // "Before" reads the running totals as they were before 0027 dropped their revision dimension.
  const upgrade = files.indexOf("0027_report_places_by_site.sql");
  apply(files.slice(at, upgrade));
  sqlite.exec("ANALYZE");
  const db = d1(sqlite);
  console.log(`generated ${SMALL + LARGE} radios in ${((performance.now() - started) / 1000).toFixed(0)} s; ${RUNS} runs each`);
  const sizes = [
    ["1,000 radios", "acc_small"],
    [`${LARGE.toLocaleString("en")} radios`, "acc_large"],
  ];
  const lines = ["| measure | median (ms) |", "| --- | --- |"];
  const row = async (label, run) => lines.push(`| ${label} | ${(await timed(run)).toFixed(1)} |`);
  for (const [name, id] of sizes) await row(`compliance before (${BEFORE}), ${name}`, () => before.complianceReport(db, id));
  apply(files.slice(upgrade));
  sqlite.exec("ANALYZE");
  for (const [name, id] of sizes) {
    await row(`compliance after (syncGroups), ${name}`, () => after.complianceReport(db, id));
    for (const sync of ["failed", "inSync"]) {
      await row(`inventory page of 50, sync=${sync} (expressions read included), ${name}`, async () => {
        const states = await listing.syncSql(db, id, "d");
        await listing.listDevices(db, { orgId: "org_bench", scopeAccountId: id, sync, states }, { limit: 50 });
      });
    }
  }
  console.log(lines.join("\n"));
} finally {
  await rm(dir, { recursive: true, force: true });
}
