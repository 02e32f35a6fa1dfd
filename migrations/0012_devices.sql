-- Devices (DESIGN.md §7): radios, named by their uid (the serial), owned by an organization
-- (its inventory), optionally assigned to one of its accounts and there to a site and a
-- location. People set brand, model, name, tags and notes; the radio reports firmware,
-- battery, signal, its revision and (through check-ins) last seen.

CREATE TABLE devices (
  uid                 TEXT PRIMARY KEY
                        CHECK (length(uid) BETWEEN 1 AND 64 AND uid NOT GLOB '*[^A-Za-z0-9._-]*'),
  org_id              TEXT NOT NULL REFERENCES organizations(id),
  account_id          TEXT REFERENCES accounts(id),
  site_id             TEXT,
  location_id         TEXT,
  brand               TEXT NOT NULL CHECK (length(brand) BETWEEN 1 AND 40),
  model               TEXT NOT NULL CHECK (length(model) BETWEEN 1 AND 60),
  name                TEXT NOT NULL DEFAULT '' CHECK (length(name) <= 120),
  -- JSON array of at most 20 short tags; device_tags below indexes them for filters and rules.
  tags                TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(tags) AND json_type(tags) = 'array'),
  notes               TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 2000),
  -- SHA-256 (hex) of the 256-bit device secret, shown once when registered or rotated.
  secret_hash         TEXT NOT NULL,
  status              TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'retired')),
  retired_at          TEXT,
  -- What the radio reports.
  firmware            TEXT NOT NULL DEFAULT '' CHECK (length(firmware) <= 40),
  battery             INTEGER CHECK (battery IS NULL OR battery BETWEEN 0 AND 100),
  signal              INTEGER CHECK (signal IS NULL OR signal BETWEEN -150 AND 0),
  reported_revision   TEXT,
  last_seen_at        TEXT,
  -- The attributes rules and network levels read, as last deployed (DESIGN §7): a change of
  -- site, location, model or tags is a change to deploy, and the radio keeps the settings of
  -- its old place until a deployment newer than attributes_changed_at exists.
  deployed_site_id      TEXT,
  deployed_location_id  TEXT,
  deployed_model        TEXT,
  deployed_tags         TEXT NOT NULL DEFAULT '[]',
  attributes_changed_at TEXT,
  -- Hand-over to another management server (an https URL), delivered at the next check-in.
  redirect_url           TEXT,
  redirect_requested_at  TEXT,
  redirect_confirmed_at  TEXT,
  created_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at          TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version             INTEGER NOT NULL DEFAULT 1,
  -- A site needs an account, a location needs a site.
  CHECK (site_id IS NULL OR account_id IS NOT NULL),
  CHECK (location_id IS NULL OR site_id IS NOT NULL),
  FOREIGN KEY (site_id, account_id) REFERENCES sites(id, account_id),
  FOREIGN KEY (location_id) REFERENCES locations(id)
);
-- Lists: the organization's inventory and an account's radios, by uid (keyset paging), by
-- name and by last seen; the brand filter and model and firmware facets.
CREATE INDEX devices_org_uid ON devices(org_id, status, uid);
CREATE INDEX devices_account_uid ON devices(account_id, status, uid);
CREATE INDEX devices_org_name ON devices(org_id, status, name COLLATE NOCASE, uid);
CREATE INDEX devices_account_name ON devices(account_id, status, name COLLATE NOCASE, uid);
-- Never seen sorts first: the expression keeps keyset paging on row values free of NULLs.
CREATE INDEX devices_org_seen ON devices(org_id, status, ifnull(last_seen_at, ''), uid);
CREATE INDEX devices_account_seen ON devices(account_id, status, ifnull(last_seen_at, ''), uid);
CREATE INDEX devices_org_model ON devices(org_id, status, model, firmware, uid);
CREATE INDEX devices_account_model ON devices(account_id, status, model, firmware, uid);
CREATE INDEX devices_site ON devices(site_id, status, uid);
CREATE INDEX devices_location ON devices(location_id, status, uid);

-- One row per (device, tag), kept in step with devices.tags by the data layer in the same batch.
CREATE TABLE device_tags (
  uid  TEXT NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
  tag  TEXT NOT NULL CHECK (length(tag) BETWEEN 1 AND 32),
  PRIMARY KEY (uid, tag)
) WITHOUT ROWID;
CREATE INDEX device_tags_tag ON device_tags(tag, uid);

