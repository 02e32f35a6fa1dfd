-- Single sign-on (DESIGN.md §3): OpenID Connect identity providers per organization, the
-- provider identities linked to users, and the short-lived state of sign-ins in progress.

-- The client secret is write-only: no read of the app ever returns it. email_domains is a JSON
-- array of lower-case domains; a domain belongs to at most one provider (checked on write).
CREATE TABLE identity_providers (
  id             TEXT PRIMARY KEY,
  org_id         TEXT NOT NULL REFERENCES organizations(id),
  name           TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  issuer         TEXT NOT NULL,
  client_id      TEXT NOT NULL,
  client_secret  TEXT NOT NULL DEFAULT '',
  email_domains  TEXT NOT NULL DEFAULT '[]',
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version        INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX identity_providers_org ON identity_providers(org_id);

-- A person's account at a provider (its issuer's `sub`), linked to one user. provider_id is
-- an identity_providers id or the default provider's id from the settings, hence no foreign
-- key there; deleting a provider deletes its identities in the same batch.
CREATE TABLE external_identities (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  provider_id   TEXT NOT NULL,
  subject       TEXT NOT NULL,
  email         TEXT NOT NULL DEFAULT '',
  linked_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at  TEXT,
  UNIQUE (provider_id, subject)
);
CREATE INDEX external_identities_user ON external_identities(user_id);

-- A sign-in on its way to the provider and back: state, PKCE verifier and nonce, single use,
-- 10 minutes.
CREATE TABLE oidc_logins (
  state          TEXT PRIMARY KEY,
  provider_id    TEXT NOT NULL,
  code_verifier  TEXT NOT NULL,
  nonce          TEXT NOT NULL,
  next           TEXT NOT NULL DEFAULT '/',
  expires_at     TEXT NOT NULL
);
CREATE INDEX oidc_logins_expiry ON oidc_logins(expires_at);
