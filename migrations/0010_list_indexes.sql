-- Lists that do not grow with the data (DESIGN.md §8): what keyset paging, indexed search and a
-- cheap pending-changes count need. Everything here is derived from other tables and kept in
-- step by triggers, so every writer (procedures, seed, fixtures) keeps it right in the same
-- statement that changes the source row.
--
-- Note for operators: `wrangler d1 export` refuses a database with FTS5 virtual tables
-- (workers-sdk#6305). Export the base tables with `--table` (every table whose name does not
-- end in _fts or start with an _fts table's name); after a restore, re-run this migration's
-- "rebuild" statements (INSERT INTO x_fts(x_fts) VALUES('rebuild')).

-- 1. Accounts as every organization above them sees them: one row per (ancestor, account).
-- /accounts lists an organization's whole tree; with this table that is one index range
-- ordered by the chosen sort, not a recursive walk, a count and a temporary sort per request.
-- Organizations never move, so a row is written when the account is created and follows its
-- name, level and update time.
CREATE TABLE account_scopes (
  org_id         TEXT NOT NULL,
  account_rowid  INTEGER NOT NULL,
  name           TEXT NOT NULL COLLATE NOCASE,
  updated_at     TEXT NOT NULL,
  -- Levels in their order (essential 0, advanced 1), so the level sort is an index order.
  level_rank     INTEGER NOT NULL,
  PRIMARY KEY (account_rowid, org_id)
) WITHOUT ROWID;
CREATE INDEX account_scopes_name ON account_scopes(org_id, name, account_rowid);
CREATE INDEX account_scopes_updated ON account_scopes(org_id, updated_at, account_rowid);
CREATE INDEX account_scopes_level ON account_scopes(org_id, level_rank, name, account_rowid);

-- Every organization with itself and each organization above it (a closure table), written
-- when the organization is created: its parent's rows plus its own. (Triggers cannot use
-- WITH RECURSIVE; D1 also caps compound SELECTs, so a fixed-depth UNION is no way out.)
CREATE TABLE organization_ancestors (
  org_id       TEXT NOT NULL,
  ancestor_id  TEXT NOT NULL,
  PRIMARY KEY (org_id, ancestor_id)
) WITHOUT ROWID;
CREATE INDEX organization_ancestors_ancestor ON organization_ancestors(ancestor_id, org_id);
CREATE TRIGGER organizations_ancestors_insert AFTER INSERT ON organizations BEGIN
  INSERT INTO organization_ancestors (org_id, ancestor_id) VALUES (NEW.id, NEW.id);
  INSERT INTO organization_ancestors (org_id, ancestor_id)
    SELECT NEW.id, ancestor_id FROM organization_ancestors WHERE org_id = NEW.parent_id;
END;
CREATE TRIGGER organizations_ancestors_delete AFTER DELETE ON organizations BEGIN
  DELETE FROM organization_ancestors WHERE org_id = OLD.id;
END;
INSERT INTO organization_ancestors (org_id, ancestor_id)
  WITH RECURSIVE up(org_id, ancestor_id) AS (
    SELECT id, id FROM organizations
    UNION ALL SELECT up.org_id, o.parent_id FROM up JOIN organizations o ON o.id = up.ancestor_id WHERE o.parent_id IS NOT NULL)
  SELECT org_id, ancestor_id FROM up;

CREATE TRIGGER accounts_scopes_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO account_scopes (org_id, account_rowid, name, updated_at, level_rank)
    SELECT ancestor_id, NEW.rowid, NEW.name, NEW.updated_at, NEW.subscription_level = 'advanced'
    FROM organization_ancestors WHERE org_id = NEW.org_id;
END;
CREATE TRIGGER accounts_scopes_update AFTER UPDATE OF name, updated_at, subscription_level ON accounts BEGIN
  UPDATE account_scopes SET name = NEW.name, updated_at = NEW.updated_at, level_rank = NEW.subscription_level = 'advanced'
    WHERE account_rowid = NEW.rowid;
END;
CREATE TRIGGER accounts_scopes_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM account_scopes WHERE account_rowid = OLD.rowid;
  DELETE FROM pending_change_counts WHERE account_id = OLD.id;
