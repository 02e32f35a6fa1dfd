import { env } from "cloudflare:test";
import { expect, inject, it } from "vitest";
import type { R2Bucket } from "@/server/cloudflare";
import { sweepRetention } from "@/server/retention/retention-sweep";
import { createAccount, createUser } from "../../tests/worker/fixtures";
import { giveSeats, registerRadios } from "../../tests/worker/fleet-fixtures";

// D1 bytes per radio per year (issue 24, "storage that never fills"), measured on the real
// schema with its indexes and roll-up triggers, and how many radio-years one 10 GB D1 holds
// with and without the retention sweep. Assumptions for a year of one radio (stated in
// bench/results/storage.md): 24 commands (2 a month, final), 4 activity entries of its own
// plus the account's share of 500 configuration changes a year, one deployment a week with
// one outcome row per radio (52), reported over the deployment's first hour.
const RADIOS = inject("storageRadios");
const YEARS = 2;
const COMMANDS_PER_MONTH = 2;
const OWN_ACTIVITY_PER_YEAR = 4;
const ACCOUNT_ACTIVITY_PER_YEAR = 500;
const DEPLOYMENTS_PER_YEAR = 52;
const GB10 = 10 * 1000 ** 3;

const DAY = 86_400_000;
const NOW = Date.now();

/** D1's own figure for the database file after a statement (meta.size_after). */
async function databaseBytes(): Promise<number> {
  const result = await env.DB.prepare("SELECT 1").run();
  return Number((result.meta as { size_after?: number }).size_after ?? 0);
}

/** Bytes in pages SQLite uses (page_count − freelist_count, × page_size), where D1 allows those pragmas; else null. */
async function usedBytes(): Promise<number | null> {
  try {
    const pragma = async (name: string) => Number(Object.values((await env.DB.prepare(`PRAGMA ${name}`).first()) ?? {})[0]);
    const [pages, free, size] = [await pragma("page_count"), await pragma("freelist_count"), await pragma("page_size")];
    return Number.isFinite(pages * size) ? (pages - (Number.isFinite(free) ? free : 0)) * size : null;
  } catch {
    return null;
  }
}

const iso = (ms: number) => new Date(ms).toISOString();

const start = NOW - YEARS * 365 * DAY;

