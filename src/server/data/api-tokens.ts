import type { Role } from "../auth/roles";
import { all, type Db, first, newId, statement } from "./db";

/** An API token as the list shows it: never its secret nor its hash. */
export type ApiToken = {
  id: string;
  orgId: string;
  name: string;
  role: Exclude<Role, "case-agent">;
  /** The only accounts it reaches; null: every account its organization sees. */
  accountIds: string[] | null;
  hint: string;
  createdBy: string | null;
  createdByEmail: string;
  createdAt: string;
  expiresAt: string;
  revokedAt: string | null;
  lastUsedAt: string | null;
  lastUsedAddress: string | null;
  lastUsedCountry: string | null;
  version: number;
};

type Row = {
  id: string;
  org_id: string;
  name: string;
  role: ApiToken["role"];
  account_ids: string | null;
  token_hint: string;
  created_by: string | null;
  created_by_email: string;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
  last_used_at: string | null;
  last_used_address: string | null;
  last_used_country: string | null;
  version: number;
};

const columns = `id, org_id, name, role, account_ids, token_hint, created_by, created_by_email, created_at, expires_at,
  revoked_at, last_used_at, last_used_address, last_used_country, version`;

function accountIdsOf(text: string | null): string[] | null {
  if (text === null) return null;
  try {
    const value: unknown = JSON.parse(text);
    return Array.isArray(value) ? value.filter((v): v is string => typeof v === "string") : [];
  } catch {
    // An unreadable limit limits to nothing rather than to everything.
    return [];
  }
}

function toToken(row: Row): ApiToken {
  return {
    id: row.id,
    orgId: row.org_id,
    name: row.name,
    role: row.role,
    accountIds: accountIdsOf(row.account_ids),
    hint: row.token_hint,
    createdBy: row.created_by,
    createdByEmail: row.created_by_email,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    revokedAt: row.revoked_at,
    lastUsedAt: row.last_used_at,
    lastUsedAddress: row.last_used_address,
    lastUsedCountry: row.last_used_country,
    version: row.version,
  };
}

/** Whether a token can still call: not revoked, not expired. */
export function tokenState(token: Pick<ApiToken, "revokedAt" | "expiresAt">, at = new Date()): "active" | "expired" | "revoked" {
  if (token.revokedAt) return "revoked";
  return token.expiresAt <= at.toISOString() ? "expired" : "active";
}

export async function listApiTokens(db: Db, orgId: string): Promise<ApiToken[]> {
  const rows = await all<Row>(db, `SELECT ${columns} FROM api_tokens WHERE org_id = ? ORDER BY created_at DESC, id`, orgId);
  return rows.map(toToken);
}

export async function findApiToken(db: Db, id: string): Promise<ApiToken | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM api_tokens WHERE id = ?`, id);
  return row ? toToken(row) : null;
}

/** The one read a call with a token costs: the token its secret's hash names. */
export async function findApiTokenByHash(db: Db, tokenHash: string): Promise<ApiToken | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM api_tokens WHERE token_hash = ?`, tokenHash);
  return row ? toToken(row) : null;
}

export type NewApiToken = {
  orgId: string;
  name: string;
  role: ApiToken["role"];
  accountIds: string[] | null;
  tokenHash: string;
  hint: string;
  createdBy: { id: string; email: string };
  createdAt: string;
  expiresAt: string;
};

export function insertApiTokenStatement(db: Db, token: NewApiToken) {
  const id = newId("tok");
  return {
    id,
    statement: statement(
      db,
      `INSERT INTO api_tokens (id, org_id, name, role, account_ids, token_hash, token_hint, created_by, created_by_email, created_at, expires_at)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
      id,
      token.orgId,
      token.name,
      token.role,
      token.accountIds === null ? null : JSON.stringify(token.accountIds),
      token.tokenHash,
      token.hint,
      token.createdBy.id,
      token.createdBy.email,
      token.createdAt,
      token.expiresAt,
    ),
  };
}

/** Revokes a live token at the version the person saw; 0 changes when it moved on or was revoked. */
export function revokeApiTokenStatement(db: Db, id: string, version: number, at: string) {
  return statement(
    db,
    "UPDATE api_tokens SET revoked_at = ?, version = version + 1 WHERE id = ? AND version = ? AND revoked_at IS NULL",
    at,
    id,
    version,
  );
}

/**
 * Where and when a token was last used. Conditional on the stored time being older than
 * `staleBefore`, so two calls racing write once and a busy token writes once a minute.
 */
export function touchApiTokenStatement(
  db: Db,
  id: string,
  use: { at: string; address: string; country: string | null },
  staleBefore: string,
) {
  return statement(
    db,
    `UPDATE api_tokens SET last_used_at = ?, last_used_address = ?, last_used_country = ?
     WHERE id = ? AND (last_used_at IS NULL OR last_used_at <= ?)`,
    use.at,
    use.address,
    use.country,
    id,
    staleBefore,
  );
}
