-- Commands to radios (DESIGN.md §7, issue 13). One row per (command, radio): a UUID the radio
-- reports against, so a second report of the same thing changes nothing. Each step keeps its
-- time. state: queued → sent → delivered → succeeded | failed, or expired, or cancelled.
CREATE TABLE commands (
  id            TEXT PRIMARY KEY,
  uid           TEXT NOT NULL REFERENCES devices(uid) ON DELETE CASCADE,
  org_id        TEXT NOT NULL REFERENCES organizations(id),
  -- The radio's account when the command was sent (registry history, activity log).
  account_id    TEXT,
  type          TEXT NOT NULL CHECK (type IN ('ping', 'locate', 'message', 'reboot', 'sync', 'stun', 'revive')),
  params        TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(params)),
  -- 0 jumps the queue (stun, revive), 1 waits its turn.
  priority      INTEGER NOT NULL DEFAULT 1 CHECK (priority IN (0, 1)),
  state         TEXT NOT NULL DEFAULT 'queued'
                  CHECK (state IN ('queued', 'sent', 'delivered', 'succeeded', 'failed', 'expired', 'cancelled')),
  result        TEXT CHECK (result IS NULL OR json_valid(result)),
  code          TEXT NOT NULL DEFAULT '' CHECK (length(code) <= 40),
  detail        TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 500),
  -- Commands sent together (a bulk send) share a batch id.
  batch_id      TEXT,
  created_by    TEXT NOT NULL,
  created_by_email TEXT NOT NULL,
  cancelled_by_email TEXT,
  created_at    TEXT NOT NULL,
  expires_at    TEXT NOT NULL,
  sent_at       TEXT,
  delivered_at  TEXT,
  ended_at      TEXT,
  CHECK (expires_at > created_at)
);
-- The radio's queue in order, read in constant time whatever its history (only waiting rows
-- are in this index; at most 50 per radio).
CREATE INDEX commands_waiting ON commands(uid, priority, created_at, id) WHERE state IN ('queued', 'sent');
-- The radio's history, newest first (keyset on created_at, id).
CREATE INDEX commands_history ON commands(uid, created_at DESC, id DESC);
-- The expiry sweep: only commands that can still expire.
CREATE INDEX commands_expiry ON commands(expires_at) WHERE state IN ('queued', 'sent');
CREATE INDEX commands_batch ON commands(batch_id) WHERE batch_id IS NOT NULL;
