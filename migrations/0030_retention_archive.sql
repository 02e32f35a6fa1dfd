-- Storage that never fills (issue 24): each account keeps its activity entries, final commands
-- and per-radio deployment outcomes in D1 for `retention_months` (default 13); the scheduled
-- trigger moves older ones to R2 as gzip NDJSON (src/server/retention) and records each object
-- here before the rows leave D1.
ALTER TABLE accounts ADD COLUMN retention_months INTEGER NOT NULL DEFAULT 13 CHECK (retention_months BETWEEN 1 AND 120);
-- When the sweep last found nothing left to archive in the account (the sweep takes the
-- longest-unchecked accounts first, a few per run).
ALTER TABLE accounts ADD COLUMN retention_checked_at TEXT NOT NULL DEFAULT '';
CREATE INDEX accounts_retention_checked ON accounts(retention_checked_at);

-- One archive object: what it holds (kind, month, time range, first and last key), how much,
-- its SHA-256 as read back from R2, and its key. Written in the same batch that deletes the rows.
CREATE TABLE archives (
  id             TEXT PRIMARY KEY,
  org_id         TEXT NOT NULL,
  account_id     TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  kind           TEXT NOT NULL CHECK (kind IN ('activity', 'commands', 'deployment-outcomes')),
  month          TEXT NOT NULL,
  first_at       TEXT NOT NULL,
  last_at        TEXT NOT NULL,
  first_key      TEXT NOT NULL,
  last_key       TEXT NOT NULL,
  deployment_id  TEXT,
  row_count      INTEGER NOT NULL,
  bytes          INTEGER NOT NULL,
  sha256         TEXT NOT NULL,
  r2_key         TEXT NOT NULL UNIQUE,
  created_at     TEXT NOT NULL
);
CREATE INDEX archives_account_kind ON archives(account_id, kind, month DESC, first_at DESC);

-- A deployment's counts per phase and state when its outcomes were archived (the deployment
-- page shows these once the rows are gone). Apart from deployments: writing it fires no trigger.
CREATE TABLE deployment_archived_counts (
  deployment_id  TEXT PRIMARY KEY REFERENCES deployments(id) ON DELETE CASCADE,
  counts         TEXT NOT NULL CHECK (json_valid(counts))
);

-- Present (one row) only inside the batch that deletes archived rows: the delete triggers of the
-- roll-ups, the pending-changes counter and the fleet version skip those deletes, so report
-- totals still count what moved to R2 and no radio's answer changes. Any other delete (an
-- account or radio removed) still moves them.
CREATE TABLE archive_deleting (id INTEGER PRIMARY KEY CHECK (id = 1));

DROP TRIGGER activity_pending_delete;
CREATE TRIGGER activity_pending_delete AFTER DELETE ON activity_logs
  WHEN (OLD.deployable = 1 AND OLD.deployment_id IS NULL) AND NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE pending_change_counts SET count = count - 1 WHERE account_id = OLD.account_id;
END;

