// `npm run bench:million` (issue 24): one account of 1,000,000 radios against one of 100,000 in
// the same database: the inventory (list, deep page, sort, search, filters by model, never seen,
// sync and contact state), the drift counts (home, registry strip, API), the eight account
// reports (16 cases) and the refresh of the sync snapshots that keep counts flat
// (src/server/data/sync-snapshots.ts). Generated locally in memory (node:sqlite, the app's
// migrations; radios inserted before migration 0023 so its backfill builds the running totals as
// production got them); each account: 20 sites, two finished deployments reaching three radios in
// four, a few failed, rejected and foreign revisions, ONE command and ONE activity entry per radio
// (reports-scale.mjs has ten of each at 100,000: generating ten million here would take an hour).
// "before" is the data layer at BENCH_MILLION_BEFORE (634c0df, main when issue 24 started), run on
// the same database; "after" is this tree. Budget: 1,000,000 within 1.5x of 100,000, with a floor
// of 1 ms on both ends (sub-millisecond noise). Knobs: BENCH_MILLION_RUNS (5),
// BENCH_MILLION_SIZES ("100000,1000000"; e.g. "1000,10000" for a quick try, results not written).
import { execFileSync } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DatabaseSync } from "node:sqlite";
import { fileURLToPath, pathToFileURL } from "node:url";
import { build } from "esbuild";
import { cases, d1 } from "./reports-scale.mjs";

/** migration 0043's "in contact" value of last_seen_at (src/server/data/radio-contact.ts). */
const IN_CONTACT = "9999-12-31T23:59:59.999Z";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const RUNS = Number(process.env.BENCH_MILLION_RUNS ?? 5);
const BEFORE = process.env.BENCH_MILLION_BEFORE ?? "634c0df";
const SIZES = (process.env.BENCH_MILLION_SIZES ?? "100000,1000000").split(",").map(Number);
const [SMALL, LARGE] = SIZES;
const CHUNK = 50_000;

/** The data layer (and the reports) of the tree at `root`, bundled into one module. */
async function dataLayer(dir, root, tsconfig, name, withSnapshots) {
  const entry = join(dir, `${name}-entry.ts`);
  const data = join(root, "src/server/data");
  await writeFile(
    entry,
    [
      `export { listDevices } from "${data}/devices.ts";`,
      `export { syncSql, syncCounts } from "${data}/fleet-sync.ts";`,
      withSnapshots
        ? `export { accountSyncCounts, refreshAccountSnapshot, refreshSyncSnapshots } from "${data}/sync-snapshots.ts";
           export { sweepContacts } from "${data}/radio-contact.ts";`
        : "",
      ...["inventory", "firmware", "compliance", "deployments", "commands", "last-seen", "seats", "activity"].map(
        (m) => `export * from "${data}/reports/${m}.ts";`,
      ),
    ].join("\n"),
  );
  const outfile = join(dir, `${name}.mjs`);
  await build({
    entryPoints: [entry],
    bundle: true,
    format: "esm",
    platform: "neutral",
    outfile,
    logLevel: "silent",
    tsconfig,
    nodePaths: [join(ROOT, "node_modules")],
  });
  return import(pathToFileURL(outfile).href);
}

