-- Tenancy (DESIGN.md §3): a tree of organizations (vendor → dealers → customers), each owning
-- accounts (a customer's radio system). Every row carries a version for stale-write checks.

CREATE TABLE organizations (
  id          TEXT PRIMARY KEY,
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  kind        TEXT NOT NULL CHECK (kind IN ('vendor', 'dealer', 'customer')),
  parent_id   TEXT REFERENCES organizations(id),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version     INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX organizations_parent ON organizations(parent_id);

CREATE TABLE accounts (
  id                  TEXT PRIMARY KEY,
  org_id              TEXT NOT NULL REFERENCES organizations(id),
  name                TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  subscription_level  TEXT NOT NULL DEFAULT 'essential' CHECK (subscription_level IN ('essential', 'advanced')),
  timezone            TEXT NOT NULL DEFAULT 'UTC',
  network_config      TEXT NOT NULL DEFAULT '{}',
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version             INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX accounts_org_name ON accounts(org_id, name COLLATE NOCASE);
