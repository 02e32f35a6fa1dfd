-- One radio's change no longer moves its whole account (issue 24). The fleet version (0024)
-- moved on every write that changes what any radio of the account should get, so one radio's
-- edit or report sent every radio of the account through the full check-in (a D1 read each),
-- and every report of a running deployment did so again. Writes that concern one radio now add
-- a row to this log instead; the account's fleet version moves only with its deployments.
-- DeviceShards and the config 304 path read the log since the last seq they saw, at most every
-- 10 s (src/server/fleet/radio-change-log.ts): only the radios named take the full path.
-- AUTOINCREMENT: a seq is never reused, so "no row above my seq names this radio" holds.
CREATE TABLE radio_changes (
  seq  INTEGER PRIMARY KEY AUTOINCREMENT,
  uid  TEXT NOT NULL
);
-- Never empty (the trim keeps the newest row): a reader starting cold knows where the log begins.
INSERT INTO radio_changes (uid) VALUES ('');

DROP TRIGGER fleet_version_device_insert;
CREATE TRIGGER radio_change_device_insert AFTER INSERT ON devices
BEGIN
  INSERT INTO radio_changes (uid) VALUES (NEW.uid);
END;

DROP TRIGGER fleet_version_device_delete;
CREATE TRIGGER radio_change_device_delete AFTER DELETE ON devices
BEGIN
  INSERT INTO radio_changes (uid) VALUES (OLD.uid);
END;

-- The columns a check-in's answer reads, and the credentials (as 0028); the uid never changes.
DROP TRIGGER fleet_version_device_update;
CREATE TRIGGER radio_change_device_update AFTER UPDATE OF status, secret_hash, account_id, site_id, location_id,
  model, tags, attributes_changed_at, deployed_site_id, deployed_location_id, deployed_model, deployed_tags,
  redirect_url, redirect_confirmed_at ON devices
WHEN OLD.status IS NOT NEW.status OR OLD.secret_hash IS NOT NEW.secret_hash OR OLD.account_id IS NOT NEW.account_id
  OR OLD.site_id IS NOT NEW.site_id OR OLD.location_id IS NOT NEW.location_id
  OR OLD.model IS NOT NEW.model OR OLD.tags IS NOT NEW.tags OR OLD.attributes_changed_at IS NOT NEW.attributes_changed_at
  OR OLD.deployed_site_id IS NOT NEW.deployed_site_id OR OLD.deployed_location_id IS NOT NEW.deployed_location_id
  OR OLD.deployed_model IS NOT NEW.deployed_model OR OLD.deployed_tags IS NOT NEW.deployed_tags
  OR OLD.redirect_url IS NOT NEW.redirect_url OR OLD.redirect_confirmed_at IS NOT NEW.redirect_confirmed_at
BEGIN
  INSERT INTO radio_changes (uid) VALUES (NEW.uid);
END;

-- A radio's own report changes the deployment it should follow, and no other radio's answer
-- (a threshold it crosses changes the deployment, which moves the fleet version).
DROP TRIGGER fleet_version_report_insert;
CREATE TRIGGER radio_change_report_insert AFTER INSERT ON deployment_devices
BEGIN
  INSERT INTO radio_changes (uid) VALUES (NEW.uid);
END;

DROP TRIGGER fleet_version_report_update;
CREATE TRIGGER radio_change_report_update AFTER UPDATE ON deployment_devices
BEGIN
  INSERT INTO radio_changes (uid) VALUES (NEW.uid);
END;

-- Keeps 0030's guard: archiving outcomes changes no radio's answer.
DROP TRIGGER fleet_version_report_delete;
CREATE TRIGGER radio_change_report_delete AFTER DELETE ON deployment_devices
WHEN NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  INSERT INTO radio_changes (uid) VALUES (OLD.uid);
END;