/** The tree at `ref` (src only) extracted under dir, with a tsconfig that maps @/ into it. */
async function treeAt(dir, ref) {
  const root = join(dir, "before");
  await mkdir(root, { recursive: true });
  execFileSync("sh", ["-c", `git archive ${ref} src | tar -x -C '${root}'`], { cwd: ROOT });
  const tsconfig = join(root, "tsconfig.json");
  await writeFile(tsconfig, JSON.stringify({ compilerOptions: { baseUrl: ".", paths: { "@/*": ["./src/*"] } } }));
  return { root, tsconfig };
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

function chunks(total, fn) {
  for (let from = 0; from < total; from += CHUNK) fn(from, Math.min(total, from + CHUNK));
}

function account(sqlite, id, prefix, radios) {
  const sites = Array.from({ length: 20 }, (_, i) => `('${id}_site_${i}', '${id}', 'Site ${i}')`).join(", ");
  sqlite.exec(`
    INSERT INTO accounts (id, org_id, name, subscription_level) VALUES ('${id}', 'org_bench', '${id}', 'advanced');
    INSERT INTO allocations (id, subscription_id, account_id, quantity) VALUES ('alc_${id}', 'sub_${id}', '${id}', ${radios});
    INSERT INTO sites (id, account_id, name) VALUES ${sites};
    INSERT INTO revisions (id, account_id, number, content_hash, content) VALUES ('rev_${id}_1', '${id}', 1, 'h1', '{}'), ('rev_${id}_2', '${id}', 2, 'h2', '{}');`);
  chunks(radios, (from, to) =>
    sqlite.exec(`WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to})
    INSERT INTO devices (uid, org_id, account_id, site_id, brand, model, name, tags, secret_hash, firmware, last_seen_at, reported_revision)
    SELECT printf('${prefix}-%07d', i), 'org_bench', '${id}', '${id}_site_' || (i % 20), 'Northwind',
      CASE i % 3 WHEN 0 THEN 'XR-7' WHEN 1 THEN 'XR-9' ELSE 'TX-200' END, printf('Radio %d', i),
      CASE WHEN i % 5 = 0 THEN '["night"]' ELSE '[]' END, 'x', CASE WHEN i % 7 = 0 THEN '1.8.2' ELSE '2.4.1' END,
      CASE WHEN i % 10 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', (i * 97) % 600)) END,
      CASE WHEN i % 4 = 0 THEN NULL WHEN i % 101 = 0 THEN 'rev_elsewhere' WHEN i % 3 = 0 THEN 'rev_${id}_1' ELSE 'rev_${id}_2' END
    FROM n`),
  );
  for (const d of [1, 2]) {
    sqlite.exec(`
      INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at)
      VALUES ('dep_${id}_${d}', '${id}', 'org_bench', ${d}, 'rev_${id}_${d}', 'finished', '${plan}', '{"mode":"delivery"}', ${radios}, 'bench',
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${3 - d} days'), strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${3 - d} days'));`);
    chunks(radios, (from, to) =>
      sqlite.exec(`WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to})
      INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at)
      SELECT 'dep_${id}_${d}', printf('${prefix}-%07d', i), 0,
        CASE WHEN i % 50 = 0 THEN 'failed' WHEN i % 97 = 0 THEN 'rejected' WHEN i % 13 = 0 THEN 'delivered' ELSE 'applied' END,
        CASE WHEN i % 50 = 0 THEN 'E1' ELSE '' END, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-${3 - d} days', printf('+%d seconds', (i * 31) % 7200))
      FROM n WHERE i % 4 <> 0`),
    );
  }
  // One command and one change per radio, over the last year.
  const spread = (from, to) => `WITH RECURSIVE n(i) AS (SELECT ${from} UNION ALL SELECT i + 1 FROM n WHERE i + 1 < ${to}),
      t AS (SELECT i, strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', (i * 7919) % 525600)) AS at FROM n)`;
  chunks(radios, (from, to) =>
    sqlite.exec(`${spread(from, to)}
      INSERT INTO commands (id, uid, org_id, account_id, type, state, created_by, created_by_email, created_at, expires_at, delivered_at)
      SELECT printf('cmd_${prefix}_%08d', i), printf('${prefix}-%07d', i), 'org_bench', '${id}',
        CASE i % 5 WHEN 0 THEN 'ping' WHEN 1 THEN 'locate' WHEN 2 THEN 'message' WHEN 3 THEN 'reboot' ELSE 'sync' END,
        CASE WHEN i % 9 = 0 THEN 'failed' WHEN i % 17 = 0 THEN 'expired' WHEN i % 23 = 0 THEN 'cancelled' WHEN i % 29 = 0 THEN 'queued' ELSE 'succeeded' END,
        'usr', 'bench@example.com', at, strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 day'),
        CASE WHEN i % 17 = 0 OR i % 29 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', at, printf('+%d seconds', i % 300)) END
      FROM t`),
  );
  chunks(radios, (from, to) =>
    sqlite.exec(`${spread(from, to)}
      INSERT INTO activity_logs (id, org_id, account_id, actor_email, action, entity_type, entity_id, created_at)
      SELECT printf('act_${prefix}_%08d', i), 'org_bench', '${id}', printf('person%02d@example.com', i % 40),
        CASE i % 3 WHEN 0 THEN 'create' WHEN 1 THEN 'update' ELSE 'delete' END,
        CASE i % 6 WHEN 0 THEN 'site' WHEN 1 THEN 'location' WHEN 2 THEN 'profile' WHEN 3 THEN 'rule' WHEN 4 THEN 'network-config' ELSE 'command' END,
        printf('x%d', i), at
      FROM t`),
  );
}

/** The time spent in SQLite by `fn`, median of RUNS after a warm-up. */
let dbTime = 0;
function timedDb(sqlite) {
  const inner = d1(sqlite);
  const wrap = (s) => ({
    ...s,
    bind: (...v) => wrap(s.bind(...v)),
    all: () => measure(() => s.all()),
    first: () => measure(() => s.first()),
    run: () => measure(() => s.run()),
  });
  const measure = async (fn) => {
    const start = performance.now();
    try {
      return await fn();
    } finally {
      dbTime += performance.now() - start;
    }
  };
  return { prepare: (sql) => wrap(inner.prepare(sql)), batch: (list) => measure(() => inner.batch(list)) };
}

async function median(fn, runs = RUNS) {
  await fn();
  const times = [];
  for (let i = 0; i < runs; i++) {
    dbTime = 0;
    await fn();
    times.push(dbTime);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)];
}

