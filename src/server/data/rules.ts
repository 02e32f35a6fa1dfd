import type { ProfileType } from "@/schema/profiles";
import { type RuleConditions, readConditions } from "@/schema/rules";
import { all, type Bindable, type Db, first, newId, now, statement } from "./db";

/**
 * Rules (DESIGN.md §3): an account's rules in a dense priority order (1 applies first), each
 * with conditions and the profiles it assigns in order. Priorities change only together with
 * the account's rule-set version (rule_sets), which a reorder must name: a stale one changes
 * nothing. Reorders pass rows through negative priorities so the unique index holds after
 * every statement.
 */
export type AssignedProfile = { id: string; name: string; type: ProfileType };

export type Rule = {
  id: string;
  accountId: string;
  name: string;
  priority: number;
  enabled: boolean;
  conditions: RuleConditions;
  profiles: AssignedProfile[];
  createdAt: string;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  account_id: string;
  name: string;
  priority: number;
  enabled: number;
  conditions: string;
  created_at: string;
  updated_at: string;
  version: number;
};

const columns = "id, account_id, name, priority, enabled, conditions, created_at, updated_at, version";

/** The account's rule-set version as SQL (1 before its first rule), for guards. */
const setVersion = "COALESCE((SELECT version FROM rule_sets WHERE account_id = ?), 1)";

async function withProfiles(db: Db, rows: Row[]): Promise<Rule[]> {
  if (rows.length === 0) return [];
  const assigned = await all<{ rule_id: string; id: string; name: string; type: ProfileType }>(
    db,
    `SELECT rp.rule_id, p.id, p.name, p.type FROM rule_profiles rp JOIN profiles p ON p.id = rp.profile_id
     WHERE rp.rule_id IN (SELECT value FROM json_each(?)) ORDER BY rp.rule_id, rp.position`,
    JSON.stringify(rows.map((row) => row.id)),
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    name: row.name,
    priority: row.priority,
    enabled: row.enabled === 1,
    conditions: readConditions(row.conditions),
    profiles: assigned.filter((a) => a.rule_id === row.id).map(({ id, name, type }) => ({ id, name, type })),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  }));
}

