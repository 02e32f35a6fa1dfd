-- Reports at any fleet size (issue 14): figures read from roll-ups kept by triggers, so a report
-- of a 99,000-radio account reads about as many rows as one of 1,000 radios. Every roll-up is
-- exact: a trigger moves a row's contribution in the same statement that changes the row, and
-- rows that fall to zero are deleted. NULL keys are stored as '' (primary key columns).
--
-- Timeless groupings: radios by site, location, model and firmware; deployment outcomes by
-- phase, state and reason. Over time: commands and configuration changes per UTC hour and per
-- UTC day; a report sums the whole days and the whole hours of each stretch of the account's
-- local days (spansTable in src/server/data/reports/range.ts), and counts the rows themselves
-- only in the part of an hour a zone with a :30/:45 offset cuts.
-- Time-dependent figures (last seen a day/week/month ago, overdue): radios by the UTC day they
-- were last seen; the days wholly on one side of a cutoff come from the roll-up, the one day a
-- cutoff falls in is counted from devices_account_seen_place (an index range). The day only
-- changes once a day per radio, so check-ins (last seen written at most once a minute) rarely
-- touch the roll-up. A cron-kept snapshot would be flatter but stale; these stay exact.

-- 1. Active radios of an account by site, location, model and firmware.
CREATE TABLE report_device_counts (
  account_id   TEXT NOT NULL,
  site_id      TEXT NOT NULL,
  location_id  TEXT NOT NULL,
  model        TEXT NOT NULL,
  firmware     TEXT NOT NULL,
  radios       INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id, location_id, model, firmware)
) WITHOUT ROWID;

