-- Device search by word prefix (DESIGN.md §8), replacing the trigram index of 0012: a trigram
-- query for a uid fragment such as "0000042" reads the posting lists of "000" — most of a large
-- fleet — so a search cost grew with the fleet (1 → 90 ms from 100 to 100,000 radios). Here
-- every field is split into words (unicode61, as the other lists' *_fts) and searched by word
-- prefix (src/server/data/fts.ts), whose cost follows the matches, not the fleet.
--
-- A uid is also indexed by its parts (uid_terms), so that a person finds "ACME-R7-000042" by
-- typing any of "acme-r7", "r7", "7", "000042" or "42": its letter groups, its digit groups, and
-- its digit groups without leading zeros (up to 12). The uid is ASCII [A-Za-z0-9._-] only, which
-- is what lets plain replace() chains compute the parts inside the triggers (no CTE there).
--
-- Contentless with contentless_delete: the index holds only tokens, and a row leaves it by rowid,
-- so the delete trigger needs no copy of the computed parts.
DROP TRIGGER IF EXISTS devices_fts_insert;
DROP TRIGGER IF EXISTS devices_fts_delete;
DROP TRIGGER IF EXISTS devices_fts_update;
DROP TABLE IF EXISTS devices_fts;

CREATE VIRTUAL TABLE devices_fts USING fts5(
  uid, name, model, firmware, tags, uid_terms,
  content = '', contentless_delete = 1, tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);

CREATE TRIGGER devices_fts_insert AFTER INSERT ON devices BEGIN
  INSERT INTO devices_fts (rowid, uid, name, model, firmware, tags, uid_terms)
  VALUES (NEW.rowid, NEW.uid, NEW.name, NEW.model, NEW.firmware, NEW.tags,
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), '0', ' '), '1', ' '), '2', ' '), '3', ' '), '4', ' '), '5', ' '), '6', ' '), '7', ' '), '8', ' '), '9', ' '), '-', ' '), '.', ' '), '_', ' ') || (' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')) || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace((' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '));
END;

CREATE TRIGGER devices_fts_delete AFTER DELETE ON devices BEGIN
  DELETE FROM devices_fts WHERE rowid = OLD.rowid;
END;

CREATE TRIGGER devices_fts_update AFTER UPDATE OF uid, name, model, firmware, tags ON devices BEGIN
  DELETE FROM devices_fts WHERE rowid = OLD.rowid;
  INSERT INTO devices_fts (rowid, uid, name, model, firmware, tags, uid_terms)
  VALUES (NEW.rowid, NEW.uid, NEW.name, NEW.model, NEW.firmware, NEW.tags,
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), '0', ' '), '1', ' '), '2', ' '), '3', ' '), '4', ' '), '5', ' '), '6', ' '), '7', ' '), '8', ' '), '9', ' '), '-', ' '), '.', ' '), '_', ' ') || (' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')) || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace((' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(NEW.uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '));
END;

-- Fill it from the radios there are (the same expression over each row).
INSERT INTO devices_fts (rowid, uid, name, model, firmware, tags, uid_terms)
SELECT rowid, uid, name, model, firmware, tags,
  replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(uid), '0', ' '), '1', ' '), '2', ' '), '3', ' '), '4', ' '), '5', ' '), '6', ' '), '7', ' '), '8', ' '), '9', ' '), '-', ' '), '.', ' '), '_', ' ') || (' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')) || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace((' ' || replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(lower(uid), 'a', ' '), 'b', ' '), 'c', ' '), 'd', ' '), 'e', ' '), 'f', ' '), 'g', ' '), 'h', ' '), 'i', ' '), 'j', ' '), 'k', ' '), 'l', ' '), 'm', ' '), 'n', ' '), 'o', ' '), 'p', ' '), 'q', ' '), 'r', ' '), 's', ' '), 't', ' '), 'u', ' '), 'v', ' '), 'w', ' '), 'x', ' '), 'y', ' '), 'z', ' '), '-', ' '), '.', ' '), '_', ' ')), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' '), ' 0', ' ')
FROM devices;

-- Commands: a delivered command whose radio never reports expires too (code "no-report"), so
-- the expiry sweep's partial index now holds delivered commands beside the waiting ones.
DROP INDEX IF EXISTS commands_expiry;
CREATE INDEX commands_expiry ON commands(expires_at) WHERE state IN ('queued', 'sent', 'delivered');

-- Deployments: radios that never report time out (DESIGN.md §7 "timed out"). Still nothing is
-- written per radio: a deployment remembers up to which phase its silent radios have timed out
-- (timed_out_phase, -1 none) and when the phases opened so far time out (timeout_at, set when a
-- phase opens, marked by the DeploymentClock alarm and the cron safety net).
ALTER TABLE deployments ADD COLUMN timed_out_phase INTEGER NOT NULL DEFAULT -1;
ALTER TABLE deployments ADD COLUMN timeout_at TEXT;
CREATE INDEX deployments_timeout ON deployments(timeout_at) WHERE timeout_at IS NOT NULL;
-- Deployments already open start their clock now.
UPDATE deployments SET timeout_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now', '+1 day') WHERE state IN ('running', 'paused', 'finished');
