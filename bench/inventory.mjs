// `node bench/inventory.mjs` (also run by `npm run bench`): the device inventory at 100, 10,000
// and 100,000 radios, each generated into its own local D1 (Miniflare, the same SQLite-in-workerd
// the Worker uses locally; never the app's database). Runs the data layer's own SQL
// (src/server/data/devices.ts, bundled with esbuild) and times: the first list page, a deep
// keyset page, a search, two filters, an account's counts, and a full CSV export. Budgets: page
// times within 1.5x from 100 to 100,000 radios; export time linear (time per radio within 1.5x).
// Also the refresh of account A's sync snapshot in D1's rows read and written (issue 24).
// Knobs: BENCH_INVENTORY_SIZES (100,10000,100000; issue 24: 100000,1000000), BENCH_INVENTORY_RUNS (15).
import { readdirSync, readFileSync } from "node:fs";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { stringify } from "csv-stringify/sync";
import { build } from "esbuild";
import { getPlatformProxy } from "wrangler";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const SIZES = (process.env.BENCH_INVENTORY_SIZES ?? "100,10000,100000").split(",").map(Number);
const RUNS = Number(process.env.BENCH_INVENTORY_RUNS ?? 15);

async function dataLayer(dir) {
  const outfile = join(dir, "devices.mjs");
  const entry = join(dir, "entry.ts");
  const data = join(ROOT, "src/server/data");
  await writeFile(
    entry,
    `export * from "${data}/devices.ts";
     export { accountSyncCounts, refreshAccountSnapshot, refreshSyncSnapshots } from "${data}/sync-snapshots.ts";`,
  );
  await build({
    entryPoints: [entry],
    tsconfig: join(ROOT, "tsconfig.json"),
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "silent",
  });
  return import(pathToFileURL(outfile).href);
}

function migrations() {
  const dir = join(ROOT, "migrations");
  return readdirSync(dir)
    .filter((f) => f.endsWith(".sql"))
    .sort()
    .map((f) => readFileSync(join(dir, f), "utf8"));
}

/** Splits a migration into statements, keeping trigger bodies (BEGIN … END;) whole. */
function statementsOf(sql) {
  const out = [];
  let current = "";
  let inTrigger = false;
  for (const line of sql.split("\n")) {
    const trimmed = line.replace(/--.*$/, "").trim();
    if (!trimmed) continue;
    current += `${line}\n`;
    if (/^CREATE TRIGGER/i.test(trimmed)) inTrigger = true;
    if (inTrigger ? /^END;$/i.test(trimmed) : trimmed.endsWith(";")) {
      out.push(current.trim());
      current = "";
      inTrigger = false;
    }
  }
  return out;
}

async function fleetDb(size, dir) {
  // wrangler's local platform (Miniflare: SQLite in workerd), persisted apart from the app's state.
  const mf = await getPlatformProxy({ configPath: join(ROOT, "wrangler.toml"), persist: { path: join(dir, `state-${size}`) } });
  const db = mf.env.DB;
  for (const sql of migrations()) for (const s of statementsOf(sql)) await db.prepare(s).run();
  await db.batch([
    db.prepare("INSERT INTO organizations (id, name, kind) VALUES ('org_bench', 'Bench', 'customer')"),
    db.prepare("INSERT INTO accounts (id, org_id, name) VALUES ('acc_a', 'org_bench', 'A'), ('acc_b', 'org_bench', 'B')"),
    db.prepare(
      "INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_bench', 'org_bench', 'Bench', 1000000, '2025-01-01')",
    ),
    db.prepare(
      "INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_a', 'sub_bench', 'acc_a', 500000), ('alc_b', 'sub_bench', 'acc_b', 500000)",
    ),
  ]);
  // In chunks of 10,000 (a statement's time is bounded): half in A, a quarter in B, a quarter unassigned.
  for (let from = 0; from < size; from += 10_000) {
    const to = Math.min(size, from + 10_000);
    await db
      .prepare(
        `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to})
         INSERT INTO devices (uid, org_id, account_id, brand, model, name, tags, secret_hash, firmware, last_seen_at)
         SELECT printf('R-%07d', i), 'org_bench', CASE i % 4 WHEN 0 THEN 'acc_b' WHEN 1 THEN NULL ELSE 'acc_a' END, 'Northwind',
           CASE i % 3 WHEN 0 THEN 'XR-7' WHEN 1 THEN 'XR-9' ELSE 'TX-200' END, printf('Radio %d', i),
           CASE WHEN i % 5 = 0 THEN '["night"]' ELSE '[]' END, 'x', CASE WHEN i % 7 = 0 THEN '1.8.2' ELSE '2.4.1' END,
           CASE WHEN i % 10 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', (i * 97) % 20000)) END
         FROM n`,
      )
      .run();
  }
  return { mf, db };
}

