-- Reports at any fleet size, part 2 (issue 14): running totals, so a report's cost follows the
-- account's sites × revisions (radios) or its people (changes), not its radios or its changes.
--
-- A running-total table holds, per group, rows (hour, total): "the group's items whose hour is
-- at or before this hour". Rows exist only at hours where an item is; the total at any hour h is
-- the row of the latest hour ≤ h (one index seek), and the items of a stretch [a, b) of whole
-- hours are total(< b) − total(< a). Hours are 'YYYY-MM-DDTHH' (UTC). Adding an item at hour k: a row at k (copy of the total before k) if there is none,
-- then +1 on the rows at or after k; removing: −1 on those rows, and the row at k is dropped when
-- it has become equal to the one before it. So totals rise strictly from row to row, and a group
-- with no items left has no rows. Items nearly always arrive at the newest hour (a check-in, a
-- change made now), so a write touches one or two rows.
--
-- 1. Active radios by site and reported revision: totals and the never-seen ones
--    (report_device_places; a new radio that has not checked in touches only this row) and
--    running totals of the others by the UTC hour last seen (report_device_seen_upto). Last seen and compliance read
--    sites × revisions rows per cutoff and count one by one only the radios seen in the cutoff's
--    own hour before the cutoff. They replace the day-grained report_device_seen (0021; see 4).
CREATE TABLE report_device_places (
  account_id  TEXT NOT NULL,
  site_id     TEXT NOT NULL,
  revision    TEXT NOT NULL,
  radios      INTEGER NOT NULL,
  never       INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id, revision)
) WITHOUT ROWID;

CREATE TABLE report_device_seen_upto (
  account_id  TEXT NOT NULL,
  site_id     TEXT NOT NULL,
  revision    TEXT NOT NULL,
  hour        TEXT NOT NULL,
  radios      INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id, revision, hour)
) WITHOUT ROWID;

CREATE TRIGGER report_device_totals_insert AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL AND NEW.status = 'active'
BEGIN
  INSERT INTO report_device_places (account_id, site_id, revision, radios, never)
    VALUES (NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.reported_revision, ''), 1, NEW.last_seen_at IS NULL)
    ON CONFLICT DO UPDATE SET radios = radios + 1, never = never + excluded.never;
  INSERT INTO report_device_seen_upto (account_id, site_id, revision, hour, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.reported_revision, ''), substr(NEW.last_seen_at, 1, 13),
      ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = NEW.account_id AND u.site_id = ifnull(NEW.site_id, '') AND u.revision = ifnull(NEW.reported_revision, '')
                AND u.hour < substr(NEW.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0)
    WHERE NEW.last_seen_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  UPDATE report_device_seen_upto SET radios = radios + 1
    WHERE account_id = NEW.account_id AND site_id = ifnull(NEW.site_id, '') AND revision = ifnull(NEW.reported_revision, '')
      AND hour >= substr(NEW.last_seen_at, 1, 13);
END;

CREATE TRIGGER report_device_totals_delete AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL AND OLD.status = 'active'
BEGIN
  UPDATE report_device_seen_upto SET radios = radios - 1
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '')
      AND hour >= substr(OLD.last_seen_at, 1, 13);
  DELETE FROM report_device_seen_upto
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '')
      AND hour = substr(OLD.last_seen_at, 1, 13)
      AND radios = ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = OLD.account_id AND u.site_id = ifnull(OLD.site_id, '') AND u.revision = ifnull(OLD.reported_revision, '')
                AND u.hour < substr(OLD.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_device_places SET radios = radios - 1, never = never - (OLD.last_seen_at IS NULL)
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '');
  DELETE FROM report_device_places
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '') AND radios = 0;
END;

-- A check-in within the same hour changes nothing here; a new hour moves the radio (usually from
-- the previous hour: one row).
CREATE TRIGGER report_device_totals_update AFTER UPDATE OF account_id, status, site_id, last_seen_at, reported_revision ON devices
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.status IS NOT NEW.status OR OLD.site_id IS NOT NEW.site_id
  OR OLD.reported_revision IS NOT NEW.reported_revision
  OR substr(OLD.last_seen_at, 1, 13) IS NOT substr(NEW.last_seen_at, 1, 13)