/** YEARS of weekly deployments with one outcome per radio (the triggers keep the roll-ups as they would live). */
async function generateDeployments(orgId: string, accountId: string, prefix: string): Promise<void> {
  const db = env.DB;
  const plan = JSON.stringify({
    phases: [
      {
        share: 100,
        successPercent: 100,
        successAction: "next",
        errorKind: "count",
        errorValue: 1,
        errorMinimum: 0,
        waitMinutes: 0,
      },
    ],
  });
  const content = JSON.stringify({ network: { account: {}, sites: {}, locations: {} }, profiles: {}, rules: [] });
  const deployments = YEARS * DEPLOYMENTS_PER_YEAR;
  for (let d = 0; d < deployments; d += 1) {
    const at = start + d * 7 * DAY;
    const id = `dep_bench_${d}`;
    await db.batch([
      db
        .prepare("INSERT INTO revisions (id, account_id, number, content_hash, content, created_at) VALUES (?, ?, ?, ?, ?, ?)")
        .bind(`rev_bench_${d}`, accountId, d + 1, `hash-${d}`, content, iso(at)),
      db
        .prepare(
          `INSERT INTO deployments (id, account_id, org_id, number, revision_id, state, plan, switchover, targeted, created_by, created_at, started_at, ended_at, updated_at)
           VALUES (?1, ?2, ?3, ?4, ?5, 'finished', ?6, '{"mode":"delivery"}', ?7, 'bench', ?8, ?8, ?9, ?9)`,
        )
        .bind(id, accountId, orgId, d + 1, `rev_bench_${d}`, plan, RADIOS, iso(at), iso(at + 3_600_000)),
      // One outcome per radio, reported over the first hour (in uid order, as radios answer at random).
      db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
           INSERT INTO deployment_devices (deployment_id, uid, phase, state, code, updated_at)
           SELECT ?2, ?3 || '-' || printf('%06d', i), 0, CASE WHEN i % 50 = 0 THEN 'failed' ELSE 'applied' END,
             CASE WHEN i % 50 = 0 THEN 'E-TIMEOUT' ELSE '' END,
             strftime('%Y-%m-%dT%H:%M:%fZ', ?4 / 1000.0 + i * 3600.0 / ?1, 'unixepoch') FROM n`,
        )
        .bind(RADIOS, id, prefix, at),
    ]);
  }
}

/** YEARS of commands (2 a month per radio) or activity (the radios' own and the account's changes). */
async function generateMonthly(kind: "commands" | "activity", orgId: string, accountId: string, prefix: string): Promise<void> {
  const db = env.DB;
  const months = YEARS * 12;
  for (let m = 0; m < months; m += 1) {
    const at = start + m * 30.4 * DAY;
    const statements = [
      // Each radio's commands of the month (a ping and a locate), delivered and answered.
      db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1 * ?2)
           INSERT INTO commands (id, uid, org_id, account_id, type, state, result, created_by, created_by_email, created_at, expires_at, sent_at, delivered_at, ended_at)
           SELECT 'cmd_' || ?3 || '_' || i, ?4 || '-' || printf('%06d', (i - 1) % ?1 + 1), ?5, ?6,
             CASE WHEN i % 2 = 0 THEN 'ping' ELSE 'locate' END, CASE WHEN i % 40 = 0 THEN 'expired' ELSE 'succeeded' END,
             CASE WHEN i % 40 = 0 THEN NULL ELSE '{"ok":true}' END, 'usr_bench', 'ops@example.com',
             strftime('%Y-%m-%dT%H:%M:%fZ', ?7 / 1000.0 + i * 7.0, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', ?7 / 1000.0 + i * 7.0 + 86400, 'unixepoch'),
             strftime('%Y-%m-%dT%H:%M:%fZ', ?7 / 1000.0 + i * 7.0 + 1, 'unixepoch'), strftime('%Y-%m-%dT%H:%M:%fZ', ?7 / 1000.0 + i * 7.0 + 2, 'unixepoch'),
             strftime('%Y-%m-%dT%H:%M:%fZ', ?7 / 1000.0 + i * 7.0 + 3, 'unixepoch') FROM n`,
        )
        .bind(RADIOS, COMMANDS_PER_MONTH, m, prefix, orgId, accountId, at),
      // The month's activity: the radios' own entries and the account's configuration changes.
      db
        .prepare(
          `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?1)
           INSERT INTO activity_logs (id, org_id, account_id, actor_id, actor_email, action, entity_type, entity_id, entity_label, diff, deployable, deployment_id, created_at)
           SELECT 'act_' || ?2 || '_' || i, ?3, ?4, 'usr_bench', 'ops' || (i % 7) || '@example.com', 'update',
             CASE WHEN i <= ?5 THEN 'device' ELSE 'site' END, 'ent_' || (i % 97), 'Harbour radio ' || (i % 97),
             '{"name":{"before":"Harbour radio","after":"Harbour radio 2"},"tags":{"before":["dock"],"after":["dock","night"]}}',
             CASE WHEN i <= ?5 THEN 0 ELSE 1 END, CASE WHEN i <= ?5 THEN NULL ELSE 'dep_bench_0' END,
             strftime('%Y-%m-%dT%H:%M:%fZ', ?6 / 1000.0 + i * 60.0, 'unixepoch') FROM n`,
        )
        .bind(
          Math.round((RADIOS * OWN_ACTIVITY_PER_YEAR + ACCOUNT_ACTIVITY_PER_YEAR) / 12),
          m,
          orgId,
          accountId,
          Math.round((RADIOS * OWN_ACTIVITY_PER_YEAR) / 12),
          at,
        ),
    ];
    await (kind === "commands" ? statements[0] : statements[1])?.run();
  }
}

/** An R2 bucket in memory: the bench measures D1, not the local R2's disk. */
function memoryBucket(): { bucket: R2Bucket; bytes: () => number } {
  const objects = new Map<string, Uint8Array>();
  const bucket = {
    put: async (key: string, body: Uint8Array) => {
      objects.set(key, body);
      return {};
    },
    get: async (key: string) => {
      const body = objects.get(key);
      return body ? { arrayBuffer: async () => body.slice().buffer, size: body.byteLength } : null;
    },
  } as unknown as R2Bucket;
  return { bucket, bytes: () => [...objects.values()].reduce((sum, body) => sum + body.byteLength, 0) };
}

const mb = (bytes: number) => `${(bytes / 1e6).toFixed(1)} MB`;
const fmt = (n: number) => Math.round(n).toLocaleString("en");