/**
 * The database's own time: D1 reports each statement's execution time (meta.duration), which
 * leaves out the local proxy's round trip (hundreds of ms on a loaded machine, the same at
 * every size). A D1 binding that adds up those durations; first() is answered from all().
 */
let dbTime = 0;
function timed(db) {
  const wrap = (statement) => ({
    bind: (...values) => wrap(statement.bind(...values)),
    all: async () => {
      const result = await statement.all();
      dbTime += result.meta?.duration ?? 0;
      return result;
    },
    first: async () => {
      const result = await statement.all();
      dbTime += result.meta?.duration ?? 0;
      return result.results[0] ?? null;
    },
    run: () => statement.run(),
  });
  return { prepare: (sql) => wrap(db.prepare(sql)), batch: (s) => db.batch(s) };
}

/** D1's own figures (meta.rows_read, rows_written, duration) summed over everything `fn` runs. */
async function d1Cost(db, fn) {
  const cost = { statements: 0, rowsRead: 0, rowsWritten: 0, ms: 0 };
  const add = (meta) => {
    cost.statements++;
    cost.rowsRead += meta?.rows_read ?? 0;
    cost.rowsWritten += meta?.rows_written ?? 0;
    cost.ms += meta?.duration ?? 0;
  };
  const wrap = (statement) => ({
    inner: statement,
    bind: (...values) => wrap(statement.bind(...values)),
    all: async () => {
      const result = await statement.all();
      add(result.meta);
      return result;
    },
    first: async () => {
      const result = await statement.all();
      add(result.meta);
      return result.results[0] ?? null;
    },
    run: async () => {
      const result = await statement.run();
      add(result.meta);
      return result;
    },
  });
  await fn({
    prepare: (sql) => wrap(db.prepare(sql)),
    batch: async (list) => {
      const results = await db.batch(list.map((s) => s.inner));
      for (const r of results) add(r.meta);
      return results;
    },
  });
  return cost;
}

async function median(fn) {
  await fn(); // warm: the first call after generating pays for loading pages
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    dbTime = 0;
    await fn();
    times.push(dbTime);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)];
}

