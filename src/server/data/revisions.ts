import type { RevisionContent } from "@/schema/fleet/desired-config";
import { readConditions } from "@/schema/rules";
import type { D1PreparedStatement } from "../cloudflare";
import { type Db, first, statement } from "./db";

/**
 * Revisions (DESIGN.md §7): an account's configuration frozen at confirm time. Immutable, so
 * a parsed revision is kept in memory by id: the device protocol's 200 path reads it once per
 * isolate, not once per radio.
 */
export type Revision = { id: string; accountId: string; number: number; contentHash: string; createdAt: string };

type Row = { id: string; account_id: string; number: number; content_hash: string; created_at: string };

const toRevision = (row: Row): Revision => ({
  id: row.id,
  accountId: row.account_id,
  number: row.number,
  contentHash: row.content_hash,
  createdAt: row.created_at,
});

function parseObject(json: string | null): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(json ?? "{}");
    return value && typeof value === "object" && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/**
 * The account's configuration now: network config of every level, its profiles and rules,
 * read in one round trip. Sorted so equal configurations give equal JSON (and hashes).
 */
export async function snapshotAccountConfig(db: Db, accountId: string): Promise<RevisionContent> {
  const [account, sites, locations, profiles, rules, links] = await db.batch([
    statement(db, "SELECT network_config FROM accounts WHERE id = ?", accountId),
    statement(db, "SELECT id, network_config FROM sites WHERE account_id = ? ORDER BY id", accountId),
    statement(db, "SELECT id, network_config FROM locations WHERE account_id = ? ORDER BY id", accountId),
    statement(db, "SELECT id, type, name, settings FROM profiles WHERE account_id = ? ORDER BY id", accountId),
    statement(db, "SELECT id, name, enabled, conditions FROM rules WHERE account_id = ? ORDER BY priority", accountId),
    statement(
      db,
      `SELECT rp.rule_id, rp.profile_id FROM rule_profiles rp JOIN rules r ON r.id = rp.rule_id
       WHERE r.account_id = ? ORDER BY rp.rule_id, rp.position`,
      accountId,
    ),
  ]);
  const rowsOf = <T>(result: { results?: unknown[] } | undefined) => (result?.results ?? []) as T[];
  const byRule = new Map<string, string[]>();
  for (const link of rowsOf<{ rule_id: string; profile_id: string }>(links)) {
    byRule.set(link.rule_id, [...(byRule.get(link.rule_id) ?? []), link.profile_id]);
  }
  const levelMap = (rows: { id: string; network_config: string }[]) =>
    Object.fromEntries(rows.map((row) => [row.id, parseObject(row.network_config)]));
  return {
    network: {
      account: parseObject(rowsOf<{ network_config: string }>(account)[0]?.network_config ?? "{}"),
      sites: levelMap(rowsOf(sites)),
      locations: levelMap(rowsOf(locations)),
    },
    profiles: Object.fromEntries(
      rowsOf<{ id: string; type: string; name: string; settings: string }>(profiles).map((p) => [
        p.id,
        { type: p.type, name: p.name, settings: parseObject(p.settings) },
      ]),
    ),
    rules: rowsOf<{ id: string; name: string; enabled: number; conditions: string }>(rules).map((r) => ({
      id: r.id,
      name: r.name,
      enabled: r.enabled === 1,
      conditions: readConditions(r.conditions),
      profileIds: byRule.get(r.id) ?? [],
    })),
  };
}

export async function contentHashOf(content: RevisionContent): Promise<string> {
  const bytes = new TextEncoder().encode(JSON.stringify(content));
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

/** The newest revision of the account with this content, if any (a deploy of unchanged config reuses it). */
export async function findRevisionByHash(db: Db, accountId: string, hash: string): Promise<Revision | null> {
  const row = await first<Row>(
    db,
    "SELECT id, account_id, number, content_hash, created_at FROM revisions WHERE account_id = ? AND content_hash = ? ORDER BY number DESC LIMIT 1",
    accountId,
    hash,
  );
  return row ? toRevision(row) : null;
}

export async function findRevision(db: Db, id: string): Promise<Revision | null> {
  const row = await first<Row>(db, "SELECT id, account_id, number, content_hash, created_at FROM revisions WHERE id = ?", id);
  return row ? toRevision(row) : null;
}

/** A new revision, numbered after the account's last one. */
export function insertRevisionStatement(
  db: Db,
  input: { id: string; accountId: string; content: RevisionContent; contentHash: string; createdAt: string },
): D1PreparedStatement {
  return statement(
    db,
    `INSERT INTO revisions (id, account_id, number, content_hash, content, created_at)
     SELECT ?, ?, COALESCE(MAX(number), 0) + 1, ?, ?, ? FROM revisions WHERE account_id = ?`,
    input.id,
    input.accountId,
    input.contentHash,
    JSON.stringify(input.content),
    input.createdAt,
    input.accountId,
  );
}

const contents = new Map<string, RevisionContent>();
const CONTENTS_KEPT = 200;

/** A revision's frozen content; immutable, so cached per isolate. */
export async function revisionContent(db: Db, id: string): Promise<RevisionContent | null> {
  const cached = contents.get(id);
  if (cached) return cached;
  const row = await first<{ content: string }>(db, "SELECT content FROM revisions WHERE id = ?", id);
  if (!row) return null;
  const content = JSON.parse(row.content) as RevisionContent;
  if (contents.size >= CONTENTS_KEPT) contents.delete(contents.keys().next().value as string);
  contents.set(id, content);
  return content;
}
