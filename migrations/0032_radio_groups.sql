-- Issue 25: saved groups, a named filter over an account's radios (src/schema/fleet/target.ts),
-- evaluated when counted or targeted (src/server/data/targets.ts), never a row per radio: a
-- group of a million radios is one row here.
CREATE TABLE radio_groups (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 80),
  -- The group's conditions as JSON (groupFilterSchema), validated by the procedures.
  filter      TEXT NOT NULL CHECK (json_valid(filter)),
  created_by  TEXT,
  created_at  TEXT NOT NULL,
  updated_at  TEXT NOT NULL,
  version     INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX radio_groups_account_name ON radio_groups(account_id, name COLLATE NOCASE);

-- A group's count at 1,000,000 radios (bench/results/targets.md): site and firmware together
-- ("North garage, old firmware") read from one index, without fetching each radio of the site;
-- a tag's radios checked against their account from an index too (device_tags has no account).
CREATE INDEX devices_account_site_firmware ON devices(account_id, status, site_id, firmware, model);
CREATE INDEX devices_uid_account ON devices(uid, account_id, status);
