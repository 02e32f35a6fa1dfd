-- Check-ins answered from the DeviceShard's memory (issue 24): a shard answers a radio's
-- unchanged check-in without D1 while its account's fleet version stays the same, so the version
-- must move on every write that changes a check-in's answer. A hand-over (redirect) did not move
-- it (the answer read the row each time); now it does, like the columns 0024 names.
DROP TRIGGER fleet_version_device_update;

CREATE TRIGGER fleet_version_device_update AFTER UPDATE OF status, secret_hash, account_id, site_id, location_id,
  model, tags, attributes_changed_at, deployed_site_id, deployed_location_id, deployed_model, deployed_tags,
  redirect_url, redirect_confirmed_at ON devices
WHEN OLD.status IS NOT NEW.status OR OLD.secret_hash IS NOT NEW.secret_hash OR OLD.account_id IS NOT NEW.account_id
  OR OLD.site_id IS NOT NEW.site_id OR OLD.location_id IS NOT NEW.location_id
  OR OLD.model IS NOT NEW.model OR OLD.tags IS NOT NEW.tags OR OLD.attributes_changed_at IS NOT NEW.attributes_changed_at
  OR OLD.deployed_site_id IS NOT NEW.deployed_site_id OR OLD.deployed_location_id IS NOT NEW.deployed_location_id
  OR OLD.deployed_model IS NOT NEW.deployed_model OR OLD.deployed_tags IS NOT NEW.deployed_tags
  OR OLD.redirect_url IS NOT NEW.redirect_url OR OLD.redirect_confirmed_at IS NOT NEW.redirect_confirmed_at
BEGIN
  INSERT INTO fleet_versions (account_id, version) SELECT OLD.account_id, 1 WHERE OLD.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET version = version + 1;
  INSERT INTO fleet_versions (account_id, version) SELECT NEW.account_id, 1
    WHERE NEW.account_id IS NOT NULL AND NEW.account_id IS NOT OLD.account_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
