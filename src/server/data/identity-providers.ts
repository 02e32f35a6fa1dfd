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
  /** Each domain's claim: routes sign-ins only once proven (issue 9). Same order as emailDomains. */
  domainClaims: DomainClaim[];
  createdAt: string;
  updatedAt: string;
  version: number;
};

/** A provider's claim on an email domain, and whether (and how) it was proven. */
export type DomainClaim = {
  domain: string;
  /** What the domain's owner publishes in a DNS TXT record to prove the claim. */
  token: string;
  provenAt: string | null;
  provenBy: "dns" | "vendor" | "seed" | null;
};

/** What the sign-in flow needs to talk to the provider, secret included. Never sent to a browser. */
export type ProviderSignInConfig = {
  id: string;
  orgId: string | null;
  name: string;
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** The proven domains only: an unproven claim vouches for nobody. */
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

function toProvider(row: Row, claims: DomainClaim[] = []): IdentityProvider {
  const domains = parseDomains(row.email_domains);
  return {
    id: row.id,
    orgId: row.org_id,
    organizationName: row.organization_name,
    name: row.name,
    issuer: row.issuer,
    clientId: row.client_id,
    hasClientSecret: row.has_client_secret === 1,
    emailDomains: domains,
    domainClaims: domains.map(
      (domain) => claims.find((claim) => claim.domain === domain) ?? { domain, token: "", provenAt: null, provenBy: null },
    ),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

const orgTree = `WITH RECURSIVE tree(id) AS (
  SELECT id FROM organizations WHERE id = ?
  UNION ALL SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id)`;

type ClaimRow = {
  provider_id: string;
  domain: string;
  token: string;
  proven_at: string | null;
  proven_by: DomainClaim["provenBy"];
};

/** The domain claims of the given providers, grouped by provider. */
async function claimsOf(db: Db, providerIds: string[]): Promise<Map<string, DomainClaim[]>> {
  const grouped = new Map<string, DomainClaim[]>();
  if (providerIds.length === 0) return grouped;
  const rows = await all<ClaimRow>(
    db,
    `SELECT provider_id, domain, token, proven_at, proven_by FROM identity_provider_domains
     WHERE provider_id IN (SELECT value FROM json_each(?))`,
    JSON.stringify(providerIds),
  );
  for (const row of rows) {
    const list = grouped.get(row.provider_id) ?? [];
    list.push({ domain: row.domain, token: row.token, provenAt: row.proven_at, provenBy: row.proven_by });
    grouped.set(row.provider_id, list);
  }
  return grouped;
}

export async function findIdentityProvider(db: Db, id: string): Promise<IdentityProvider | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM ${from} WHERE p.id = ?`, id);
  return row ? toProvider(row, (await claimsOf(db, [row.id])).get(row.id)) : null;
}

/** The providers of an organization and its descendants, by name. */
export async function listIdentityProviders(db: Db, rootOrgId: string): Promise<IdentityProvider[]> {
  const rows = await all<Row>(
    db,
    `${orgTree} SELECT ${columns} FROM ${from} WHERE p.org_id IN (SELECT id FROM tree) ORDER BY p.name COLLATE NOCASE, p.id`,
    rootOrgId,
  );
  const claims = await claimsOf(
    db,
    rows.map((row) => row.id),
  );
  return rows.map((row) => toProvider(row, claims.get(row.id)));
}

/** The provider that has proven `domain` (lower case), if any: an unproven claim routes no one. */
export async function findIdentityProviderByDomain(db: Db, domain: string): Promise<IdentityProvider | null> {
  const row = await first<Row>(
    db,
    `SELECT ${columns} FROM identity_provider_domains c JOIN identity_providers p ON p.id = c.provider_id
     JOIN organizations o ON o.id = p.org_id
     WHERE c.domain = ? AND c.proven_at IS NOT NULL LIMIT 1`,
    domain.toLowerCase(),
  );
  return row ? toProvider(row) : null;
}

/**
 * The domains among `domains` that another provider than `exceptId` has proven: those are
 * taken. Unproven claims take nothing (first come is not first served).
 */
export async function claimedDomains(db: Db, domains: string[], exceptId: string | null): Promise<string[]> {
  if (domains.length === 0) return [];
  const rows = await all<{ domain: string }>(
    db,
    `SELECT DISTINCT domain FROM identity_provider_domains
     WHERE domain IN (SELECT value FROM json_each(?)) AND proven_at IS NOT NULL AND provider_id IS NOT ?`,
    JSON.stringify(domains),
    exceptId,
  );
  return rows.map((row) => row.domain);
}

/** One claim of a provider, if the provider claims that domain. */
export async function findDomainClaim(db: Db, providerId: string, domain: string): Promise<DomainClaim | null> {
  const row = await first<ClaimRow>(
    db,
    "SELECT provider_id, domain, token, proven_at, proven_by FROM identity_provider_domains WHERE provider_id = ? AND domain = ?",
    providerId,
    domain,
  );
  return row ? { domain: row.domain, token: row.token, provenAt: row.proven_at, provenBy: row.proven_by } : null;
}

/**
 * Marks a claim proven, unless it already is or another provider proved the domain first
 * (then no row changes: the caller tells the person why).
 */
export function proveDomainStatement(db: Db, providerId: string, domain: string, by: "dns" | "vendor") {
  return statement(
    db,
    `UPDATE identity_provider_domains SET proven_at = ?, proven_by = ?
     WHERE provider_id = ? AND domain = ? AND proven_at IS NULL
       AND NOT EXISTS (SELECT 1 FROM identity_provider_domains WHERE domain = ? AND proven_at IS NOT NULL)`,
    now(),
    by,
    providerId,
    domain,
    domain,
  );
}

/**
 * Brings a provider's claims in line with its stored domains (after an insert or update in the
 * same batch): a new domain gets an unproven claim with a fresh token, a removed one loses its
 * claim (and its proof). Read from the stored row, so a stale update that wrote nothing changes nothing.
 */
export function syncDomainClaimsStatements(db: Db, providerId: string) {
  return [
    statement(
      db,
      `DELETE FROM identity_provider_domains WHERE provider_id = ?
       AND domain NOT IN (SELECT d.value FROM identity_providers p, json_each(p.email_domains) d WHERE p.id = ?)`,
      providerId,
      providerId,
    ),
    statement(
      db,
      `INSERT OR IGNORE INTO identity_provider_domains (provider_id, domain, token)
       SELECT p.id, d.value, lower(hex(randomblob(16))) FROM identity_providers p, json_each(p.email_domains) d WHERE p.id = ?`,
      providerId,
    ),
  ];
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
  }>(
    db,
    `SELECT id, org_id, name, issuer, client_id, client_secret,
       (SELECT json_group_array(domain) FROM identity_provider_domains WHERE provider_id = p.id AND proven_at IS NOT NULL) AS email_domains
     FROM identity_providers p WHERE id = ?`,
    id,
  );
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
    dropClaims: statement(
      db,
      "DELETE FROM identity_provider_domains WHERE provider_id = ? AND NOT EXISTS (SELECT 1 FROM identity_providers WHERE id = ?)",
      id,
      id,
    ),
    unlinkIdentities: statement(
      db,
      "DELETE FROM external_identities WHERE provider_id = ? AND NOT EXISTS (SELECT 1 FROM identity_providers WHERE id = ?)",
      id,
      id,
    ),
  };
}
