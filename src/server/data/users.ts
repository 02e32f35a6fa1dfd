import type { Language } from "@/schema/languages";
import type { Role } from "../auth/roles";
import { type Bindable, type Db, first, newId, now, statement } from "./db";
import { ftsQuery, ftsRowids } from "./fts";
import { COUNT_CAP, type Cursor, cappedCount, keysetWhere, order, type Page, pageOf, type Total, totalOf } from "./keyset";

export type UserStatus = "invited" | "active" | "disabled";

export type User = {
  id: string;
  orgId: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  language: Language | null;
  twoFactor: "none" | "email";
  passwordHash: string | null;
  lastSignInAt: string | null;
  isCaseUser: boolean;
  version: number;
};

type Row = {
  id: string;
  org_id: string;
  email: string;
  name: string;
  role: Role;
  status: UserStatus;
  language: Language | null;
  two_factor: "none" | "email";
  password_hash: string | null;
  last_sign_in_at: string | null;
  is_case_user: number;
  version: number;
};

const columns =
  "id, org_id, email, name, role, status, language, two_factor, password_hash, last_sign_in_at, is_case_user, version";

function toUser(row: Row): User {
  return {
    id: row.id,
    orgId: row.org_id,
    email: row.email,
    name: row.name,
    role: row.role,
    status: row.status,
    language: row.language,
    twoFactor: row.two_factor,
    passwordHash: row.password_hash,
    lastSignInAt: row.last_sign_in_at,
    isCaseUser: row.is_case_user === 1,
    version: row.version,
  };
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export async function findUserByEmail(db: Db, email: string): Promise<User | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM users WHERE email = ?`, normalizeEmail(email));
  return row ? toUser(row) : null;
}

export type UserRow = Row;

export function userFromRow(row: Row | null | undefined): User | null {
  return row ? toUser(row) : null;
}

/** The user of a session (by the session's id), for reading both in one batch. */
export function userOfSessionStatement(db: Db, sessionId: string) {
  return statement(db, `SELECT ${columns} FROM users WHERE id = (SELECT user_id FROM sessions WHERE id = ?)`, sessionId);
}

export async function findUserById(db: Db, id: string): Promise<User | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM users WHERE id = ?`, id);
  return row ? toUser(row) : null;
}

export function insertUserStatement(
  db: Db,
  user: { orgId: string; email: string; name: string; role: Role; passwordHash: string; language: Language | null },
) {
  const id = newId("usr");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO users (id, org_id, email, name, role, status, language, password_hash) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
      id,
      user.orgId,
      normalizeEmail(user.email),
      user.name,
      user.role,
      user.language,
      user.passwordHash,
    ),
  };
}

export function setPasswordStatement(db: Db, userId: string, passwordHash: string) {
  return statement(
    db,
    "UPDATE users SET password_hash = ?, updated_at = ?, version = version + 1 WHERE id = ?",
    passwordHash,
    now(),
    userId,
  );
}

export async function recordSignIn(db: Db, userId: string): Promise<void> {
  await statement(db, "UPDATE users SET last_sign_in_at = ? WHERE id = ?", now(), userId).run();
}

export async function setLanguage(db: Db, userId: string, language: Language): Promise<void> {
  await statement(db, "UPDATE users SET language = ? WHERE id = ?", language, userId).run();
}

/** A user as the administration list shows them, with their organization's name. */
export type ListedUser = Pick<User, "id" | "orgId" | "email" | "name" | "role" | "status" | "lastSignInAt" | "version"> & {
  organizationName: string;
};

type ListedRow = Pick<Row, "id" | "org_id" | "email" | "name" | "role" | "status" | "last_sign_in_at" | "version"> & {
  organization_name: string;
};

/** Names A→Z, then emails (unique): the list's one order, and its cursor's two keys. */
export const USER_SORT_ARITY = 2;

/**
 * One page of the users of an organization (`orgId`: an index range of users_org_name) or of
 * a whole tree (`rootOrgId` and its descendants: one range of user_scopes, migration 0020),
 * by name then email, searched by words of the name or email through users_fts, paged by
 * cursor, counted up to COUNT_CAP, rows and count in one batch. Case users (the fc area's
 * employees) are left out when the settings hide them.
 */