DROP TRIGGER report_commands_delete;
CREATE TRIGGER report_commands_delete AFTER DELETE ON commands WHEN (OLD.account_id IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE report_command_counts SET succeeded = succeeded - (OLD.state = 'succeeded'), failed = failed - (OLD.state = 'failed'),
      expired = expired - (OLD.state = 'expired'), cancelled = cancelled - (OLD.state = 'cancelled'), waiting = waiting - (OLD.state IN ('queued', 'sent', 'delivered')),
      delivered = delivered - (OLD.delivered_at IS NOT NULL), deliver_seconds = deliver_seconds - ifnull((julianday(OLD.delivered_at) - julianday(OLD.created_at)) * 86400.0, 0)
    WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND type = OLD.type;
  DELETE FROM report_command_counts WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND type = OLD.type AND succeeded + failed + expired + cancelled + waiting = 0;
  UPDATE report_command_counts SET succeeded = succeeded - (OLD.state = 'succeeded'), failed = failed - (OLD.state = 'failed'),
      expired = expired - (OLD.state = 'expired'), cancelled = cancelled - (OLD.state = 'cancelled'), waiting = waiting - (OLD.state IN ('queued', 'sent', 'delivered')),
      delivered = delivered - (OLD.delivered_at IS NOT NULL), deliver_seconds = deliver_seconds - ifnull((julianday(OLD.delivered_at) - julianday(OLD.created_at)) * 86400.0, 0)
    WHERE account_id = OLD.account_id AND grain = 'ht' AND bucket = substr(OLD.created_at, 1, 13) AND type = '';
  DELETE FROM report_command_counts WHERE account_id = OLD.account_id AND grain = 'ht' AND bucket = substr(OLD.created_at, 1, 13) AND type = '' AND succeeded + failed + expired + cancelled + waiting = 0;
  UPDATE report_command_counts SET succeeded = succeeded - (OLD.state = 'succeeded'), failed = failed - (OLD.state = 'failed'),
      expired = expired - (OLD.state = 'expired'), cancelled = cancelled - (OLD.state = 'cancelled'), waiting = waiting - (OLD.state IN ('queued', 'sent', 'delivered')),
      delivered = delivered - (OLD.delivered_at IS NOT NULL), deliver_seconds = deliver_seconds - ifnull((julianday(OLD.delivered_at) - julianday(OLD.created_at)) * 86400.0, 0)
    WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND type = OLD.type;
  DELETE FROM report_command_counts WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND type = OLD.type AND succeeded + failed + expired + cancelled + waiting = 0;
  UPDATE report_command_counts SET succeeded = succeeded - (OLD.state = 'succeeded'), failed = failed - (OLD.state = 'failed'),
      expired = expired - (OLD.state = 'expired'), cancelled = cancelled - (OLD.state = 'cancelled'), waiting = waiting - (OLD.state IN ('queued', 'sent', 'delivered')),
      delivered = delivered - (OLD.delivered_at IS NOT NULL), deliver_seconds = deliver_seconds - ifnull((julianday(OLD.delivered_at) - julianday(OLD.created_at)) * 86400.0, 0)
    WHERE account_id = OLD.account_id AND grain = 'dt' AND bucket = substr(OLD.created_at, 1, 10) AND type = '';
  DELETE FROM report_command_counts WHERE account_id = OLD.account_id AND grain = 'dt' AND bucket = substr(OLD.created_at, 1, 10) AND type = '' AND succeeded + failed + expired + cancelled + waiting = 0;
END;

DROP TRIGGER report_activity_totals_delete;
CREATE TRIGGER report_activity_totals_delete AFTER DELETE ON activity_logs WHEN (OLD.account_id IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE report_activity_people_upto
    SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'), deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email AND hour >= substr(OLD.created_at, 1, 13);
  DELETE FROM report_activity_people_upto
    WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email AND hour = substr(OLD.created_at, 1, 13)
      AND creates + updates + deletes = ifnull((SELECT u.creates + u.updates + u.deletes FROM report_activity_people_upto u
        WHERE u.account_id = OLD.account_id AND u.actor_email = OLD.actor_email AND u.hour < substr(OLD.created_at, 1, 13)
        ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_activity_persons SET changes = changes - 1 WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_persons WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email AND changes = 0;
END;

DROP TRIGGER report_deployment_reach_upto_delete;
CREATE TRIGGER report_deployment_reach_upto_delete AFTER DELETE ON deployment_devices
WHEN (OLD.state IN ('applied', 'already_in_sync')) AND NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE report_deployment_reach_upto SET radios = radios - 1
    WHERE 1 AND deployment_id = OLD.deployment_id AND second >= substr(OLD.updated_at, 1, 19);
  DELETE FROM report_deployment_reach_upto
    WHERE deployment_id = OLD.deployment_id AND second = substr(OLD.updated_at, 1, 19)
      AND radios = ifnull((SELECT u.radios FROM report_deployment_reach_upto u
        WHERE u.deployment_id = OLD.deployment_id AND u.second < substr(OLD.updated_at, 1, 19) ORDER BY u.second DESC LIMIT 1), 0);
END;

DROP TRIGGER report_deployment_devices_delete;
CREATE TRIGGER report_deployment_devices_delete AFTER DELETE ON deployment_devices
WHEN NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE report_deployment_counts SET radios = radios - 1
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code;
  DELETE FROM report_deployment_counts
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code AND radios = 0;
END;

DROP TRIGGER report_activity_delete;
CREATE TRIGGER report_activity_delete AFTER DELETE ON activity_logs WHEN (OLD.account_id IS NOT NULL) AND NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  UPDATE report_activity_kinds SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND entity_type = OLD.entity_type;
  DELETE FROM report_activity_kinds WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND entity_type = OLD.entity_type AND creates + updates + deletes = 0;
  UPDATE report_activity_kinds SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'ht' AND bucket = substr(OLD.created_at, 1, 13) AND entity_type = '';
  DELETE FROM report_activity_kinds WHERE account_id = OLD.account_id AND grain = 'ht' AND bucket = substr(OLD.created_at, 1, 13) AND entity_type = '' AND creates + updates + deletes = 0;
  UPDATE report_activity_kinds SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND entity_type = OLD.entity_type;
  DELETE FROM report_activity_kinds WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND entity_type = OLD.entity_type AND creates + updates + deletes = 0;
  UPDATE report_activity_kinds SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'dt' AND bucket = substr(OLD.created_at, 1, 10) AND entity_type = '';
  DELETE FROM report_activity_kinds WHERE account_id = OLD.account_id AND grain = 'dt' AND bucket = substr(OLD.created_at, 1, 10) AND entity_type = '' AND creates + updates + deletes = 0;
END;

DROP TRIGGER fleet_version_report_delete;
CREATE TRIGGER fleet_version_report_delete AFTER DELETE ON deployment_devices
WHEN NOT EXISTS (SELECT 1 FROM archive_deleting)
BEGIN
  INSERT INTO fleet_versions (account_id, version)
    SELECT account_id, 1 FROM deployments WHERE id = OLD.deployment_id
    ON CONFLICT DO UPDATE SET version = version + 1;
END;
