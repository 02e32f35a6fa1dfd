-- Per-address and per-token limits count in a sliding window (src/server/data/sign-in-guards.ts
-- countHit): the hits of the current fixed window plus those of the previous one, weighted by how
-- much of it still overlaps the last windowSeconds. A fixed window alone let twice the limit
-- through in a burst across its boundary (and made the limit tests depend on the wall clock).
ALTER TABLE throttles ADD COLUMN previous_count INTEGER NOT NULL DEFAULT 0;
