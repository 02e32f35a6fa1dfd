-- Sites and locations of an account (DESIGN.md §3). Each carries the network settings it
-- overrides (JSON of the parts it sets; the rest is inherited account → site → location).
-- Names are unique case-insensitively: sites within their account, locations within their site.

CREATE TABLE sites (
  id              TEXT PRIMARY KEY,
  account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  address         TEXT NOT NULL DEFAULT '' CHECK (length(address) <= 300),
  -- NULL: the account's time zone.
  timezone        TEXT,
  network_config  TEXT NOT NULL DEFAULT '{}',
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version         INTEGER NOT NULL DEFAULT 1
);
-- The list by name (and its search), and the uniqueness rule.
CREATE UNIQUE INDEX sites_account_name ON sites(account_id, name COLLATE NOCASE);
CREATE INDEX sites_account_updated ON sites(account_id, updated_at);
-- Lets locations point at (site, account) together, so a location cannot sit in another account's site.
CREATE UNIQUE INDEX sites_id_account ON sites(id, account_id);

CREATE TABLE locations (
  id              TEXT PRIMARY KEY,
  account_id      TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  -- No cascade from the site: deleting a site deletes its locations itself, each with its own
  -- activity entry, in the same batch; a location left behind makes that batch fail instead.
  site_id         TEXT NOT NULL,
  name            TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  description     TEXT NOT NULL DEFAULT '' CHECK (length(description) <= 500),
  network_config  TEXT NOT NULL DEFAULT '{}',
  created_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at      TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version         INTEGER NOT NULL DEFAULT 1,
  FOREIGN KEY (site_id, account_id) REFERENCES sites(id, account_id)
);
CREATE UNIQUE INDEX locations_site_name ON locations(site_id, name COLLATE NOCASE);
CREATE INDEX locations_account_name ON locations(account_id, name COLLATE NOCASE);
CREATE INDEX locations_account_updated ON locations(account_id, updated_at);
