-- Issue 25: the radios a deployment is for (src/schema/fleet/deployment-target.ts), frozen at
-- confirmation as JSON: conditions on the radio's row, or "the failed radios of deployment X".
-- NULL: every radio of the account, as every deployment before. One column, so confirming stays
-- one row whatever the target's size; the engine evaluates it when a radio checks in.
ALTER TABLE deployments ADD COLUMN target TEXT CHECK (target IS NULL OR json_valid(target));
