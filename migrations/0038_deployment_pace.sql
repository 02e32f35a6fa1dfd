-- Issue 25: a phase offered at a pace (AWS IoT Jobs' maximumPerMinute, or an exponential rate).
-- paced_to: the rollout buckets [0, paced_to) the pace has offered so far (NULL: the opened phases
-- whole); pace_offered and pace_rate: the radios offered in this phase and the current rate a
-- minute; pace_at: when the clock next widens the range (only while running). One row written a
-- minute whatever the fleet's size (src/schema/fleet/pace-and-retries.ts).
ALTER TABLE deployments ADD COLUMN paced_to INTEGER;
ALTER TABLE deployments ADD COLUMN pace_offered INTEGER NOT NULL DEFAULT 0;
ALTER TABLE deployments ADD COLUMN pace_rate REAL;
ALTER TABLE deployments ADD COLUMN pace_at TEXT;
CREATE INDEX deployments_pace_due ON deployments(pace_at) WHERE pace_at IS NOT NULL;
