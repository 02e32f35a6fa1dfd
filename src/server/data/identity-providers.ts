import { all, type Db, first, newId, now, statement } from "./db";

/** An OpenID Connect provider an organization signs its people in with (DESIGN.md §3). */
export type IdentityProvider = {
  id: string;
  orgId: string;
  organizationName: string;
  name: string;
  issuer: string;
  clientId: string;
  /** Whether a client secret is stored; the secret itself never leaves this module's writes and signInConfig. */
  hasClientSecret: boolean;
  emailDomains: string[];
  createdAt: string;
  updatedAt: string;
  version: number;
};

/** What the sign-in flow needs to talk to the provider, secret included. Never sent to a browser. */
export type ProviderSignInConfig = {
  id: string;
  orgId: string | null;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  emailDomains: string[];
};

type Row = {
  id: string;
  org_id: string;
  organization_name: string;
  name: string;
  issuer: string;
  client_id: string;
  has_client_secret: number;
  email_domains: string;
  created_at: string;
  updated_at: string;
  version: number;
};

// The secret column is deliberately not among these: reads cannot return it by mistake.
const columns = `p.id, p.org_id, o.name AS organization_name, p.name, p.issuer, p.client_id,
  p.client_secret <> '' AS has_client_secret, p.email_domains, p.created_at, p.updated_at, p.version`;
const from = "identity_providers p JOIN organizations o ON o.id = p.org_id";

export function parseDomains(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((d): d is string => typeof d === "string") : [];
  } catch {
    return [];
  }
}

function toProvider(row: Row): IdentityProvider {
  return {
    id: row.id,
    orgId: row.org_id,
    organizationName: row.organization_name,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.has_client_secret === 1,
    emailDomains: parseDomains(row.email_domains),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

const orgTree = `WITH RECURSIVE tree(id) AS (
  SELECT id FROM organizations WHERE id = ?
  UNION ALL SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id)`;

export async function findIdentityProvider(db: Db, id: string): Promise<IdentityProvider | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM ${from} WHERE p.id = ?`, id);
  return row ? toProvider(row) : null;
}

/** The providers of an organization and its descendants, by name. */
export async function listIdentityProviders(db: Db, rootOrgId: string): Promise<IdentityProvider[]> {
  const rows = await all<Row>(
    db,
    `${orgTree} SELECT ${columns} FROM ${from} WHERE p.org_id IN (SELECT id FROM tree) ORDER BY p.name COLLATE NOCASE, p.id`,
    rootOrgId,
  );
  return rows.map(toProvider);
}

/** The provider whose email domains include `domain` (lower case), if any. */
export async function findIdentityProviderByDomain(db: Db, domain: string): Promise<IdentityProvider | null> {
  const row = await first<Row>(
    db,
    `SELECT ${columns} FROM ${from}, json_each(p.email_domains) d WHERE d.value = ? ORDER BY p.created_at LIMIT 1`,
    domain.toLowerCase(),
  );
  return row ? toProvider(row) : null;
}

/** The domains among `domains` that another provider than `exceptId` already claims. */
export async function claimedDomains(db: Db, domains: string[], exceptId: string | null): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await all<{ domain: string }>(
    db,
    `SELECT DISTINCT d.value AS domain FROM identity_providers p, json_each(p.email_domains) d
     WHERE d.value IN (SELECT value FROM json_each(?)) AND p.id IS NOT ?`,
    JSON.stringify(domains),
    exceptId,
  );
  return rows.map((row) => row.domain);
}

/** The provider with its secret, for the sign-in flow only. */
export async function findProviderSignInConfig(db: Db, id: string): Promise<ProviderSignInConfig | null> {
  const row = await first<{
    id: string;
    org_id: string;
    name: string;
    issuer: string;
    client_id: string;
    client_secret: string;
    email_domains: string;
  }>(db, "SELECT id, org_id, name, issuer, client_id, client_secret, email_domains FROM identity_providers WHERE id = ?", id);
  return row
    ? {
        id: row.id,
        orgId: row.org_id,
        name: row.name,
        issuer: row.issuer,
        clientId: row.client_id,
        clientSecret: row.client_secret,
        emailDomains: parseDomains(row.email_domains),
      }
    : null;
}

export type IdentityProviderInput = {
  name: string;
  issuer: string;
  clientId: string;
  emailDomains: string[];
};

export function insertIdentityProviderStatement(db: Db, input: IdentityProviderInput & { orgId: string; clientSecret: string }) {
  const id = newId("idp");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO identity_providers (id, org_id, name, issuer, client_id, client_secret, email_domains) VALUES (?, ?, ?, ?, ?, ?, ?)",
      id,
      input.orgId,
      input.name,
      input.issuer,
      input.clientId,
      input.clientSecret,
      JSON.stringify(input.emailDomains),
    ),
  };
}

/**
 * Updates a provider still at `version`; an empty `clientSecret` keeps the stored one (the
 * secret is write-only). Changes no row when someone saved first.
 */
export function updateIdentityProviderStatement(
  db: Db,
  input: IdentityProviderInput & { id: string; version: number; clientSecret: string },
) {
  return statement(
    db,
    `UPDATE identity_providers SET name = ?, issuer = ?, client_id = ?,
       client_secret = CASE WHEN ? = '' THEN client_secret ELSE ? END,
       email_domains = ?, updated_at = ?, version = version + 1
     WHERE id = ? AND version = ?`,
    input.name,
    input.issuer,
    input.clientId,
    input.clientSecret,
    input.clientSecret,
    JSON.stringify(input.emailDomains),
    now(),
    input.id,
    input.version,
  );
}

/**
 * Deleting a provider (if still at `version`) ends the links to it too: run both in one
 * batch, the provider first; the identities go only once the provider is gone.
 */
export function deleteIdentityProviderStatements(db: Db, id: string, version: number) {
  return {
    deleteProvider: statement(db, "DELETE FROM identity_providers WHERE id = ? AND version = ?", id, version),
    unlinkIdentities: statement(
      db,
      "DELETE FROM external_identities WHERE provider_id = ? AND NOT EXISTS (SELECT 1 FROM identity_providers WHERE id = ?)",
      id,
      id,
    ),
  };
}