function inventoryCases(layer, id, size) {
  const org = { orgId: "org_bench", brand: "northwind", scopeAccountId: id };
  const prefix = id === "acc_small" ? "SML" : "LRG";
  const middle = `${prefix}-${String(Math.floor(size / 2)).padStart(7, "0")}`;
  const states = (db) => layer.syncSql(db, id, "d");
  const list =
    (filter, page = {}) =>
    (db) =>
      layer.listDevices(db, { ...org, ...filter }, { limit: 50, ...page });
  return {
    "inventory: first page": list({}),
    "inventory: deep page": list({}, { after: { value: middle, uid: middle } }),
    "inventory: sorted by name": list({}, { sort: "-name" }),
    "inventory: search (uid fragment)": list({ search: "0000042" }),
    "inventory: filter model": list({ model: "XR-9" }),
    "inventory: filter never seen": list({ seen: "never" }),
    "inventory: filter seen within a day": list({ seen: "day" }),
    "inventory: sorted by last seen": list({}, { sort: "-seen" }),
    "inventory: filter contact overdue": list({ contact: "overdue" }),
    "inventory: filter sync failed": async (db) => list({ sync: "failed", states: await states(db) })(db),
    "inventory: filter sync inSync": async (db) => list({ sync: "inSync", states: await states(db) })(db),
    "inventory: filter sync drifted": async (db) => list({ sync: "drifted", states: await states(db) })(db),
    // A state no radio is in (every radio is covered by a finished deployment): the list reads them all.
    "inventory: filter sync neverDeployed (empty)": async (db) => list({ sync: "neverDeployed", states: await states(db) })(db),
  };
}

const ratioOf = (large, small) => Math.max(large, 1) / Math.max(small, 1);