export async function measureInventory() {
  const dir = await mkdtemp(join(tmpdir(), "inventory-bench-"));
  const devices = await dataLayer(dir);
  const results = [];
  try {
    for (const size of SIZES) {
      const started = performance.now();
      const { mf, db: raw } = await fleetDb(size, dir);
      const generated = performance.now() - started;
      const db = timed(raw);
      const row = { size, generatedMs: generated };
      // Account A's sync snapshot (made here whatever its size, so that every size reads its counts
      // the same way), counted in D1's own terms: the first refresh writes every radio's state,
      // the next one only what changed (nothing here) and the counts.
      for (const run of ["first", "idle"]) {
        const cost = await d1Cost(raw, (d) => devices.refreshAccountSnapshot(d, "acc_a", new Date()));
        row[`refresh_${run}`] = cost;
      }

      const org = { orgId: "org_bench", brand: "northwind" };
      const middle = `R-${String(Math.floor(size / 2)).padStart(7, "0")}`;
      Object.assign(row, {
        firstPage: await median(() => devices.listDevices(db, org, { limit: 50 })),
        deepPage: await median(() => devices.listDevices(db, org, { limit: 50, after: { value: middle, uid: middle } })),
        byName: await median(() => devices.listDevices(db, org, { sort: "-name", limit: 50 })),
        // A uid or name fragment as people type it: a few matches at any size.
        search: await median(() => devices.listDevices(db, { ...org, search: "0000042" }, { limit: 50 })),
        // Two word prefixes, one of them in a ninth of all names: the word index finds every match, then sorts them (O(matches)).
        broadSearch: await median(() => devices.listDevices(db, { ...org, search: "radio 4" }, { limit: 50 })),
        filterModel: await median(() => devices.listDevices(db, { ...org, model: "XR-9" }, { limit: 50 })),
        filterNever: await median(() => devices.listDevices(db, { ...org, seen: "never", account: "acc_a" }, { limit: 50 })),
        registry: await median(() => devices.listDevices(db, { ...org, scopeAccountId: "acc_a" }, { limit: 50 })),
        // The account's sync × contact counts from its snapshot (the path of every account from
        // 20,000 radios; the threshold is lowered so that every size here takes it).
        counts: await median(() => devices.accountSyncCounts(db, "acc_a")),
      });
      // The export: every radio, a keyset page of 1,000 at a time, through csv-stringify.
      dbTime = 0;
      const exportStart = performance.now();
      let rows = 0;
      let bytes = 0;
      let page = [];
      for await (const device of devices.eachDevice(db, org, 1000)) {
        page.push(device);
        if (page.length === 1000) {
          bytes += stringify(page.map((d) => [d.uid, d.brand, d.model, d.name, d.tags.join(";"), d.accountName ?? ""])).length;
          rows += page.length;
          page = [];
        }
      }
      bytes += stringify(page.map((d) => [d.uid, d.brand, d.model, d.name, d.tags.join(";"), d.accountName ?? ""])).length;
      rows += page.length;
      row.exportWallMs = performance.now() - exportStart;
      row.exportMs = dbTime;
      row.exportRows = rows;
      row.exportBytes = bytes;
      results.push(row);
      await mf.dispose();
    }
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
  return results;
}

const pageKeys = ["firstPage", "deepPage", "byName", "search", "filterModel", "filterNever", "registry", "counts"];
/** Reported, not budgeted: a search matching a share of the fleet costs what its matches do. */
const reportedKeys = ["broadSearch"];

export function inventoryTable(results) {
  const header = ["radios", ...pageKeys, ...reportedKeys, "export db (ms)", "export db µs/radio", "export wall (ms)"];
  const rows = results.map((r) => [
    r.size.toLocaleString("en"),
    ...[...pageKeys, ...reportedKeys].map((k) => r[k].toFixed(2)),
    r.exportMs.toFixed(0),
    ((r.exportMs * 1000) / r.exportRows).toFixed(1),
    r.exportWallMs.toFixed(0),
  ]);
  return { header, rows };
}

/** Budgets: each page within 1.5x from the smallest to the largest fleet; export µs per radio within 1.5x from 10,000 up. */
export function inventoryBudgets(results) {
  const small = results[0];
  const large = results[results.length - 1];
  const checks = pageKeys.map((k) => {
    // D1 reports whole milliseconds or less: a floor of 1 ms on both ends keeps rounding out of the ratio.
    const ratio = Math.max(large[k], 1) / Math.max(small[k], 1);
    return { name: `${k} ${large.size.toLocaleString("en")} / ${small.size}`, ratio, ok: ratio <= 1.5 };
  });
  const linear = results.filter((r) => r.size >= 10_000);
  if (linear.length >= 2) {
    const per = (r) => r.exportMs / r.exportRows;
    const ratio = per(linear[linear.length - 1]) / per(linear[0]);
    checks.push({ name: "export time per radio (largest / 10,000)", ratio, ok: ratio <= 1.5 });
  }
  return checks;
}

/** Prints nothing; returns the text, and writes it to bench/results/inventory.md. */
export async function writeInventoryResults(results) {
  const { header, rows } = inventoryTable(results);
  const lines = [
    "# Inventory benchmark",
    "",
    `${new Date().toISOString()} · \`node bench/inventory.mjs\` · database time per call (D1 meta.duration, whole ms locally), median of ${RUNS} runs.`,
    "",
    `| ${header.join(" | ")} |`,
    `| ${header.map(() => "---").join(" | ")} |`,
    ...rows.map((r) => `| ${r.join(" | ")} |`),
    "",
    ...results.map(
      (r) =>
        `- ${r.size.toLocaleString("en")} radios generated in ${(r.generatedMs / 1000).toFixed(1)} s; export wrote ${r.exportRows} rows, ${r.exportBytes} bytes`,
    ),
    "",
    "## The sync snapshot's refresh (account A: half the radios), in D1's terms",
    "",
    "| radios in A | run | statements | rows read | rows written | D1 time (ms) |",
    "| --- | --- | --- | --- | --- | --- |",
    ...results.flatMap((r) =>
      ["first", "idle"].map((run) => {
        const c = r[`refresh_${run}`];
        return `| ${(r.size / 2).toLocaleString("en")} | ${run} | ${c.statements} | ${c.rowsRead.toLocaleString("en")} | ${c.rowsWritten.toLocaleString("en")} | ${c.ms.toFixed(0)} |`;
      }),
    ),
    "",
    "## Budgets",
    "",
    ...inventoryBudgets(results).map((c) => `- ${c.ok ? "PASS" : "FAIL"} ${c.name}: ${c.ratio.toFixed(2)}x`),
    "",
  ];
  const text = lines.join("\n");
  await writeFile(join(ROOT, "bench/results/inventory.md"), text);
  return text;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? "").href) {
  console.log(await writeInventoryResults(await measureInventory()));
}
