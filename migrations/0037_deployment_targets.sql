-- Issue 25: the radios a deployment is for (src/schema/fleet/deployment-target.ts), frozen at
-- confirmation as JSON: conditions on the radio's row, or "the failed radios of deployment X".
-- NULL: every radio of the account, as every deployment before. One column, so confirming stays
-- one row whatever the target's size; the engine evaluates it when a radio checks in.
ALTER TABLE deployments ADD COLUMN target TEXT CHECK (target IS NULL OR json_valid(target));

-- A target's radios per phase (the confirm page) read their rollout bucket from this index
-- instead of computing the 64-term hash of each radio (bench/fleet/confirm-target.bench.test.ts):
-- the group index of 0032 with the bucket at its end, so a place/firmware/model target and its
-- phase ranges are counted from the index alone.
DROP INDEX devices_account_site_firmware;
CREATE INDEX devices_account_site_firmware ON devices(account_id, status, site_id, firmware, model, rollout_bucket);