const dir = await mkdtemp(join(tmpdir(), "million-bench-"));
try {
  const after = await dataLayer(dir, ROOT, join(ROOT, "tsconfig.json"), "after", true);
  const old = await treeAt(dir, BEFORE);
  const before = await dataLayer(dir, old.root, old.tsconfig, "before", false);

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
    INSERT INTO subscriptions (id, org_id, plan, quantity, starts_at) VALUES ('sub_acc_small', 'org_bench', 'Bench', 1000000, '2025-01-01'),
      ('sub_acc_large', 'org_bench', 'Bench', 1000000, '2025-01-01');`);
  account(sqlite, "acc_small", "SML", SMALL);
  account(sqlite, "acc_large", "LRG", LARGE);
  apply(files.slice(at));
  // As production holds them since migration 0043: radios heard within the hour "in contact"
  // (last_seen_at the marker, the time in contact_at), the others their real last contact.
  sqlite.exec(`UPDATE devices SET contact_at = last_seen_at, last_seen_at = '${IN_CONTACT}'
    WHERE last_seen_at >= strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '-1 hour')`);
  sqlite.exec("ANALYZE");
  const generated = (performance.now() - started) / 1000;
  const db = timedDb(sqlite);
  const label = (n) => n.toLocaleString("en");
  console.log(`generated ${label(SMALL)} + ${label(LARGE)} radios in ${generated.toFixed(0)} s; median of ${RUNS} runs`);

  // The scheduled trigger's refresh: once for both accounts (the first makes the snapshots), then
  // each account's own batch (refreshAccountSnapshot) timed, and the rows a refresh writes.
  const changes = () => sqlite.prepare("SELECT total_changes() AS n").get().n;
  let c0 = changes();
  dbTime = 0;
  const made = await after.refreshSyncSnapshots(db, new Date(), { fromRadios: Math.min(SMALL, LARGE) });
  console.log(`first refresh: ${made.accounts} snapshots, ${dbTime.toFixed(0)} ms in SQLite, ${changes() - c0} rows written`);
  const refresh = {
    acc_small: await median(() => after.refreshAccountSnapshot(db, "acc_small", new Date()), 3),
    acc_large: await median(() => after.refreshAccountSnapshot(db, "acc_large", new Date()), 3),
  };
  c0 = changes();
  await after.refreshAccountSnapshot(db, "acc_small", new Date());
  refresh.writtenSmall = changes() - c0;
  c0 = changes();
  await after.refreshAccountSnapshot(db, "acc_large", new Date());
  refresh.writtenLarge = changes() - c0;
  // A run of the scheduled trigger when no snapshot is due: which accounts are large, read from
  // the place totals (one row per site of every account), and nothing else.
  const idle = new Date();
  await after.refreshSyncSnapshots(db, idle, { fromRadios: Math.min(SMALL, LARGE) });
  refresh.discovery = await median(async () => {
    const run = await after.refreshSyncSnapshots(db, idle, { fromRadios: Math.min(SMALL, LARGE) });
    if (run.refreshed) throw new Error("a snapshot was due");
  });
  console.log(
    `refresh per account: ${refresh.acc_small.toFixed(0)} ms (${refresh.writtenSmall} rows written) / ${refresh.acc_large.toFixed(0)} ms (${refresh.writtenLarge} rows written); a run with none due ${refresh.discovery.toFixed(2)} ms`,
  );

  // The contact sweep (migration 0043): one scheduled run, a slice of the radios in contact, none quiet.
  const inContact = sqlite.prepare(`SELECT count(*) AS n FROM devices WHERE last_seen_at = '${IN_CONTACT}'`).get().n;
  const sweep = await median(async () => {
    sqlite.exec("UPDATE contact_sweep SET from_uid = '', upto_uid = ''");
    await after.sweepContacts(db, new Date());
  });
  console.log(
    `contact sweep: one run (a slice of 25,000 of ${label(inContact)} radios in contact) ${sweep.toFixed(1)} ms in SQLite`,
  );

  const rows = [];
  const row = async (name, run, runBefore) => {
    const r = {
      name,
      beforeSmall: runBefore ? await median(() => runBefore(db, "acc_small")) : undefined,
      beforeLarge: runBefore ? await median(() => runBefore(db, "acc_large")) : undefined,
      small: await median(() => run(db, "acc_small")),
      large: await median(() => run(db, "acc_large")),
    };
    rows.push(r);
    const f = (x) => (x === undefined ? "–" : x.toFixed(2));
    console.log(
      `${name}: before ${f(r.beforeSmall)} / ${f(r.beforeLarge)} ms; after ${f(r.small)} / ${f(r.large)} ms (${ratioOf(r.large, r.small).toFixed(2)}x)`,
    );
  };
  const inventory = (layer) => ({
    acc_small: inventoryCases(layer, "acc_small", SMALL),
    acc_large: inventoryCases(layer, "acc_large", LARGE),
  });
  const [invAfter, invBefore] = [inventory(after), inventory(before)];
  for (const name of Object.keys(invAfter.acc_small)) {
    await row(
      name,
      (d, id) => invAfter[id][name](d),
      (d, id) => invBefore[id][name](d),
    );
  }
  await row(
    "drift counts (home, registry, API)",
    (d, id) => after.accountSyncCounts(d, id),
    (d, id) => before.syncCounts(d, id),
  );
  const reportsAfter = cases(after);
  const reportsBefore = cases(before);
  for (const name of Object.keys(reportsAfter)) {
    await row(`report: ${name}`, reportsAfter[name], reportsBefore[name]);
  }

  const f = (x) => (x === undefined ? "–" : x.toFixed(2));
  const ratio = (a, b) => (a === undefined ? "–" : `${ratioOf(a, b).toFixed(2)}x`);
  const table = [
    `| measure | before: ${label(SMALL)} (ms) | before: ${label(LARGE)} (ms) | before ratio | after: ${label(SMALL)} (ms) | after: ${label(LARGE)} (ms) | after ratio | budget |`,
    "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ...rows.map((r) => {
      const ok = ratioOf(r.large, r.small) <= 1.5;
      return `| ${r.name} | ${f(r.beforeSmall)} | ${f(r.beforeLarge)} | ${ratio(r.beforeLarge, r.beforeSmall)} | ${f(r.small)} | ${f(r.large)} | ${ratio(r.large, r.small)} | ${ok ? "PASS" : "FAIL"} |`;
    }),
  ];
  const refreshLines = [
    `| snapshot refresh (scheduled trigger, per account) | ${label(SMALL)} radios | ${label(LARGE)} radios |`,
    "| --- | --- | --- |",
    `| time in SQLite, median (ms) | ${refresh.acc_small.toFixed(0)} | ${refresh.acc_large.toFixed(0)} |`,
    `| rows written (changes, incl. the old groups deleted) | ${refresh.writtenSmall} | ${refresh.writtenLarge} |`,
    `| a scheduled run with no snapshot due (finding the large accounts) | ${refresh.discovery.toFixed(2)} ms | |`,
    "",
    `Contact sweep (migration 0043), one scheduled run: a slice of 25,000 of the ${label(inContact)} radios in contact, ${sweep.toFixed(1)} ms in SQLite.`,
  ];
  console.log([...table, "", ...refreshLines].join("\n"));
  const failed = rows.filter((r) => ratioOf(r.large, r.small) > 1.5);
  console.log(failed.length ? `FAIL: ${failed.map((r) => r.name).join(", ")}` : "PASS: every measure within 1.5x");
  if (SMALL === 100_000 && LARGE === 1_000_000) {
    await writeFile(
      join(ROOT, "bench/results/million-raw.md"),
      [
        `${new Date().toISOString()} · \`npm run bench:million\` · generated in ${generated.toFixed(0)} s · median of ${RUNS} runs · before = ${BEFORE}`,
        "",
        ...table,
        "",
        ...refreshLines,
        "",
      ].join("\n"),
    );
  }
} finally {
  await rm(dir, { recursive: true, force: true });
}