-- Seats: an active radio assigned to an account takes one of the seats allocated to it.
-- devices_in_use counts them, kept by triggers so a seat check is O(1) however large the
-- fleet; assignments are single conditional statements (src/server/data), and the trigger
-- on accounts is the last line: a write that would use more seats than allocated aborts.
ALTER TABLE accounts ADD COLUMN devices_in_use INTEGER NOT NULL DEFAULT 0;

CREATE TRIGGER devices_take_seat_on_insert
AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL AND NEW.status = 'active'
BEGIN
  UPDATE accounts SET devices_in_use = devices_in_use + 1 WHERE id = NEW.account_id;
END;

CREATE TRIGGER devices_move_seat_on_update
AFTER UPDATE OF account_id, status ON devices
WHEN (OLD.account_id IS NOT NEW.account_id) OR (OLD.status <> NEW.status)
BEGIN
  UPDATE accounts SET devices_in_use = devices_in_use - 1
    WHERE id = OLD.account_id AND OLD.status = 'active';
  UPDATE accounts SET devices_in_use = devices_in_use + 1
    WHERE id = NEW.account_id AND NEW.status = 'active';
END;

CREATE TRIGGER devices_free_seat_on_delete
AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL AND OLD.status = 'active'
BEGIN
  UPDATE accounts SET devices_in_use = devices_in_use - 1 WHERE id = OLD.account_id;
END;

CREATE TRIGGER accounts_devices_within_seats
BEFORE UPDATE OF devices_in_use ON accounts
WHEN NEW.devices_in_use > OLD.devices_in_use
  AND NEW.devices_in_use > (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'seats exhausted');
END;

-- An allocation cannot shrink (or go) below the seats its account's radios use.
CREATE TRIGGER allocations_cover_devices_on_update
BEFORE UPDATE OF quantity ON allocations
WHEN NEW.quantity < OLD.quantity
  AND (SELECT devices_in_use FROM accounts WHERE id = NEW.account_id)
      > (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = NEW.account_id) - OLD.quantity + NEW.quantity
BEGIN
  SELECT RAISE(ABORT, 'seats in use');
END;

CREATE TRIGGER allocations_cover_devices_on_delete
BEFORE DELETE ON allocations
WHEN (SELECT devices_in_use FROM accounts WHERE id = OLD.account_id)
     > (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = OLD.account_id) - OLD.quantity
BEGIN
  SELECT RAISE(ABORT, 'seats in use');
END;

-- Search (DESIGN.md §8: through an index, never LIKE '%…%' over the fleet): a trigram index over
-- uid, name, model, firmware and tags finds any part of three characters or more; shorter
-- searches use uid prefixes on the devices_org_uid index. Kept in step by triggers.
CREATE VIRTUAL TABLE devices_fts USING fts5(
  uid, name, model, firmware, tags, content = 'devices', content_rowid = 'rowid', tokenize = 'trigram'
);

CREATE TRIGGER devices_fts_insert AFTER INSERT ON devices BEGIN
  INSERT INTO devices_fts (rowid, uid, name, model, firmware, tags)
  VALUES (NEW.rowid, NEW.uid, NEW.name, NEW.model, NEW.firmware, NEW.tags);
END;

CREATE TRIGGER devices_fts_delete AFTER DELETE ON devices BEGIN
  INSERT INTO devices_fts (devices_fts, rowid, uid, name, model, firmware, tags)
  VALUES ('delete', OLD.rowid, OLD.uid, OLD.name, OLD.model, OLD.firmware, OLD.tags);
END;

CREATE TRIGGER devices_fts_update AFTER UPDATE OF name, model, firmware, tags ON devices BEGIN
  INSERT INTO devices_fts (devices_fts, rowid, uid, name, model, firmware, tags)
  VALUES ('delete', OLD.rowid, OLD.uid, OLD.name, OLD.model, OLD.firmware, OLD.tags);
  INSERT INTO devices_fts (rowid, uid, name, model, firmware, tags)
  VALUES (NEW.rowid, NEW.uid, NEW.name, NEW.model, NEW.firmware, NEW.tags);
END;

-- A radio's recent activity on its view page: its entries without scanning its account's log.
CREATE INDEX activity_logs_entity ON activity_logs(entity_type, entity_id, created_at DESC);
