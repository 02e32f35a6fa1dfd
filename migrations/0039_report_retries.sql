-- Issue 25: automatic retries per radio (a plan's `retries`, src/schema/fleet/pace-and-retries.ts).
-- A failure with attempts left is kept as "delivered" (in progress, not a failure against the
-- thresholds) with the attempts used and when the radio may try again; the last attempt's failure
-- is stored as failed, as before.
ALTER TABLE deployment_devices ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deployment_devices ADD COLUMN retry_at TEXT;
