-- Issue 25: bookkeeping writes to a deployment leave the account's fleet version alone.
-- Every change of a deployment moved the version (0024), sending every radio of the account
-- through the full check-in (a D1 read each). Two writes tell no radio anything new:
-- - a pace step (pace_at moves): once a minute while a paced phase opens, which at 1,000,000
--   radios was the whole fleet's reads again each minute. The engine names the radios a step
--   offers in radio_changes (0031) in the same batch (data/deployments.ts paceOfferedChangesStatement);
-- - the count of a targeted deployment's radios, filled in by the clock after confirming
--   (targeted moves from -1), so a confirm never counts its target (data/deployments.ts).
-- Anything that changes the state, the phase or the version (every decision) moves it as before.
DROP TRIGGER fleet_version_deployment_update;
CREATE TRIGGER fleet_version_deployment_update AFTER UPDATE ON deployments
WHEN NOT (NEW.state IS OLD.state AND NEW.phase_index IS OLD.phase_index AND NEW.version IS OLD.version
  AND (NEW.pace_at IS NOT OLD.pace_at OR NEW.targeted IS NOT OLD.targeted))
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;

-- Targeted deployments whose radios are still to be counted (targeted = -1): a handful at most.
CREATE INDEX deployments_counting ON deployments(id) WHERE targeted < 0;