-- 2. Active radios of an account by site, the UTC day last seen ('' never) and reported revision.
CREATE TABLE report_device_seen (
  account_id   TEXT NOT NULL,
  site_id      TEXT NOT NULL,
  seen_day     TEXT NOT NULL,
  revision     TEXT NOT NULL,
  radios       INTEGER NOT NULL,
  PRIMARY KEY (account_id, seen_day, site_id, revision)
) WITHOUT ROWID;
-- The radios seen in one day (a cutoff's day), by site and revision, without reading the rows.
CREATE INDEX devices_account_seen_place ON devices(account_id, status, last_seen_at, site_id, reported_revision);

CREATE TRIGGER report_devices_insert AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL AND NEW.status = 'active'
BEGIN
  INSERT INTO report_device_counts (account_id, site_id, location_id, model, firmware, radios)
    VALUES (NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.location_id, ''), NEW.model, NEW.firmware, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
  INSERT INTO report_device_seen (account_id, site_id, seen_day, revision, radios)
    VALUES (NEW.account_id, ifnull(NEW.site_id, ''), ifnull(substr(NEW.last_seen_at, 1, 10), ''), ifnull(NEW.reported_revision, ''), 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

CREATE TRIGGER report_devices_delete AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL AND OLD.status = 'active'
BEGIN
  UPDATE report_device_counts SET radios = radios - 1
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware;
  DELETE FROM report_device_counts
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware AND radios = 0;
  UPDATE report_device_seen SET radios = radios - 1
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND seen_day = ifnull(substr(OLD.last_seen_at, 1, 10), '')
      AND revision = ifnull(OLD.reported_revision, '');
  DELETE FROM report_device_seen
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND seen_day = ifnull(substr(OLD.last_seen_at, 1, 10), '')
      AND revision = ifnull(OLD.reported_revision, '') AND radios = 0;
END;

CREATE TRIGGER report_devices_update_counts AFTER UPDATE OF account_id, status, site_id, location_id, model, firmware ON devices
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.status IS NOT NEW.status OR OLD.site_id IS NOT NEW.site_id
  OR OLD.location_id IS NOT NEW.location_id OR OLD.model IS NOT NEW.model OR OLD.firmware IS NOT NEW.firmware
BEGIN
  UPDATE report_device_counts SET radios = radios - 1
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active'
      AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware;
  DELETE FROM report_device_counts
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware AND radios = 0;
  INSERT INTO report_device_counts (account_id, site_id, location_id, model, firmware, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.location_id, ''), NEW.model, NEW.firmware, 1
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

CREATE TRIGGER report_devices_update_seen AFTER UPDATE OF account_id, status, site_id, last_seen_at, reported_revision ON devices
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.status IS NOT NEW.status OR OLD.site_id IS NOT NEW.site_id
  OR OLD.reported_revision IS NOT NEW.reported_revision
  OR substr(OLD.last_seen_at, 1, 10) IS NOT substr(NEW.last_seen_at, 1, 10)
BEGIN
  UPDATE report_device_seen SET radios = radios - 1
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active'
      AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND seen_day = ifnull(substr(OLD.last_seen_at, 1, 10), '')
      AND revision = ifnull(OLD.reported_revision, '');
  DELETE FROM report_device_seen
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND seen_day = ifnull(substr(OLD.last_seen_at, 1, 10), '')
      AND revision = ifnull(OLD.reported_revision, '') AND radios = 0;
  INSERT INTO report_device_seen (account_id, site_id, seen_day, revision, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), ifnull(substr(NEW.last_seen_at, 1, 10), ''), ifnull(NEW.reported_revision, ''), 1
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

-- 3. What radios reported about a deployment, by phase, state and reason code.
CREATE TABLE report_deployment_counts (
  deployment_id  TEXT NOT NULL,
  phase          INTEGER NOT NULL,
  state          TEXT NOT NULL,
  code           TEXT NOT NULL,
  radios         INTEGER NOT NULL,
  PRIMARY KEY (deployment_id, phase, state, code)
) WITHOUT ROWID;

-- 4. Radios that have a deployment (applied or already in sync), by the UTC minute they said so:
-- the k-th radio's time is found by summing minutes, then one short probe inside that minute.
CREATE TABLE report_deployment_reach (
  deployment_id  TEXT NOT NULL,
  minute         TEXT NOT NULL,
  radios         INTEGER NOT NULL,
  PRIMARY KEY (deployment_id, minute)
) WITHOUT ROWID;

CREATE TRIGGER report_deployment_devices_insert AFTER INSERT ON deployment_devices
BEGIN
  INSERT INTO report_deployment_counts (deployment_id, phase, state, code, radios)
    VALUES (NEW.deployment_id, NEW.phase, NEW.state, NEW.code, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
  INSERT INTO report_deployment_reach (deployment_id, minute, radios)
    SELECT NEW.deployment_id, substr(NEW.updated_at, 1, 16), 1 WHERE NEW.state IN ('applied', 'already_in_sync')
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

CREATE TRIGGER report_deployment_devices_delete AFTER DELETE ON deployment_devices
BEGIN
  UPDATE report_deployment_counts SET radios = radios - 1
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code;
  DELETE FROM report_deployment_counts
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code AND radios = 0;
  UPDATE report_deployment_reach SET radios = radios - 1
    WHERE OLD.state IN ('applied', 'already_in_sync') AND deployment_id = OLD.deployment_id AND minute = substr(OLD.updated_at, 1, 16);
  DELETE FROM report_deployment_reach
    WHERE deployment_id = OLD.deployment_id AND minute = substr(OLD.updated_at, 1, 16) AND radios = 0;
END;

CREATE TRIGGER report_deployment_devices_update AFTER UPDATE OF deployment_id, phase, state, code, updated_at ON deployment_devices
BEGIN
  UPDATE report_deployment_counts SET radios = radios - 1
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code;
  DELETE FROM report_deployment_counts
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code AND radios = 0;
  INSERT INTO report_deployment_counts (deployment_id, phase, state, code, radios)
    VALUES (NEW.deployment_id, NEW.phase, NEW.state, NEW.code, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
  UPDATE report_deployment_reach SET radios = radios - 1
    WHERE OLD.state IN ('applied', 'already_in_sync') AND deployment_id = OLD.deployment_id AND minute = substr(OLD.updated_at, 1, 16);
  DELETE FROM report_deployment_reach
    WHERE deployment_id = OLD.deployment_id AND minute = substr(OLD.updated_at, 1, 16) AND radios = 0;
  INSERT INTO report_deployment_reach (deployment_id, minute, radios)
    SELECT NEW.deployment_id, substr(NEW.updated_at, 1, 16), 1 WHERE NEW.state IN ('applied', 'already_in_sync')
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

-- 5. Commands of an account by the UTC hour (grain 'h', bucket 'YYYY-MM-DDTHH') and the UTC day
-- (grain 'd', bucket 'YYYY-MM-DD') they were sent, by type; 'ht' and 'dt' hold the same over all
-- types (type ''). Outcomes, and the radios' delivery times (sum and count, for the mean).
CREATE TABLE report_command_counts (
  account_id       TEXT NOT NULL,
  grain            TEXT NOT NULL CHECK (grain IN ('h', 'd', 'ht', 'dt')),
  bucket           TEXT NOT NULL,
  type             TEXT NOT NULL,
  succeeded        INTEGER NOT NULL,
  failed           INTEGER NOT NULL,
  expired          INTEGER NOT NULL,
  cancelled        INTEGER NOT NULL,
  waiting          INTEGER NOT NULL,
  delivered        INTEGER NOT NULL,
  deliver_seconds  REAL NOT NULL,
  PRIMARY KEY (account_id, grain, bucket, type)
) WITHOUT ROWID;

CREATE TRIGGER report_commands_insert AFTER INSERT ON commands WHEN NEW.account_id IS NOT NULL
BEGIN
  INSERT INTO report_command_counts (account_id, grain, bucket, type, succeeded, failed, expired, cancelled, waiting, delivered, deliver_seconds)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.state = 'succeeded', NEW.state = 'failed', NEW.state = 'expired', NEW.state = 'cancelled',
      NEW.state IN ('queued', 'sent', 'delivered'), NEW.delivered_at IS NOT NULL, ifnull((julianday(NEW.delivered_at) - julianday(NEW.created_at)) * 86400.0, 0)
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed,
      expired = expired + excluded.expired, cancelled = cancelled + excluded.cancelled, waiting = waiting + excluded.waiting,
      delivered = delivered + excluded.delivered, deliver_seconds = deliver_seconds + excluded.deliver_seconds;
END;

CREATE TRIGGER report_commands_delete AFTER DELETE ON commands WHEN OLD.account_id IS NOT NULL
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

CREATE TRIGGER report_commands_update AFTER UPDATE OF account_id, created_at, type, state, delivered_at ON commands
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.created_at IS NOT NEW.created_at OR OLD.type IS NOT NEW.type
  OR OLD.state IS NOT NEW.state OR OLD.delivered_at IS NOT NEW.delivered_at
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
  INSERT INTO report_command_counts (account_id, grain, bucket, type, succeeded, failed, expired, cancelled, waiting, delivered, deliver_seconds)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.state = 'succeeded', NEW.state = 'failed', NEW.state = 'expired', NEW.state = 'cancelled',
      NEW.state IN ('queued', 'sent', 'delivered'), NEW.delivered_at IS NOT NULL, ifnull((julianday(NEW.delivered_at) - julianday(NEW.created_at)) * 86400.0, 0)
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET succeeded = succeeded + excluded.succeeded, failed = failed + excluded.failed,
      expired = expired + excluded.expired, cancelled = cancelled + excluded.cancelled, waiting = waiting + excluded.waiting,
      delivered = delivered + excluded.delivered, deliver_seconds = deliver_seconds + excluded.deliver_seconds;
END;

-- 6. Configuration changes of an account by UTC hour and day (grains as for commands), by
-- person, and by kind of thing ('ht' and 'dt': over all kinds, entity_type '').
CREATE TABLE report_activity_people (
  account_id   TEXT NOT NULL,
  grain        TEXT NOT NULL CHECK (grain IN ('h', 'd')),
  bucket       TEXT NOT NULL,
  actor_email  TEXT NOT NULL,
  creates      INTEGER NOT NULL,
  updates      INTEGER NOT NULL,
  deletes      INTEGER NOT NULL,
  PRIMARY KEY (account_id, grain, bucket, actor_email)
) WITHOUT ROWID;

CREATE TABLE report_activity_kinds (
  account_id   TEXT NOT NULL,
  grain        TEXT NOT NULL CHECK (grain IN ('h', 'd', 'ht', 'dt')),
  bucket       TEXT NOT NULL,
  entity_type  TEXT NOT NULL,
  creates      INTEGER NOT NULL,
  updates      INTEGER NOT NULL,
  deletes      INTEGER NOT NULL,
  PRIMARY KEY (account_id, grain, bucket, entity_type)
) WITHOUT ROWID;

CREATE TRIGGER report_activity_insert AFTER INSERT ON activity_logs WHEN NEW.account_id IS NOT NULL
BEGIN
  INSERT INTO report_activity_people (account_id, grain, bucket, actor_email, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.actor_email AS label UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.actor_email) k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
  INSERT INTO report_activity_kinds (account_id, grain, bucket, entity_type, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.entity_type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.entity_type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
END;

CREATE TRIGGER report_activity_delete AFTER DELETE ON activity_logs WHEN OLD.account_id IS NOT NULL
BEGIN
  UPDATE report_activity_people SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_people WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND actor_email = OLD.actor_email AND creates + updates + deletes = 0;
  UPDATE report_activity_people SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_people WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND actor_email = OLD.actor_email AND creates + updates + deletes = 0;
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

-- Entries are written once; should one be corrected, its contribution moves like a delete and an insert.
CREATE TRIGGER report_activity_update AFTER UPDATE OF account_id, created_at, actor_email, entity_type, action ON activity_logs
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.created_at IS NOT NEW.created_at OR OLD.actor_email IS NOT NEW.actor_email
  OR OLD.entity_type IS NOT NEW.entity_type OR OLD.action IS NOT NEW.action
BEGIN
  UPDATE report_activity_people SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_people WHERE account_id = OLD.account_id AND grain = 'h' AND bucket = substr(OLD.created_at, 1, 13) AND actor_email = OLD.actor_email AND creates + updates + deletes = 0;
  UPDATE report_activity_people SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'),
      deletes = deletes - (OLD.action = 'delete')
    WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_people WHERE account_id = OLD.account_id AND grain = 'd' AND bucket = substr(OLD.created_at, 1, 10) AND actor_email = OLD.actor_email AND creates + updates + deletes = 0;
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
  INSERT INTO report_activity_people (account_id, grain, bucket, actor_email, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.actor_email AS label UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.actor_email) k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
  INSERT INTO report_activity_kinds (account_id, grain, bucket, entity_type, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.entity_type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.entity_type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
END;

INSERT INTO report_command_counts
  SELECT account_id, 'h', substr(created_at, 1, 13), type, sum(state = 'succeeded'), sum(state = 'failed'), sum(state = 'expired'),
    sum(state = 'cancelled'), sum(state IN ('queued', 'sent', 'delivered')), sum(delivered_at IS NOT NULL),
    total((julianday(delivered_at) - julianday(created_at)) * 86400.0)
  FROM commands WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_command_counts
  SELECT account_id, 'ht', substr(created_at, 1, 13), '', sum(state = 'succeeded'), sum(state = 'failed'), sum(state = 'expired'),
    sum(state = 'cancelled'), sum(state IN ('queued', 'sent', 'delivered')), sum(delivered_at IS NOT NULL),
    total((julianday(delivered_at) - julianday(created_at)) * 86400.0)
  FROM commands WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_command_counts
  SELECT account_id, 'd', substr(created_at, 1, 10), type, sum(state = 'succeeded'), sum(state = 'failed'), sum(state = 'expired'),
    sum(state = 'cancelled'), sum(state IN ('queued', 'sent', 'delivered')), sum(delivered_at IS NOT NULL),
    total((julianday(delivered_at) - julianday(created_at)) * 86400.0)
  FROM commands WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_command_counts
  SELECT account_id, 'dt', substr(created_at, 1, 10), '', sum(state = 'succeeded'), sum(state = 'failed'), sum(state = 'expired'),
    sum(state = 'cancelled'), sum(state IN ('queued', 'sent', 'delivered')), sum(delivered_at IS NOT NULL),
    total((julianday(delivered_at) - julianday(created_at)) * 86400.0)
  FROM commands WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_people
  SELECT account_id, 'h', substr(created_at, 1, 13), actor_email, sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_people
  SELECT account_id, 'd', substr(created_at, 1, 10), actor_email, sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_kinds
  SELECT account_id, 'h', substr(created_at, 1, 13), entity_type, sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_kinds
  SELECT account_id, 'ht', substr(created_at, 1, 13), '', sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_kinds
  SELECT account_id, 'd', substr(created_at, 1, 10), entity_type, sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
INSERT INTO report_activity_kinds
  SELECT account_id, 'dt', substr(created_at, 1, 10), '', sum(action = 'create'), sum(action = 'update'), sum(action = 'delete')
  FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3, 4;
