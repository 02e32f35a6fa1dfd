-- Issue 24: an account's radios by sync × contact state (and site), counted off the request path
-- for large accounts (src/server/data/sync-snapshots.ts). Counting a million radios' states takes
-- seconds; a page reads these few rows instead and says when they were counted. Small accounts
-- have no snapshot and are counted live (exact). Written by the scheduled trigger when due (a
-- minute per 200,000 radios), 25,000 radios a statement; rows written: the account's groups (a
-- few dozen) and the radios whose state changed (radio_sync_states below), not every radio.
CREATE TABLE sync_snapshots (
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  site_id     TEXT NOT NULL,  -- '' for radios at no site
  sync        TEXT NOT NULL,
  contact     TEXT NOT NULL,
  radios      INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id, sync, contact)
) WITHOUT ROWID;

-- When each account's snapshot was counted (a row per account that has one).
CREATE TABLE sync_snapshot_times (
  account_id  TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  as_of       TEXT NOT NULL,
  radios      INTEGER NOT NULL
);

-- Each radio's sync state as of its account's snapshot (large accounts only), written only where it
-- changed: the inventory's sync filter reads it by index instead of evaluating every radio, so a
-- rare or empty state costs what its matches do, and the list agrees with the counts.
CREATE TABLE radio_sync_states (
  uid         TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  sync        TEXT NOT NULL
) WITHOUT ROWID;
CREATE INDEX radio_sync_states_account ON radio_sync_states(account_id, sync, uid);
