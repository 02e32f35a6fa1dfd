-- Issue 25: a pace step tells only the radios it offers. Every change of a deployment moved the
-- account's fleet version (0024), sending every radio of the account through the full check-in
-- (a D1 read each) — once a minute for as long as a paced phase opens, which at 1,000,000 radios
-- is the whole fleet's reads again each minute. A pace step (pace_at moves while the state, phase
-- and version stay) now leaves the version alone; the engine names the radios it offers in
-- radio_changes (0031) in the same batch (data/deployments.ts paceOfferedChangesStatement).
DROP TRIGGER fleet_version_deployment_update;
CREATE TRIGGER fleet_version_deployment_update AFTER UPDATE ON deployments
WHEN NOT (NEW.pace_at IS NOT OLD.pace_at AND NEW.state IS OLD.state AND NEW.phase_index IS OLD.phase_index
  AND NEW.version IS OLD.version)
BEGIN
  INSERT INTO fleet_versions (account_id, version) VALUES (NEW.account_id, 1)
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
