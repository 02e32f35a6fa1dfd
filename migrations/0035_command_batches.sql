-- Bulk command batches (issue 25): a bulk send is a batch with its own page. One row per batch
-- says who sent what to which target; the commands keep batch_id. A retry of the failed is a
-- new batch whose retry_of names the original.
CREATE TABLE command_batches (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES organizations(id),
  -- The account whose registry it was sent from; NULL for the organization's inventory.
  account_id       TEXT,
  type             TEXT NOT NULL,
  params           TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  -- The target as sent: {"uids": n} for a selection, {"filter": {...}} for a filter, {"retryOf": id}.
  target           TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(target)),
  retry_of         TEXT REFERENCES command_batches(id),
  created_by       TEXT NOT NULL,
  created_by_email TEXT NOT NULL,
  created_at       TEXT NOT NULL,
  expires_at       TEXT NOT NULL
);
CREATE INDEX command_batches_org_time ON command_batches(org_id, created_at DESC, id DESC);
CREATE INDEX command_batches_account_time ON command_batches(account_id, created_at DESC, id DESC);
-- Counts per state of one batch read from this index alone (a covering GROUP BY), and the
-- radios of one state paged by uid; cancel finds the undelivered rows through it too.
CREATE INDEX commands_batch_state ON commands(batch_id, state, uid) WHERE batch_id IS NOT NULL;