it(`D1 bytes per radio per year, and radio-years in 10 GB (${RADIOS} radios, ${YEARS} years)`, async () => {
  const owner = await createUser({ role: "owner" });
  const accountId = await createAccount(owner.orgId, "Storage bench", "advanced");
  await giveSeats(owner.orgId, accountId, RADIOS);
  const fileEmpty = await databaseBytes();
  await registerRadios(owner.orgId, accountId, "STO", RADIOS);
  const fileRadios = await databaseBytes();

  let started = Date.now();
  const sizes: Record<string, number> = {};
  /** Runs one kind's generation and records how much the file grew. */
  const measured = async (kind: string, generate: () => Promise<void>) => {
    const from = await databaseBytes();
    await generate();
    sizes[kind] = (await databaseBytes()) - from;
  };
  await measured("deployment outcomes (with deployments, revisions, report_deployment_counts, reach_upto)", () =>
    generateDeployments(owner.orgId, accountId, "STO"),
  );
  await measured("commands (with report_command_counts)", () => generateMonthly("commands", owner.orgId, accountId, "STO"));
  await measured("activity (with report_activity_*)", () => generateMonthly("activity", owner.orgId, accountId, "STO"));
  const generateMs = Date.now() - started;
  const fileHistory = await databaseBytes();

  // The retention sweep until nothing is left (13 months: 11 of the 24 months move).
  const { bucket, bytes: archivedBytes } = memoryBucket();
  started = Date.now();
  let runs = 0;
  let moved = 0;
  let archives = 0;
  const runMs: number[] = [];
  for (;;) {
    const at = new Date(NOW + runs * 2 * 3_600_000);
    const t0 = Date.now();
    const run = await sweepRetention(env.DB, bucket, at);
    runMs.push(Date.now() - t0);
    runs += 1;
    moved += run.rows;
    archives += run.archives;
    expect(run.failures).toBe(0);
    if (run.archives === 0) break;
  }
  const sweepMs = Date.now() - started;
  const fileKept = await databaseBytes();
  const usedKept = await usedBytes();

  const radioBytes = (fileRadios - fileEmpty) / RADIOS;
  const perRadioYear = (fileHistory - fileRadios) / RADIOS / YEARS;
  const keptPerRadio = (fileKept - fileRadios) / RADIOS;
  const lines = [
    `radios: ${fmt(RADIOS)}, history: ${YEARS} years, generated in ${fmt(generateMs)} ms (D1 file size: meta.size_after; dbstat is not available in D1)`,
    `D1 file: empty ${mb(fileEmpty)}, with radios ${mb(fileRadios)} (${fmt(radioBytes)} B per radio), with ${YEARS} years of history ${mb(fileHistory)}, after the sweep ${mb(fileKept)}`,
    ...Object.entries(sizes).map(([kind, bytes]) => `  ${kind}: ${mb(bytes)}, ${fmt(bytes / RADIOS / YEARS)} B per radio-year`),
    `D1 bytes per radio per year of history, without retention: ${fmt(perRadioYear)} B`,
    `radio-years of history one 10 GB D1 holds without retention: ${fmt(GB10 / perRadioYear)} (e.g. ${fmt(GB10 / (perRadioYear * 5 + radioBytes))} radios kept 5 years)`,
    `with 13 months' retention, D1 bytes per radio after the sweep (13 months of history + what never moves: roll-ups, deployments, revisions): ${fmt(keptPerRadio)} B`,
    `pages in use after the sweep (page_count − freelist_count): ${usedKept === null ? "not available" : `${mb(usedKept)}, ${fmt((usedKept - fileRadios) / RADIOS)} B per radio`}`,
    `radios one 10 GB D1 holds with 13 months' retention, for as many years as they run: ${fmt(GB10 / (radioBytes + keptPerRadio))} (radio row ${fmt(radioBytes)} B + ${fmt(keptPerRadio)} B)`,
  ];
  lines.push(
    `sweep: ${fmt(runs)} runs, ${fmt(archives)} archives, ${fmt(moved)} rows moved, ${mb(archivedBytes())} of gzip NDJSON in R2 (${fmt(archivedBytes() / Math.max(1, moved))} B per row), ${fmt(sweepMs)} ms in all, slowest run ${fmt(Math.max(...runMs))} ms`,
  );
  console.log(lines.join("\n"));
  expect(moved).toBeGreaterThan(0);
});
