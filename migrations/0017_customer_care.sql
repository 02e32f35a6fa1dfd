-- Customer care desk (issue 15, DESIGN.md §7): support sessions about an account's radios,
-- the customers who call, the session timeline, the desk's settings and each radio's fc settings.
-- Lists are keyset on (account_id, …, rowid) indexes; names and subjects search through FTS5.

CREATE TABLE fc_settings (
  account_id        TEXT PRIMARY KEY REFERENCES accounts(id),
  -- JSON array of category names (at most 20, each 1–40 characters, checked by the procedure).
  categories        TEXT NOT NULL DEFAULT '["General","Audio","Battery","Coverage","Configuration"]'
                      CHECK (json_valid(categories) AND json_type(categories) = 'array'),
  default_priority  TEXT NOT NULL DEFAULT 'medium' CHECK (default_priority IN ('low','medium','high','urgent')),
  auto_close_days   INTEGER NOT NULL DEFAULT 14 CHECK (auto_close_days BETWEEN 0 AND 365),
  retention_days    INTEGER NOT NULL DEFAULT 365 CHECK (retention_days BETWEEN 30 AND 3650),
  version           INTEGER NOT NULL DEFAULT 1,
  updated_at        TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);

CREATE TABLE fc_customers (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id),
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  phone       TEXT NOT NULL DEFAULT '' CHECK (length(phone) <= 40),
  email       TEXT NOT NULL DEFAULT '' CHECK (length(email) <= 254),
  version     INTEGER NOT NULL DEFAULT 1,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
CREATE INDEX fc_customers_by_name ON fc_customers (account_id, name COLLATE NOCASE, id);

CREATE TABLE fc_customer_radios (
  customer_id  TEXT NOT NULL REFERENCES fc_customers(id) ON DELETE CASCADE,
  uid          TEXT NOT NULL REFERENCES devices(uid),
  PRIMARY KEY (customer_id, uid)
) WITHOUT ROWID;
CREATE INDEX fc_customer_radios_by_uid ON fc_customer_radios (uid);

CREATE TABLE fc_sessions (
  id           TEXT PRIMARY KEY,
  account_id   TEXT NOT NULL REFERENCES accounts(id),
  customer_id  TEXT REFERENCES fc_customers(id),
  subject      TEXT NOT NULL CHECK (length(subject) BETWEEN 1 AND 200),
  category     TEXT NOT NULL CHECK (length(category) BETWEEN 1 AND 40),
  priority     TEXT NOT NULL CHECK (priority IN ('low','medium','high','urgent')),
  status       TEXT NOT NULL DEFAULT 'open' CHECK (status IN ('open','in-progress','waiting','closed')),
  assignee_id  TEXT REFERENCES users(id),
  opened_by    TEXT NOT NULL,
  version      INTEGER NOT NULL DEFAULT 1,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now')),
  closed_at    TEXT
);
CREATE INDEX fc_sessions_by_created ON fc_sessions (account_id, created_at, id);
CREATE INDEX fc_sessions_by_status ON fc_sessions (account_id, status, created_at, id);
CREATE INDEX fc_sessions_by_customer ON fc_sessions (customer_id, created_at, id);
CREATE INDEX fc_sessions_by_assignee ON fc_sessions (assignee_id, status);

CREATE TABLE fc_session_devices (
  session_id  TEXT NOT NULL REFERENCES fc_sessions(id) ON DELETE CASCADE,
  uid         TEXT NOT NULL REFERENCES devices(uid),
  PRIMARY KEY (session_id, uid)
) WITHOUT ROWID;
CREATE INDEX fc_session_devices_by_uid ON fc_session_devices (uid, session_id);

-- The timeline: notes, status and assignee changes, and actions taken from the session. A
-- command sent from a session is a normal commands row; command_id links it here and the
-- timeline reads its live state from commands.
CREATE TABLE fc_timeline (
  id           TEXT PRIMARY KEY,
  session_id   TEXT NOT NULL REFERENCES fc_sessions(id) ON DELETE CASCADE,
  kind         TEXT NOT NULL CHECK (kind IN ('opened','note','status','assignee','command','redeploy','closed')),
  actor_email  TEXT NOT NULL,
  body         TEXT NOT NULL DEFAULT '' CHECK (length(body) <= 4000),
  command_id   TEXT,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
-- rowid (implicit in the index) keeps entries of one moment in the order they were written.
CREATE INDEX fc_timeline_by_session ON fc_timeline (session_id, created_at);
CREATE INDEX fc_timeline_by_command ON fc_timeline (command_id) WHERE command_id IS NOT NULL;

CREATE TABLE fc_device_settings (
  uid                  TEXT PRIMARY KEY REFERENCES devices(uid),
  remote_support       INTEGER NOT NULL DEFAULT 1 CHECK (remote_support IN (0, 1)),
  contact_customer_id  TEXT REFERENCES fc_customers(id),
  notes                TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 2000),
  version              INTEGER NOT NULL DEFAULT 1,
  updated_at           TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ','now'))
);
