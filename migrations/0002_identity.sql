-- Identity (DESIGN.md §3, §5): users, sessions, sign-in safeguards, one-time codes,
-- invitations, password resets and the embedded mail outbox.

CREATE TABLE users (
  id               TEXT PRIMARY KEY,
  org_id           TEXT NOT NULL REFERENCES organizations(id),
  email            TEXT NOT NULL COLLATE NOCASE UNIQUE,
  name             TEXT NOT NULL DEFAULT '',
  role             TEXT NOT NULL CHECK (role IN ('owner', 'admin', 'configurator', 'technician', 'viewer', 'case-agent')),
  status           TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('invited', 'active', 'disabled')),
  language         TEXT,
  two_factor       TEXT NOT NULL DEFAULT 'none' CHECK (two_factor IN ('none', 'email')),
  password_hash    TEXT,
  last_sign_in_at  TEXT,
  is_case_user     INTEGER NOT NULL DEFAULT 0,
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version          INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX users_org ON users(org_id);

-- Only the SHA-256 of the session token is stored. stage 'needs-2fa' is a sign-in attempt
-- that passed the password and waits for its email code; it grants nothing else.
CREATE TABLE sessions (
  id            TEXT PRIMARY KEY,
  user_id       TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  stage         TEXT NOT NULL CHECK (stage IN ('signed-in', 'needs-2fa')),
  created_at    TEXT NOT NULL,
  last_seen_at  TEXT NOT NULL,
  expires_at    TEXT NOT NULL,
  ip            TEXT,
  user_agent    TEXT
);
CREATE INDEX sessions_user ON sessions(user_id);

-- Failed passwords per email address, whether or not the address has an account, so the
-- answers never tell which addresses exist.
CREATE TABLE sign_in_lockouts (
  email         TEXT PRIMARY KEY COLLATE NOCASE,
  failures      INTEGER NOT NULL DEFAULT 0,
  locked_until  TEXT
);

-- Fixed-window counters per client address and action (sign-in, code send/verify, resets).
CREATE TABLE throttles (
  key           TEXT PRIMARY KEY,
  window_start  INTEGER NOT NULL,
  count         INTEGER NOT NULL
);

-- Email one-time codes, bound to the sign-in attempt (the needs-2fa session).
CREATE TABLE one_time_codes (
  session_id  TEXT PRIMARY KEY REFERENCES sessions(id) ON DELETE CASCADE,
  code_hash   TEXT NOT NULL,
  expires_at  TEXT NOT NULL,
  tries       INTEGER NOT NULL DEFAULT 0
);

CREATE TABLE password_resets (
  code_hash   TEXT PRIMARY KEY,
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  expires_at  TEXT NOT NULL,
  used_at     TEXT
);

CREATE TABLE invitations (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES organizations(id),
  email        TEXT NOT NULL COLLATE NOCASE,
  role         TEXT NOT NULL,
  code_hash    TEXT NOT NULL UNIQUE,
  invited_by   TEXT REFERENCES users(id),
  expires_at   TEXT NOT NULL,
  accepted_at  TEXT,
  revoked_at   TEXT,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX invitations_org ON invitations(org_id);

CREATE TABLE mail_outbox (
  id          TEXT PRIMARY KEY,
  to_address  TEXT NOT NULL,
  subject     TEXT NOT NULL,
  body        TEXT NOT NULL,
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX mail_outbox_to ON mail_outbox(to_address, created_at);
