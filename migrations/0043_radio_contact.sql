-- Issue 24: an idle radio's contact costs one row written, not seven. `last_seen_at` is in five
-- indexes and the last-seen report's running totals (0023/0027), so moving it every 15 minutes
-- cost 6–12 rows a write. It now moves only when a radio's contact *state* changes:
-- - in contact: `last_seen_at` holds the marker below and the fine time is in `contact_at`
--   (no index, no trigger: the shard's batched contact write sets it alone);
-- - out of contact for an hour: the contact sweep (scheduled trigger) copies `contact_at` into
--   `last_seen_at`, which then holds the real last contact again; NULL still means never seen.
-- The last contact is therefore `CASE last_seen_at WHEN marker THEN contact_at ELSE last_seen_at END`
-- (src/server/data/radio-contact.ts). Rows written before this keep their real `last_seen_at`:
-- a valid "out of contact" state, which each radio leaves at its next contact.
ALTER TABLE devices ADD COLUMN contact_at TEXT;

-- The radios in contact, in uid order, for the sweep's slices (it changes only with the state).
CREATE INDEX devices_in_contact ON devices(uid) WHERE last_seen_at = '9999-12-31T23:59:59.999Z';

-- The sweep's current slice of the radios in contact: uids after from_uid, up to upto_uid ('': to
-- the end). One row, written only when the slice moves (never while all fit in one slice).
CREATE TABLE contact_sweep (
  id        INTEGER PRIMARY KEY CHECK (id = 1),
  from_uid  TEXT NOT NULL DEFAULT '',
  upto_uid  TEXT NOT NULL DEFAULT ''
);
INSERT INTO contact_sweep (id) VALUES (1);