END;
INSERT INTO account_scopes (org_id, account_rowid, name, updated_at, level_rank)
  SELECT t.ancestor_id, a.rowid, a.name, a.updated_at, a.subscription_level = 'advanced'
  FROM accounts a JOIN organization_ancestors t ON t.org_id = a.org_id;

-- 2. Name search through FTS5 (external content: the index holds tokens, the table the text).
-- Queries are built by src/server/data/fts.ts: every word quoted, so no input is FTS syntax.
CREATE VIRTUAL TABLE accounts_fts USING fts5(
  name, content = 'accounts', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER accounts_fts_insert AFTER INSERT ON accounts BEGIN
  INSERT INTO accounts_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER accounts_fts_update AFTER UPDATE OF name ON accounts BEGIN
  INSERT INTO accounts_fts (accounts_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
  INSERT INTO accounts_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER accounts_fts_delete AFTER DELETE ON accounts BEGIN
  INSERT INTO accounts_fts (accounts_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
END;
INSERT INTO accounts_fts (accounts_fts) VALUES ('rebuild');

CREATE VIRTUAL TABLE sites_fts USING fts5(
  name, content = 'sites', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER sites_fts_insert AFTER INSERT ON sites BEGIN
  INSERT INTO sites_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER sites_fts_update AFTER UPDATE OF name ON sites BEGIN
  INSERT INTO sites_fts (sites_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
  INSERT INTO sites_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER sites_fts_delete AFTER DELETE ON sites BEGIN
  INSERT INTO sites_fts (sites_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
END;
INSERT INTO sites_fts (sites_fts) VALUES ('rebuild');

CREATE VIRTUAL TABLE locations_fts USING fts5(
  name, content = 'locations', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER locations_fts_insert AFTER INSERT ON locations BEGIN
  INSERT INTO locations_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER locations_fts_update AFTER UPDATE OF name ON locations BEGIN
  INSERT INTO locations_fts (locations_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
  INSERT INTO locations_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER locations_fts_delete AFTER DELETE ON locations BEGIN
  INSERT INTO locations_fts (locations_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
END;
INSERT INTO locations_fts (locations_fts) VALUES ('rebuild');

-- 3. The pending-changes banner: a counter per account, moved by the same statement that
-- writes, deploys or deletes a change, so the banner reads one row however many are pending.
CREATE TABLE pending_change_counts (
  account_id  TEXT PRIMARY KEY,
  count       INTEGER NOT NULL DEFAULT 0
);
CREATE TRIGGER activity_pending_insert AFTER INSERT ON activity_logs
  WHEN NEW.deployable = 1 AND NEW.deployment_id IS NULL AND NEW.account_id IS NOT NULL BEGIN
  INSERT INTO pending_change_counts (account_id, count) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER activity_pending_deployed AFTER UPDATE OF deployment_id ON activity_logs
  WHEN NEW.deployable = 1 AND OLD.deployment_id IS NULL AND NEW.deployment_id IS NOT NULL BEGIN
  UPDATE pending_change_counts SET count = count - 1 WHERE account_id = NEW.account_id;
END;
CREATE TRIGGER activity_pending_undeployed AFTER UPDATE OF deployment_id ON activity_logs
  WHEN NEW.deployable = 1 AND OLD.deployment_id IS NOT NULL AND NEW.deployment_id IS NULL BEGIN
  INSERT INTO pending_change_counts (account_id, count) VALUES (NEW.account_id, 1)
    ON CONFLICT (account_id) DO UPDATE SET count = count + 1;
END;
CREATE TRIGGER activity_pending_delete AFTER DELETE ON activity_logs
  WHEN OLD.deployable = 1 AND OLD.deployment_id IS NULL BEGIN
  UPDATE pending_change_counts SET count = count - 1 WHERE account_id = OLD.account_id;
END;
INSERT INTO pending_change_counts (account_id, count)
  SELECT account_id, count(*) FROM activity_logs
  WHERE deployable = 1 AND deployment_id IS NULL AND account_id IS NOT NULL GROUP BY account_id;