BEGIN
  UPDATE report_device_seen_upto SET radios = radios - 1
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active'
      AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '')
      AND hour >= substr(OLD.last_seen_at, 1, 13);
  DELETE FROM report_device_seen_upto
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '')
      AND hour = substr(OLD.last_seen_at, 1, 13)
      AND radios = ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = OLD.account_id AND u.site_id = ifnull(OLD.site_id, '') AND u.revision = ifnull(OLD.reported_revision, '')
                AND u.hour < substr(OLD.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_device_places SET radios = radios - 1, never = never - (OLD.last_seen_at IS NULL)
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active'
      AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '');
  DELETE FROM report_device_places
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND revision = ifnull(OLD.reported_revision, '') AND radios = 0;
  INSERT INTO report_device_places (account_id, site_id, revision, radios, never)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.reported_revision, ''), 1, NEW.last_seen_at IS NULL
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
    ON CONFLICT DO UPDATE SET radios = radios + 1, never = never + excluded.never;
  INSERT INTO report_device_seen_upto (account_id, site_id, revision, hour, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.reported_revision, ''), substr(NEW.last_seen_at, 1, 13),
      ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = NEW.account_id AND u.site_id = ifnull(NEW.site_id, '') AND u.revision = ifnull(NEW.reported_revision, '')
                AND u.hour < substr(NEW.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0)
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active' AND NEW.last_seen_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  UPDATE report_device_seen_upto SET radios = radios + 1
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
      AND account_id = NEW.account_id AND site_id = ifnull(NEW.site_id, '') AND revision = ifnull(NEW.reported_revision, '')
      AND hour >= substr(NEW.last_seen_at, 1, 13);
END;