export async function listUsers(
  db: Db,
  input: {
    rootOrgId: string;
    orgId: string | null;
    search: string;
    hideCaseUsers: boolean;
    limit: number;
    cursor: Cursor | null;
  },
): Promise<Page<ListedUser> & { total: Total }> {
  const query = ftsQuery(input.search);
  if (input.search.trim() && !query) return { items: [], next: null, previous: null, total: totalOf(0) };
  // One organization: users itself; the tree: user_scopes, joined back to users for the row.
  const scoped = input.orgId
    ? { from: "users s", where: "s.org_id = ?", rowid: "s.rowid", scopeId: input.orgId }
    : { from: "user_scopes s", where: "s.ancestor_id = ?", rowid: "s.user_rowid", scopeId: input.rootOrgId };
  // user_scopes' columns are NOCASE already: plain names there, or SQLite does not seek the
  // row-value comparison into user_scopes_name (it would scan the tree's range from its start).
  const keys = input.orgId ? ["s.name COLLATE NOCASE", "s.email"] : ["s.name", "s.email"];
  const page = keysetWhere(order("asc", keys), input.cursor, input.limit);
  const caseUsers = input.hideCaseUsers ? " AND s.is_case_user = 0" : "";
  const listed = `u.id, u.org_id, u.email, u.name, u.role, u.status, u.last_sign_in_at, u.version, o.name AS organization_name`;
  const searched = async (query: string): Promise<{ rows: ListedRow[]; total: number } | null> => {
    // A search reads the matches in scope from users_fts once, at most COUNT_CAP + 1 of them
    // with their sort keys: their number is the count and the page is the first of them by
    // name, in one statement whose cost follows the matches, not the users (as accounts do).
    const probe = input.orgId
      ? "users s ON s.rowid = f.rowid AND s.org_id = ?"
      : "user_scopes s ON s.user_rowid = f.rowid AND s.ancestor_id = ?";
    const { results } = await statement(
      db,
      `WITH s AS MATERIALIZED (
         SELECT ${scoped.rowid} AS user_rowid, s.name AS name, s.email AS email FROM users_fts f CROSS JOIN ${probe}
         WHERE users_fts MATCH ?${caseUsers} LIMIT ${COUNT_CAP + 1})
       SELECT c.total, ${listed} FROM (SELECT count(*) AS total FROM s) c
       LEFT JOIN (SELECT user_rowid, row_number() OVER (ORDER BY ${page.orderBy}) AS sort_rank
                  FROM s WHERE ${page.where} ORDER BY ${page.orderBy} LIMIT ?) picked ON 1
       LEFT JOIN users u ON u.rowid = picked.user_rowid LEFT JOIN organizations o ON o.id = u.org_id
       ORDER BY picked.sort_rank`,
      scoped.scopeId,
      query,
      ...page.params,
      page.limit,
    ).all<ListedRow & { total: number }>();
    const total = results[0]?.total ?? 0;
    // With no row on the page, the count comes back alone, on a row of nulls.
    return total > COUNT_CAP ? null : { rows: results.filter((found) => found.id !== null), total };
  };
  // Without a search, or for one matching more than COUNT_CAP users: the page in the index's
  // order (checked against the matches), with the capped count when it is not known yet.
  const inIndexOrder = async (): Promise<{ rows: ListedRow[]; total: number | undefined }> => {
    const filters = [`${scoped.where}${caseUsers}`];
    const params: Bindable[] = [scoped.scopeId];
    if (query) {
      const matches = ftsRowids("users", query);
      filters.push(`${scoped.rowid} IN (${matches.sql})`);
      params.push(...matches.params);
    }
    const filter = filters.join(" AND ");
    const pageStatement = statement(
      db,
      `SELECT ${listed}
       FROM (SELECT ${scoped.rowid} AS user_rowid FROM ${scoped.from}
             WHERE ${filter} AND ${page.where} ORDER BY ${page.orderBy} LIMIT ?) picked
       JOIN users u ON u.rowid = picked.user_rowid JOIN organizations o ON o.id = u.org_id
       ORDER BY u.name COLLATE NOCASE ${page.cursor?.direction === "before" ? "DESC" : "ASC"},
                u.email COLLATE NOCASE ${page.cursor?.direction === "before" ? "DESC" : "ASC"}`,
      ...params,
      ...page.params,
      page.limit,
    );
    if (query) return { rows: (await pageStatement.all<ListedRow>()).results, total: COUNT_CAP + 1 };
    const [paged, counted] = await db.batch<ListedRow | { total: number }>([
      pageStatement,
      statement(db, cappedCount(`SELECT 1 FROM ${scoped.from} WHERE ${filter}`), ...params),
    ]);
    return { rows: (paged?.results ?? []) as ListedRow[], total: (counted?.results[0] as { total: number } | undefined)?.total };
  };
  const { rows, total } = (query ? await searched(query) : null) ?? (await inIndexOrder());
  const result = pageOf(
    rows,
    page,
    (row) => [row.name, row.email],
    (row): ListedUser => ({
      id: row.id,
      orgId: row.org_id,
      email: row.email,
      name: row.name,
      role: row.role,
      status: row.status,
      lastSignInAt: row.last_sign_in_at,
      version: row.version,
      organizationName: row.organization_name,
    }),
  );
  return { ...result, total: totalOf(total) };
}

/** Whether the organization has an active owner other than `exceptUserId`. */
export async function hasOtherActiveOwner(db: Db, orgId: string, exceptUserId: string): Promise<boolean> {
  const row = await first<{ found: number }>(
    db,
    "SELECT 1 AS found FROM users WHERE org_id = ? AND role = 'owner' AND status = 'active' AND id <> ? LIMIT 1",
    orgId,
    exceptUserId,
  );
  return row !== null;
}

/**
 * Sets a user's role and status, only at the version the edit was made on, and never taking
 * away an organization's last active owner, even when two admins race (0 changes then).
 */
export function updateUserAccessStatement(db: Db, input: { id: string; version: number; role: Role; status: UserStatus }) {
  const staysActiveOwner = input.role === "owner" && input.status === "active" ? 1 : 0;
  return statement(
    db,
    `UPDATE users SET role = ?, status = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND version = ?
       AND (? = 1 OR role <> 'owner' OR status <> 'active' OR EXISTS (
         SELECT 1 FROM users other WHERE other.org_id = users.org_id AND other.id <> users.id
           AND other.role = 'owner' AND other.status = 'active'))`,
    input.role,
    input.status,
    now(),
    input.id,
    input.version,
    staysActiveOwner,
  );
}
