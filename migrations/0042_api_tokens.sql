-- Issue 27: API tokens, machine credentials of an organization. A token acts with a role (never
-- above its creator's), optionally only in some accounts, until it expires or is revoked. Only
-- the SHA-256 of the secret is kept; the secret is shown once, when it is made.
CREATE TABLE api_tokens (
  id                TEXT PRIMARY KEY,
  org_id            TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  name              TEXT NOT NULL,
  role              TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'configurator', 'technician', 'viewer')),
  -- A JSON array of account ids the token is limited to; NULL: every account the organization sees.
  account_ids       TEXT,
  token_hash        TEXT NOT NULL UNIQUE,
  -- The secret's first characters, so a person recognises the token in the list.
  token_hint        TEXT NOT NULL,
  created_by        TEXT REFERENCES users(id) ON DELETE SET NULL,
  created_by_email  TEXT NOT NULL,
  created_at        TEXT NOT NULL,
  expires_at        TEXT NOT NULL,
  revoked_at        TEXT,
  last_used_at      TEXT,
  -- Where it was last used from: the client's address and, when Cloudflare knows it, its country.
  last_used_address TEXT,
  last_used_country TEXT,
  version           INTEGER NOT NULL DEFAULT 1,
  UNIQUE (org_id, name)
);
CREATE INDEX api_tokens_org ON api_tokens(org_id, created_at DESC);
