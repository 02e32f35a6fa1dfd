-- Lists that do not grow with the data, continued (DESIGN.md §8, issue 10).

-- 1. The activity log filtered by actor. The filter is part of an email, any case, so no index
-- can answer it over the log itself; but an account has few distinct actors. They are kept
-- here (one row per account and email, written with the entry), the filter runs over them,
-- and each matching actor's newest entries are one range of activity_logs_account_actor:
-- the cost follows the number of actors, not the number of entries.
CREATE TABLE activity_actors (
  account_id   TEXT NOT NULL,
  actor_email  TEXT NOT NULL,
  PRIMARY KEY (account_id, actor_email)
) WITHOUT ROWID;
CREATE INDEX activity_logs_account_actor ON activity_logs(account_id, actor_email, created_at DESC, id DESC);
CREATE TRIGGER activity_actors_insert AFTER INSERT ON activity_logs WHEN NEW.account_id IS NOT NULL BEGIN
  INSERT OR IGNORE INTO activity_actors (account_id, actor_email) VALUES (NEW.account_id, NEW.actor_email);
END;
CREATE TRIGGER activity_actors_account_delete AFTER DELETE ON accounts BEGIN
  DELETE FROM activity_actors WHERE account_id = OLD.id;
END;
INSERT OR IGNORE INTO activity_actors (account_id, actor_email)
  SELECT DISTINCT account_id, actor_email FROM activity_logs WHERE account_id IS NOT NULL;

-- 2. Profiles and templates (keyset paging, src/server/data/profiles.ts): every sort is an
-- index within its scope (name and type+name: migration 0009; last update: here), and the
-- name search goes through FTS5 like accounts, sites and locations (migration 0010).
CREATE INDEX profiles_account_updated ON profiles(account_id, updated_at);
CREATE INDEX profiles_account_type_updated ON profiles(account_id, type, updated_at);
CREATE INDEX profiles_template_type_updated ON profiles(org_id, type, updated_at) WHERE account_id IS NULL;
CREATE VIRTUAL TABLE profiles_fts USING fts5(
  name, content = 'profiles', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER profiles_fts_insert AFTER INSERT ON profiles BEGIN
  INSERT INTO profiles_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER profiles_fts_update AFTER UPDATE OF name ON profiles BEGIN
  INSERT INTO profiles_fts (profiles_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
  INSERT INTO profiles_fts (rowid, name) VALUES (NEW.rowid, NEW.name);
END;
CREATE TRIGGER profiles_fts_delete AFTER DELETE ON profiles BEGIN
  INSERT INTO profiles_fts (profiles_fts, rowid, name) VALUES ('delete', OLD.rowid, OLD.name);
END;
INSERT INTO profiles_fts (profiles_fts) VALUES ('rebuild');

-- 3. Users (keyset paging, src/server/data/users.ts). An administrator lists one organization's
-- users (an index of users by organization and name) or the whole tree under theirs: like
-- account_scopes (migration 0010), one row per (organization at or above the user's, user),
-- so the tree's users in name order are one index range, not a walk, a count and a sort.
-- Names and emails are searched through users_fts (email words: "ana", "example", "com").
CREATE INDEX users_org_name ON users(org_id, name COLLATE NOCASE, email);
CREATE TABLE user_scopes (
  ancestor_id   TEXT NOT NULL,
  user_rowid    INTEGER NOT NULL,
  name          TEXT NOT NULL COLLATE NOCASE,
  email         TEXT NOT NULL COLLATE NOCASE,
  is_case_user  INTEGER NOT NULL,
  PRIMARY KEY (user_rowid, ancestor_id)
) WITHOUT ROWID;
CREATE INDEX user_scopes_name ON user_scopes(ancestor_id, name, email);
CREATE TRIGGER users_scopes_insert AFTER INSERT ON users BEGIN
  INSERT INTO user_scopes (ancestor_id, user_rowid, name, email, is_case_user)
    SELECT ancestor_id, NEW.rowid, NEW.name, NEW.email, NEW.is_case_user FROM organization_ancestors WHERE org_id = NEW.org_id;
END;
CREATE TRIGGER users_scopes_update AFTER UPDATE OF name, email, is_case_user ON users BEGIN
  UPDATE user_scopes SET name = NEW.name, email = NEW.email, is_case_user = NEW.is_case_user WHERE user_rowid = NEW.rowid;
END;
CREATE TRIGGER users_scopes_move AFTER UPDATE OF org_id ON users BEGIN
  DELETE FROM user_scopes WHERE user_rowid = NEW.rowid;
  INSERT INTO user_scopes (ancestor_id, user_rowid, name, email, is_case_user)
    SELECT ancestor_id, NEW.rowid, NEW.name, NEW.email, NEW.is_case_user FROM organization_ancestors WHERE org_id = NEW.org_id;
END;
CREATE TRIGGER users_scopes_delete AFTER DELETE ON users BEGIN
  DELETE FROM user_scopes WHERE user_rowid = OLD.rowid;
END;
INSERT INTO user_scopes (ancestor_id, user_rowid, name, email, is_case_user)
  SELECT t.ancestor_id, u.rowid, u.name, u.email, u.is_case_user FROM users u JOIN organization_ancestors t ON t.org_id = u.org_id;

CREATE VIRTUAL TABLE users_fts USING fts5(
  name, email, content = 'users', content_rowid = 'rowid', tokenize = 'unicode61 remove_diacritics 2', prefix = '2 3'
);
CREATE TRIGGER users_fts_insert AFTER INSERT ON users BEGIN
  INSERT INTO users_fts (rowid, name, email) VALUES (NEW.rowid, NEW.name, NEW.email);
END;
CREATE TRIGGER users_fts_update AFTER UPDATE OF name, email ON users BEGIN
  INSERT INTO users_fts (users_fts, rowid, name, email) VALUES ('delete', OLD.rowid, OLD.name, OLD.email);
  INSERT INTO users_fts (rowid, name, email) VALUES (NEW.rowid, NEW.name, NEW.email);
END;
CREATE TRIGGER users_fts_delete AFTER DELETE ON users BEGIN
  INSERT INTO users_fts (users_fts, rowid, name, email) VALUES ('delete', OLD.rowid, OLD.name, OLD.email);
END;
INSERT INTO users_fts (users_fts) VALUES ('rebuild');
