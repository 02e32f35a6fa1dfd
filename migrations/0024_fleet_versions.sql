-- A per-account fleet version (issue 12): it moves on every write that can change what a radio
-- of the account should get or whether its credentials hold. GET /device/v1/config answers 304
-- from a signed ETag that carries the version, with the version cached per isolate for a few
-- seconds (src/server/fleet/config-token.ts): no D1 call while nothing moved. Triggers keep it,
-- so no write path can forget it. A check-in's last-seen, battery, signal and firmware do not.

CREATE TABLE fleet_versions (
  account_id  TEXT PRIMARY KEY,
  version     INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO fleet_versions (account_id, version) SELECT id, 1 FROM accounts;

CREATE TRIGGER fleet_version_device_insert AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_device_delete AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

-- The columns radioState reads (and the credentials): a move bumps the old and the new account.
-- rollout_bucket is generated from the uid, which never changes.
CREATE TRIGGER fleet_version_device_update AFTER UPDATE OF status, secret_hash, account_id, site_id, location_id,
  model, tags, attributes_changed_at, deployed_site_id, deployed_location_id, deployed_model, deployed_tags ON devices
WHEN OLD.status IS NOT NEW.status OR OLD.secret_hash IS NOT NEW.secret_hash OR OLD.account_id IS NOT NEW.account_id
  OR OLD.site_id IS NOT NEW.site_id OR OLD.location_id IS NOT NEW.location_id
  OR OLD.model IS NOT NEW.model OR OLD.tags IS NOT NEW.tags OR OLD.attributes_changed_at IS NOT NEW.attributes_changed_at
  OR OLD.deployed_site_id IS NOT NEW.deployed_site_id OR OLD.deployed_location_id IS NOT NEW.deployed_location_id
  OR OLD.deployed_model IS NOT NEW.deployed_model OR OLD.deployed_tags IS NOT NEW.deployed_tags
BEGIN
  INSERT INTO fleet_versions (account_id, version) SELECT OLD.account_id, 1 WHERE OLD.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO fleet_versions (account_id, version) SELECT NEW.account_id, 1
    WHERE NEW.account_id IS NOT NULL AND NEW.account_id IS NOT OLD.account_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_deployment_insert AFTER INSERT ON deployments
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_deployment_update AFTER UPDATE ON deployments
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_deployment_delete AFTER DELETE ON deployments
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (OLD.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

-- A radio's own report changes the deployment it should follow.
CREATE TRIGGER fleet_version_report_insert AFTER INSERT ON deployment_devices
BEGIN
  INSERT INTO fleet_versions (account_id, version)
    SELECT account_id, 1 FROM deployments WHERE id = NEW.deployment_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_report_update AFTER UPDATE ON deployment_devices
BEGIN
  INSERT INTO fleet_versions (account_id, version)
    SELECT account_id, 1 FROM deployments WHERE id = NEW.deployment_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

CREATE TRIGGER fleet_version_report_delete AFTER DELETE ON deployment_devices
BEGIN
  INSERT INTO fleet_versions (account_id, version)
    SELECT account_id, 1 FROM deployments WHERE id = OLD.deployment_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
