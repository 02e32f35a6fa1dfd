-- The running totals of radios by place (0023) lose their revision dimension (issue 23): the
-- compliance report, its only reader, now counts each radio's sync and contact state
-- (src/server/data/fleet-sync.ts) so that it agrees with every other screen; last seen reads
-- them by site only. A radio's report of a new revision no longer touches these totals, and
-- the index the reports count the cutoff hour on no longer carries the reported revision.
-- Same rules as 0023: per group (account, site) the rows "radios last seen at or before this
-- hour"; never-seen radios only in report_device_places.
DROP TRIGGER report_device_totals_insert;
DROP TRIGGER report_device_totals_delete;
DROP TRIGGER report_device_totals_update;
DROP TABLE report_device_places;
DROP TABLE report_device_seen_upto;

CREATE TABLE report_device_places (
  account_id  TEXT NOT NULL,
  site_id     TEXT NOT NULL,
  radios      INTEGER NOT NULL,
  never       INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id)
) WITHOUT ROWID;

CREATE TABLE report_device_seen_upto (
  account_id  TEXT NOT NULL,
  site_id     TEXT NOT NULL,
  hour        TEXT NOT NULL,
  radios      INTEGER NOT NULL,
  PRIMARY KEY (account_id, site_id, hour)
) WITHOUT ROWID;

CREATE TRIGGER report_device_totals_insert AFTER INSERT ON devices
WHEN NEW.account_id IS NOT NULL AND NEW.status = 'active'
BEGIN
  INSERT INTO report_device_places (account_id, site_id, radios, never)
    VALUES (NEW.account_id, ifnull(NEW.site_id, ''), 1, NEW.last_seen_at IS NULL)
    ON CONFLICT DO UPDATE SET radios = radios + 1, never = never + excluded.never;
  INSERT INTO report_device_seen_upto (account_id, site_id, hour, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), substr(NEW.last_seen_at, 1, 13),
      ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = NEW.account_id AND u.site_id = ifnull(NEW.site_id, '')
                AND u.hour < substr(NEW.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0)
    WHERE NEW.last_seen_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  UPDATE report_device_seen_upto SET radios = radios + 1
    WHERE account_id = NEW.account_id AND site_id = ifnull(NEW.site_id, '') AND hour >= substr(NEW.last_seen_at, 1, 13);
END;

CREATE TRIGGER report_device_totals_delete AFTER DELETE ON devices
WHEN OLD.account_id IS NOT NULL AND OLD.status = 'active'
BEGIN
  UPDATE report_device_seen_upto SET radios = radios - 1
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND hour >= substr(OLD.last_seen_at, 1, 13);
  DELETE FROM report_device_seen_upto
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND hour = substr(OLD.last_seen_at, 1, 13)
      AND radios = ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = OLD.account_id AND u.site_id = ifnull(OLD.site_id, '')
                AND u.hour < substr(OLD.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_device_places SET radios = radios - 1, never = never - (OLD.last_seen_at IS NULL)
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '');
  DELETE FROM report_device_places WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND radios = 0;
END;

-- A check-in within the same hour changes nothing here; a new hour moves the radio (usually from
-- the previous hour: one row).
CREATE TRIGGER report_device_totals_update AFTER UPDATE OF account_id, status, site_id, last_seen_at ON devices
WHEN OLD.account_id IS NOT NEW.account_id OR OLD.status IS NOT NEW.status OR OLD.site_id IS NOT NEW.site_id
  OR substr(OLD.last_seen_at, 1, 13) IS NOT substr(NEW.last_seen_at, 1, 13)
BEGIN
  UPDATE report_device_seen_upto SET radios = radios - 1
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active'
      AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND hour >= substr(OLD.last_seen_at, 1, 13);
  DELETE FROM report_device_seen_upto
    WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND hour = substr(OLD.last_seen_at, 1, 13)
      AND radios = ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = OLD.account_id AND u.site_id = ifnull(OLD.site_id, '')
                AND u.hour < substr(OLD.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0);
  UPDATE report_device_places SET radios = radios - 1, never = never - (OLD.last_seen_at IS NULL)
    WHERE OLD.account_id IS NOT NULL AND OLD.status = 'active' AND account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '');
  DELETE FROM report_device_places WHERE account_id = OLD.account_id AND site_id = ifnull(OLD.site_id, '') AND radios = 0;
  INSERT INTO report_device_places (account_id, site_id, radios, never)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), 1, NEW.last_seen_at IS NULL
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
    ON CONFLICT DO UPDATE SET radios = radios + 1, never = never + excluded.never;
  INSERT INTO report_device_seen_upto (account_id, site_id, hour, radios)
    SELECT NEW.account_id, ifnull(NEW.site_id, ''), substr(NEW.last_seen_at, 1, 13),
      ifnull((SELECT u.radios FROM report_device_seen_upto u
              WHERE u.account_id = NEW.account_id AND u.site_id = ifnull(NEW.site_id, '')
                AND u.hour < substr(NEW.last_seen_at, 1, 13) ORDER BY u.hour DESC LIMIT 1), 0)
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active' AND NEW.last_seen_at IS NOT NULL
    ON CONFLICT DO NOTHING;
  UPDATE report_device_seen_upto SET radios = radios + 1
    WHERE NEW.account_id IS NOT NULL AND NEW.status = 'active'
      AND account_id = NEW.account_id AND site_id = ifnull(NEW.site_id, '') AND hour >= substr(NEW.last_seen_at, 1, 13);
END;

DROP INDEX devices_account_seen_place;
CREATE INDEX devices_account_seen_place ON devices(account_id, status, last_seen_at, site_id);

-- Backfill from the rows already there.
INSERT INTO report_device_places
  SELECT account_id, ifnull(site_id, ''), count(*), sum(last_seen_at IS NULL)
  FROM devices WHERE account_id IS NOT NULL AND status = 'active' GROUP BY 1, 2;
INSERT INTO report_device_seen_upto
  SELECT account_id, site_id, hour, sum(radios) OVER (PARTITION BY account_id, site_id ORDER BY hour)
  FROM (SELECT account_id, ifnull(site_id, '') AS site_id, substr(last_seen_at, 1, 13) AS hour, count(*) AS radios
        FROM devices WHERE account_id IS NOT NULL AND status = 'active' AND last_seen_at IS NOT NULL GROUP BY 1, 2, 3);