export async function findRule(db: Db, id: string): Promise<Rule | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM rules WHERE id = ?`, id);
  return row ? ((await withProfiles(db, [row]))[0] ?? null) : null;
}

/**
 * One page of an account's rules in priority order, the total, and the rule-set version.
 * Priorities are dense (1…n), so page p is the index range of priorities after
 * (p − 1) × limit, and the total is the highest priority: two seeks into
 * rules_account_priority, however many rules there are, and no OFFSET or count (DESIGN.md §8).
 */
export async function listRules(
  db: Db,
  { accountId, limit = 25, page = 1 }: { accountId: string; limit?: number; page?: number },
): Promise<{ items: Rule[]; total: number; setVersion: number }> {
  const [rows, count] = await db.batch<Row | { total: number; set_version: number }>([
    statement(
      db,
      `SELECT ${columns} FROM rules WHERE account_id = ? AND priority > ? ORDER BY priority LIMIT ?`,
      accountId,
      (page - 1) * limit,
      limit,
    ),
    statement(
      db,
      `SELECT (SELECT priority FROM rules WHERE account_id = ? ORDER BY priority DESC LIMIT 1) AS total, ${setVersion} AS set_version`,
      accountId,
      accountId,
    ),
  ]);
  const counted = count?.results[0] as { total: number | null; set_version: number } | undefined;
  return {
    items: await withProfiles(db, (rows?.results ?? []) as Row[]),
    total: Math.max(0, counted?.total ?? 0),
    setVersion: counted?.set_version ?? 1,
  };
}

/** Every rule of the account in priority order (ids and names), with the rule-set version. */
export async function ruleOrder(
  db: Db,
  accountId: string,
): Promise<{ rules: { id: string; name: string }[]; setVersion: number }> {
  const [rules, set] = await Promise.all([
    all<{ id: string; name: string }>(db, "SELECT id, name FROM rules WHERE account_id = ? ORDER BY priority", accountId),
    first<{ v: number }>(db, `SELECT ${setVersion} AS v`, accountId),
  ]);
  return { rules, setVersion: set?.v ?? 1 };
}

export async function countRules(db: Db, accountId: string): Promise<number> {
  return (await first<{ n: number }>(db, "SELECT count(*) AS n FROM rules WHERE account_id = ?", accountId))?.n ?? 0;
}

/** Whether another rule of the account has this name, compared without case. */
export async function ruleNameTaken(db: Db, accountId: string, name: string, exceptId: string | null = null) {
  const row = await first<{ found: number }>(
    db,
    "SELECT 1 AS found FROM rules WHERE account_id = ? AND name = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1",
    accountId,
    name,
    exceptId,
  );
  return row !== null;
}

/** The rules that assign a profile, in priority order (what deleting it affects). */
export async function rulesUsingProfile(db: Db, profileId: string) {
  const rows = await all<{ id: string; name: string; priority: number; enabled: number; version: number }>(
    db,
    `SELECT r.id, r.name, r.priority, r.enabled, r.version FROM rules r JOIN rule_profiles rp ON rp.rule_id = r.id
     WHERE rp.profile_id = ? ORDER BY r.priority`,
    profileId,
  );
  return rows.map((row) => ({ ...row, enabled: row.enabled === 1 }));
}

/**
 * The sites and locations among `ids` that belong to the account, with their names. (Sites and
 * locations are their own modules; a rule only reads which of its places still exist.)
 */
export async function placesOfAccount(db: Db, accountId: string, siteIds: string[], locationIds: string[]) {
  if (siteIds.length === 0 && locationIds.length === 0) return { sites: [], locations: [] };
  const rows = await all<{ kind: "site" | "location"; id: string; name: string; site_id: string }>(
    db,
    `SELECT 'site' AS kind, id, name, id AS site_id FROM sites WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))
     UNION ALL
     SELECT 'location' AS kind, id, name, site_id FROM locations WHERE account_id = ? AND id IN (SELECT value FROM json_each(?))`,
    accountId,
    JSON.stringify(siteIds),
    accountId,
    JSON.stringify(locationIds),
  );
  return {
    sites: rows.filter((row) => row.kind === "site").map(({ id, name }) => ({ id, name })),
    locations: rows.filter((row) => row.kind === "location").map(({ id, name, site_id }) => ({ id, name, siteId: site_id })),
  };
}

// Writes. Each returns statements for the caller's one batch, where the activity entry goes
// right after the statement that makes the change.

export type RuleFields = { name: string; enabled: boolean; conditions: RuleConditions };

/** Makes sure the account has a rule-set row (before its first rule). */
export function ensureRuleSetStatement(db: Db, accountId: string) {
  return statement(db, "INSERT OR IGNORE INTO rule_sets (account_id, version) VALUES (?, 1)", accountId);
}

/**
 * Moves the rule-set version on; with `expected`, only from that version, and with
 * `unlessRuleExists`, only once that rule is gone (a deletion that happened).
 */
export function bumpRuleSetStatement(db: Db, accountId: string, expected?: number, unlessRuleExists?: string) {
  const guards: string[] = [];
  const params: Bindable[] = [];
  if (expected !== undefined) {
    guards.push("version = ?");
    params.push(expected);
  }
  if (unlessRuleExists) {
    guards.push("NOT EXISTS (SELECT 1 FROM rules WHERE id = ?)");
    params.push(unlessRuleExists);
  }
  return statement(
    db,
    `UPDATE rule_sets SET version = version + 1 WHERE account_id = ?${guards.map((g) => ` AND ${g}`).join("")}`,
    accountId,
    ...params,
  );
}

/** A new rule, last in the order (the lowest priority); fewer than `limit` rules must exist. */
export function insertRuleStatement(db: Db, input: RuleFields & { accountId: string; limit: number }) {
  const id = newId("rule");
  return {
    id,
    statement: statement(
      db,
      `INSERT INTO rules (id, account_id, name, priority, enabled, conditions)
       SELECT ?, ?, ?, COALESCE(MAX(priority), 0) + 1, ?, ? FROM rules WHERE account_id = ?
       HAVING count(*) < ?`,
      id,
      input.accountId,
      input.name,
      input.enabled ? 1 : 0,
      JSON.stringify(input.conditions),
      input.accountId,
      input.limit,
    ),
  };
}

/** The rule's profiles, in order; with `atVersion`, only while the rule is at that version. */
export function insertRuleProfilesStatement(db: Db, ruleId: string, profileIds: string[], atVersion?: number) {
  const guard = atVersion === undefined ? "" : " WHERE EXISTS (SELECT 1 FROM rules WHERE id = ? AND version = ?)";
  return statement(
    db,
    `INSERT INTO rule_profiles (rule_id, profile_id, position) SELECT ?, value, key + 1 FROM json_each(?)${guard}`,
    ruleId,
    JSON.stringify(profileIds),
    ...(atVersion === undefined ? [] : [ruleId, atVersion]),
  );
}

/** Clears the rule's profiles while the rule is at `version` (before writing the new list). */
export function clearRuleProfilesStatement(db: Db, ruleId: string, version: number) {
  return statement(
    db,
    "DELETE FROM rule_profiles WHERE rule_id = ? AND EXISTS (SELECT 1 FROM rules WHERE id = ? AND version = ?)",
    ruleId,
    ruleId,
    version,
  );
}

/** Changes the rule at the version the edit was made on (no row changed when stale). */
export function updateRuleStatement(db: Db, input: RuleFields & { id: string; version: number }) {
  return statement(
    db,
    `UPDATE rules SET name = ?, enabled = ?, conditions = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND version = ?`,
    input.name,
    input.enabled ? 1 : 0,
    JSON.stringify(input.conditions),
    now(),
    input.id,
    input.version,
  );
}

/**
 * Deleting a rule: the rule (at its version, while the rule set is at `setVersion`), then the
 * rules below it move up one, keeping priorities dense. Returns the deletion first, for the
 * caller's activity entry, and the rest after it.
 */
export function deleteRuleStatements(
  db: Db,
  input: { accountId: string; id: string; version: number; priority: number; setVersion: number },
) {
  return {
    deletion: statement(
      db,
      `DELETE FROM rules WHERE id = ? AND version = ? AND ${setVersion} = ?`,
      input.id,
      input.version,
      input.accountId,
      input.setVersion,
    ),
    closeGap: [
      statement(
        db,
        `UPDATE rules SET priority = -(priority - 1)
         WHERE account_id = ? AND priority > ? AND NOT EXISTS (SELECT 1 FROM rules WHERE id = ?) AND ${setVersion} = ?`,
        input.accountId,
        input.priority,
        input.id,
        input.accountId,
        input.setVersion,
      ),
      statement(db, "UPDATE rules SET priority = -priority WHERE account_id = ? AND priority < 0", input.accountId),
      bumpRuleSetStatement(db, input.accountId, input.setVersion, input.id),
    ],
  };
}

/**
 * The account's rules in a new order (every rule, each once), while the rule set is at
 * `setVersion`. The last statement moves the version on: it changes no row when stale.
 */
export function reorderStatements(db: Db, input: { accountId: string; setVersion: number; order: string[] }) {
  const order = JSON.stringify(input.order);
  return [
    statement(
      db,
      `UPDATE rules SET priority = -(SELECT key + 1 FROM json_each(?) WHERE value = rules.id)
       WHERE account_id = ? AND id IN (SELECT value FROM json_each(?)) AND ${setVersion} = ?`,
      order,
      input.accountId,
      order,
      input.accountId,
      input.setVersion,
    ),
    statement(db, "UPDATE rules SET priority = -priority WHERE account_id = ? AND priority < 0", input.accountId),
    bumpRuleSetStatement(db, input.accountId, input.setVersion),
  ];
}

/**
 * Taking a profile out of the rules that assign it, only while the profile is at the version
 * its deletion was asked on: per rule, a version bump (for its activity entry; an open edit of
 * the rule then answers CONFLICT rather than bring the profile back), then the links.
 */
export function detachProfileStatements(db: Db, input: { profileId: string; profileVersion: number; ruleIds: string[] }) {
  const atVersion = "EXISTS (SELECT 1 FROM profiles WHERE id = ? AND version = ?)";
  return {
    perRule: input.ruleIds.map((ruleId) => ({
      ruleId,
      statement: statement(
        db,
        `UPDATE rules SET version = version + 1, updated_at = ?
         WHERE id = ? AND ${atVersion} AND EXISTS (SELECT 1 FROM rule_profiles WHERE rule_id = rules.id AND profile_id = ?)`,
        now(),
        ruleId,
        input.profileId,
        input.profileVersion,
        input.profileId,
      ),
    })),
    links: statement(
      db,
      `DELETE FROM rule_profiles WHERE profile_id = ? AND rule_id IN (SELECT value FROM json_each(?)) AND ${atVersion}`,
      input.profileId,
      JSON.stringify(input.ruleIds),
      input.profileId,
      input.profileVersion,
    ),
  };
}
