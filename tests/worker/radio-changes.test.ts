import { env } from "cloudflare:test";
import { describe, expect, it } from "vitest";
import type { D1Database } from "@/server/cloudflare";
import { radioChangesSql, trimRadioChangesStatement } from "@/server/data/radio-changes";
import { RadioChangeLog } from "@/server/fleet/radio-change-log";

// The per-radio change log (migration 0031) and what a reader makes of it: the trim keeps the
// newest rows (never none), and a reader that fell behind the trim knows it knows nothing.

const db = env.DB as unknown as D1Database;

async function read(log: RadioChangeLog): Promise<void> {
  const { results } = await db.prepare(radioChangesSql("?1", log.cold)).bind(log.after).all<{ uid: string; seq: number }>();
  log.absorb(results);
}

async function addChanges(prefix: string, count: number): Promise<number> {
  await db
    .prepare(
      `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ?)
       INSERT INTO radio_changes (uid) SELECT ? || i FROM n`,
    )
    .bind(count, prefix)
    .run();
  const row = await db.prepare("SELECT max(seq) AS seq FROM radio_changes").first<{ seq: number }>();
  return row?.seq ?? 0;
}

describe("the radio-change log", () => {
  it("tells a reader which radios changed after a seq, and nothing about radios that did not", async () => {
    const log = new RadioChangeLog();
    const start = await addChanges("LOG-A-", 3);
    // Before any read nothing is known: every answer is suspect.
    expect(log.changedSince("LOG-A-1", start)).toBe(true);
    await read(log);
    expect(log.changedSince("LOG-A-1", start)).toBe(false);
    expect(log.changedSince("LOG-QUIET", start)).toBe(false);
    const after = await addChanges("LOG-A-", 1);
    await read(log);
    expect(log.changedSince("LOG-A-1", start)).toBe(true);
    expect(log.changedSince("LOG-A-1", after)).toBe(false);
    expect(log.changedSince("LOG-A-2", start)).toBe(false);
  });

  it("trims to the newest rows, never the last one, and a reader left behind starts again", async () => {
    const log = new RadioChangeLog();
    await read(log);
    const seqBefore = log.after;
    const newest = await addChanges("LOG-B-", 30);
    await trimRadioChangesStatement(db, 10).run();
    const left = await db
      .prepare("SELECT min(seq) AS low, max(seq) AS high FROM radio_changes")
      .first<{ low: number; high: number }>();
    expect(left).toEqual({ low: newest - 10, high: newest });
    await trimRadioChangesStatement(db, 0).run();
    expect(await db.prepare("SELECT count(*) AS n FROM radio_changes").first()).toEqual({ n: 1 });
    // An answer computed before the trimmed rows can no longer be vouched for.
    const cold = new RadioChangeLog();
    await read(cold);
    expect(cold.changedSince("LOG-QUIET", seqBefore)).toBe(true);
    expect(cold.changedSince("LOG-QUIET", newest)).toBe(false);
  });
});