-- 2. Configuration changes by person: totals (report_activity_persons, which also lists the
--    account's people) and running totals by UTC hour (report_activity_people_upto). Activity by
--    person reads two rows per person of the account plus the entries in the bits of an hour a
--    :30/:45 zone cuts.
CREATE TABLE report_activity_persons (
  account_id   TEXT NOT NULL,
  actor_email  TEXT NOT NULL,
  changes      INTEGER NOT NULL,
  PRIMARY KEY (account_id, actor_email)
) WITHOUT ROWID;

CREATE TABLE report_activity_people_upto (
  account_id   TEXT NOT NULL,
  actor_email  TEXT NOT NULL,
  hour         TEXT NOT NULL,
  creates      INTEGER NOT NULL,
  updates      INTEGER NOT NULL,
  deletes      INTEGER NOT NULL,
  PRIMARY KEY (account_id, actor_email, hour)
) WITHOUT ROWID;

CREATE TRIGGER report_activity_totals_insert AFTER INSERT ON activity_logs WHEN NEW.account_id IS NOT NULL
BEGIN
  INSERT INTO report_activity_persons (account_id, actor_email, changes) VALUES (NEW.account_id, NEW.actor_email, 1)
    ON CONFLICT DO UPDATE SET changes = changes + 1;
  INSERT INTO report_activity_people_upto (account_id, actor_email, hour, creates, updates, deletes)
    SELECT NEW.account_id, NEW.actor_email, substr(NEW.created_at, 1, 13), ifnull(b.creates, 0), ifnull(b.updates, 0), ifnull(b.deletes, 0)
    FROM (SELECT 1) LEFT JOIN (SELECT u.creates, u.updates, u.deletes FROM report_activity_people_upto u
      WHERE u.account_id = NEW.account_id AND u.actor_email = NEW.actor_email AND u.hour < substr(NEW.created_at, 1, 13)
      ORDER BY u.hour DESC LIMIT 1) b ON 1
    WHERE 1
    ON CONFLICT DO NOTHING;
  UPDATE report_activity_people_upto
    SET creates = creates + (NEW.action = 'create'), updates = updates + (NEW.action = 'update'), deletes = deletes + (NEW.action = 'delete')
    WHERE account_id = NEW.account_id AND actor_email = NEW.actor_email AND hour >= substr(NEW.created_at, 1, 13);
END;

CREATE TRIGGER report_activity_totals_delete AFTER DELETE ON activity_logs WHEN OLD.account_id IS NOT NULL
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

-- Entries are written once; should one be corrected, its contribution moves like a delete and an insert.
CREATE TRIGGER report_activity_totals_update AFTER UPDATE OF account_id, created_at, actor_email, action ON activity_logs
WHEN OLD.account_id IS NOT NEW.account_id OR substr(OLD.created_at, 1, 13) IS NOT substr(NEW.created_at, 1, 13)
  OR OLD.actor_email IS NOT NEW.actor_email OR OLD.action IS NOT NEW.action
BEGIN
  UPDATE report_activity_people_upto
    SET creates = creates - (OLD.action = 'create'), updates = updates - (OLD.action = 'update'), deletes = deletes - (OLD.action = 'delete')
    WHERE OLD.account_id IS NOT NULL AND account_id = OLD.account_id AND actor_email = OLD.actor_email AND hour >= substr(OLD.created_at, 1, 13);
  DELETE FROM report_activity_people_upto
    WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email AND hour = substr(OLD.created_at, 1, 13)
      AND creates + updates + deletes = ifnull((SELECT u.creates + u.updates + u.deletes FROM report_activity_people_upto u
        WHERE u.account_id = OLD.account_id AND u.actor_email = OLD.actor_email AND u.hour < substr(OLD.created_at, 1, 13)
        ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_activity_persons SET changes = changes - 1 WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email;
  DELETE FROM report_activity_persons WHERE account_id = OLD.account_id AND actor_email = OLD.actor_email AND changes = 0;
  INSERT INTO report_activity_persons (account_id, actor_email, changes)
    SELECT NEW.account_id, NEW.actor_email, 1 WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET changes = changes + 1;
  INSERT INTO report_activity_people_upto (account_id, actor_email, hour, creates, updates, deletes)
    SELECT NEW.account_id, NEW.actor_email, substr(NEW.created_at, 1, 13), ifnull(b.creates, 0), ifnull(b.updates, 0), ifnull(b.deletes, 0)
    FROM (SELECT 1) LEFT JOIN (SELECT u.creates, u.updates, u.deletes FROM report_activity_people_upto u
      WHERE u.account_id = NEW.account_id AND u.actor_email = NEW.actor_email AND u.hour < substr(NEW.created_at, 1, 13)
      ORDER BY u.hour DESC LIMIT 1) b ON 1
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO NOTHING;
  UPDATE report_activity_people_upto
    SET creates = creates + (NEW.action = 'create'), updates = updates + (NEW.action = 'update'), deletes = deletes + (NEW.action = 'delete')
    WHERE NEW.account_id IS NOT NULL AND account_id = NEW.account_id AND actor_email = NEW.actor_email AND hour >= substr(NEW.created_at, 1, 13);
END;

-- 3. Radios that have a deployment (applied or already in sync), running totals by the UTC
--    second they said so, indexed by the total: the second the k-th radio falls in is one seek
--    (the first row whose total reaches k), then one probe steps over the radios of that second
--    only. Replaces summing report_deployment_reach (0021; see 4) minute by minute and stepping
--    over the radios of a minute (hundreds in a large fleet).
CREATE TABLE report_deployment_reach_upto (
  deployment_id  TEXT NOT NULL,
  second         TEXT NOT NULL,
  radios         INTEGER NOT NULL,
  PRIMARY KEY (deployment_id, second)
) WITHOUT ROWID;
CREATE INDEX report_deployment_reach_upto_radios ON report_deployment_reach_upto(deployment_id, radios);

CREATE TRIGGER report_deployment_reach_upto_insert AFTER INSERT ON deployment_devices
WHEN NEW.state IN ('applied', 'already_in_sync')
BEGIN
  INSERT INTO report_deployment_reach_upto (deployment_id, second, radios)
    SELECT NEW.deployment_id, substr(NEW.updated_at, 1, 19), ifnull((SELECT u.radios FROM report_deployment_reach_upto u
      WHERE u.deployment_id = NEW.deployment_id AND u.second < substr(NEW.updated_at, 1, 19) ORDER BY u.second DESC LIMIT 1), 0)
    WHERE 1
    ON CONFLICT DO NOTHING;
  UPDATE report_deployment_reach_upto SET radios = radios + 1
    WHERE 1 AND deployment_id = NEW.deployment_id AND second >= substr(NEW.updated_at, 1, 19);
END;

CREATE TRIGGER report_deployment_reach_upto_delete AFTER DELETE ON deployment_devices
WHEN OLD.state IN ('applied', 'already_in_sync')
BEGIN
  UPDATE report_deployment_reach_upto SET radios = radios - 1
    WHERE 1 AND deployment_id = OLD.deployment_id AND second >= substr(OLD.updated_at, 1, 19);
  DELETE FROM report_deployment_reach_upto
    WHERE deployment_id = OLD.deployment_id AND second = substr(OLD.updated_at, 1, 19)
      AND radios = ifnull((SELECT u.radios FROM report_deployment_reach_upto u
        WHERE u.deployment_id = OLD.deployment_id AND u.second < substr(OLD.updated_at, 1, 19) ORDER BY u.second DESC LIMIT 1), 0);
END;

CREATE TRIGGER report_deployment_reach_upto_update AFTER UPDATE OF deployment_id, state, updated_at ON deployment_devices
WHEN OLD.deployment_id IS NOT NEW.deployment_id OR substr(OLD.updated_at, 1, 19) IS NOT substr(NEW.updated_at, 1, 19)
  OR (OLD.state IN ('applied', 'already_in_sync')) IS NOT (NEW.state IN ('applied', 'already_in_sync'))
BEGIN
  UPDATE report_deployment_reach_upto SET radios = radios - 1
    WHERE OLD.state IN ('applied', 'already_in_sync') AND deployment_id = OLD.deployment_id AND second >= substr(OLD.updated_at, 1, 19);
  DELETE FROM report_deployment_reach_upto
    WHERE deployment_id = OLD.deployment_id AND second = substr(OLD.updated_at, 1, 19)
      AND radios = ifnull((SELECT u.radios FROM report_deployment_reach_upto u
        WHERE u.deployment_id = OLD.deployment_id AND u.second < substr(OLD.updated_at, 1, 19) ORDER BY u.second DESC LIMIT 1), 0);
  INSERT INTO report_deployment_reach_upto (deployment_id, second, radios)
    SELECT NEW.deployment_id, substr(NEW.updated_at, 1, 19), ifnull((SELECT u.radios FROM report_deployment_reach_upto u
      WHERE u.deployment_id = NEW.deployment_id AND u.second < substr(NEW.updated_at, 1, 19) ORDER BY u.second DESC LIMIT 1), 0)
    WHERE NEW.state IN ('applied', 'already_in_sync')
    ON CONFLICT DO NOTHING;
  UPDATE report_deployment_reach_upto SET radios = radios + 1
    WHERE NEW.state IN ('applied', 'already_in_sync') AND deployment_id = NEW.deployment_id AND second >= substr(NEW.updated_at, 1, 19);
END;

-- 4. The roll-ups these replace, which no report reads any more: radios by the UTC day last seen
--    (report_device_seen), radios reaching a deployment per minute (report_deployment_reach) and
--    changes per person per hour and day (report_activity_people). Their triggers are made again
--    without them (the same statements for the roll-ups that stay), then the tables go.
DROP TRIGGER report_devices_insert;
CREATE TRIGGER report_devices_insert AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL AND NEW.status = 'active'
BEGIN
  INSERT INTO report_device_counts (account_id, site_id, location_id, model, firmware, radios)
    VALUES (NEW.account_id, ifnull(NEW.site_id, ''), ifnull(NEW.location_id, ''), NEW.model, NEW.firmware, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

DROP TRIGGER report_devices_delete;
CREATE TRIGGER report_devices_delete AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL AND OLD.status = 'active'
BEGIN
  UPDATE report_device_counts SET radios = radios - 1
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware;
  DELETE FROM report_device_counts
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND location_id = ifnull(OLD.location_id, '')
      AND model = OLD.model AND firmware = OLD.firmware AND radios = 0;
END;

DROP TRIGGER report_devices_update_seen;

DROP TRIGGER report_deployment_devices_insert;
CREATE TRIGGER report_deployment_devices_insert AFTER INSERT ON deployment_devices
BEGIN
  INSERT INTO report_deployment_counts (deployment_id, phase, state, code, radios)
    VALUES (NEW.deployment_id, NEW.phase, NEW.state, NEW.code, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

DROP TRIGGER report_deployment_devices_delete;
CREATE TRIGGER report_deployment_devices_delete AFTER DELETE ON deployment_devices
BEGIN
  UPDATE report_deployment_counts SET radios = radios - 1
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code;
  DELETE FROM report_deployment_counts
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code AND radios = 0;
END;

DROP TRIGGER report_deployment_devices_update;
CREATE TRIGGER report_deployment_devices_update AFTER UPDATE OF deployment_id, phase, state, code, updated_at ON deployment_devices
BEGIN
  UPDATE report_deployment_counts SET radios = radios - 1
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code;
  DELETE FROM report_deployment_counts
    WHERE deployment_id = OLD.deployment_id AND phase = OLD.phase AND state = OLD.state AND code = OLD.code AND radios = 0;
  INSERT INTO report_deployment_counts (deployment_id, phase, state, code, radios)
    VALUES (NEW.deployment_id, NEW.phase, NEW.state, NEW.code, 1)
    ON CONFLICT DO UPDATE SET radios = radios + 1;
END;

DROP TRIGGER report_activity_insert;
CREATE TRIGGER report_activity_insert AFTER INSERT ON activity_logs WHEN NEW.account_id IS NOT NULL
BEGIN
  INSERT INTO report_activity_kinds (account_id, grain, bucket, entity_type, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.entity_type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.entity_type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
END;

DROP TRIGGER report_activity_delete;
CREATE TRIGGER report_activity_delete AFTER DELETE ON activity_logs WHEN OLD.account_id IS NOT NULL
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

DROP TRIGGER report_activity_update;
CREATE TRIGGER report_activity_update AFTER UPDATE OF account_id, created_at, actor_email, entity_type, action ON activity_logs
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.created_at IS NOT NEW.created_at OR OLD.actor_email IS NOT NEW.actor_email
  OR OLD.entity_type IS NOT NEW.entity_type OR OLD.action IS NOT NEW.action
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
  INSERT INTO report_activity_kinds (account_id, grain, bucket, entity_type, creates, updates, deletes)
    SELECT NEW.account_id, k.grain, k.bucket, k.label, NEW.action = 'create', NEW.action = 'update', NEW.action = 'delete'
    FROM (SELECT 'h' AS grain, substr(NEW.created_at, 1, 13) AS bucket, NEW.entity_type AS label UNION ALL
      SELECT 'ht', substr(NEW.created_at, 1, 13), '' UNION ALL
      SELECT 'd', substr(NEW.created_at, 1, 10), NEW.entity_type UNION ALL
      SELECT 'dt', substr(NEW.created_at, 1, 10), '') k
    WHERE NEW.account_id IS NOT NULL
    ON CONFLICT DO UPDATE SET creates = creates + excluded.creates, updates = updates + excluded.updates, deletes = deletes + excluded.deletes;
END;

DROP TABLE report_device_seen;
DROP TABLE report_deployment_reach;
DROP TABLE report_activity_people;

-- Backfill from the rows already there.
INSERT INTO report_device_places
  SELECT account_id, ifnull(site_id, ''), ifnull(reported_revision, ''), count(*), sum(last_seen_at IS NULL)
  FROM devices WHERE account_id IS NOT NULL AND status = 'active' GROUP BY 1, 2, 3;
INSERT INTO report_device_seen_upto
  SELECT account_id, site_id, revision, hour, sum(radios) OVER (PARTITION BY account_id, site_id, revision ORDER BY hour)
  FROM (SELECT account_id, ifnull(site_id, '') AS site_id, ifnull(reported_revision, '') AS revision,
          substr(last_seen_at, 1, 13) AS hour, count(*) AS radios
        FROM devices WHERE account_id IS NOT NULL AND status = 'active' AND last_seen_at IS NOT NULL GROUP BY 1, 2, 3, 4);
INSERT INTO report_activity_persons
  SELECT account_id, actor_email, count(*) FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2;
INSERT INTO report_activity_people_upto
  SELECT account_id, actor_email, hour,
    sum(creates) OVER w, sum(updates) OVER w, sum(deletes) OVER w
  FROM (SELECT account_id, actor_email, substr(created_at, 1, 13) AS hour,
          sum(action = 'create') AS creates, sum(action = 'update') AS updates, sum(action = 'delete') AS deletes
        FROM activity_logs WHERE account_id IS NOT NULL GROUP BY 1, 2, 3)
  WINDOW w AS (PARTITION BY account_id, actor_email ORDER BY hour);
INSERT INTO report_deployment_reach_upto
  SELECT deployment_id, second, sum(radios) OVER (PARTITION BY deployment_id ORDER BY second)
  FROM (SELECT deployment_id, substr(updated_at, 1, 19) AS second, count(*) AS radios FROM deployment_devices
        WHERE state IN ('applied', 'already_in_sync') GROUP BY 1, 2);
