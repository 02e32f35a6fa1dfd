-- Profiles and rules (DESIGN.md §3). A profile is a named set of radio settings of one type,
-- stored as JSON its type's schema has validated (src/schema/profiles/). It belongs to an
-- account, or, with no account, is an organization-wide template (managed under /devices).
-- A rule of an account assigns profiles, in order, to the devices its conditions match; the
-- account's rules apply highest priority (1) first.

CREATE TABLE profiles (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES organizations(id),
  -- NULL: an organization-wide template.
  account_id  TEXT REFERENCES accounts(id) ON DELETE CASCADE,
  type        TEXT NOT NULL CHECK (type IN ('device', 'channels', 'contacts', 'buttons')),
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  settings    TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(settings)),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version     INTEGER NOT NULL DEFAULT 1
);
-- Names are unique without case per type: within an account, and among an organization's templates.
CREATE UNIQUE INDEX profiles_account_type_name ON profiles(account_id, type, name COLLATE NOCASE)
  WHERE account_id IS NOT NULL;
CREATE UNIQUE INDEX profiles_template_type_name ON profiles(org_id, type, name COLLATE NOCASE)
  WHERE account_id IS NULL;
CREATE INDEX profiles_account_name ON profiles(account_id, name COLLATE NOCASE);

-- Priorities are dense (1, 2, 3 … per account). No CHECK on their sign: a reorder moves rows
-- through negative values so the unique index holds after every statement.
CREATE TABLE rules (
  id          TEXT PRIMARY KEY,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  name        TEXT NOT NULL CHECK (length(name) BETWEEN 1 AND 120),
  priority    INTEGER NOT NULL,
  enabled     INTEGER NOT NULL DEFAULT 1 CHECK (enabled IN (0, 1)),
  -- {siteIds?, locationIds?, models?, tags?, uidPattern?}: all given must match; none matches every device.
  conditions  TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(conditions)),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version     INTEGER NOT NULL DEFAULT 1
);
CREATE UNIQUE INDEX rules_account_priority ON rules(account_id, priority);
CREATE UNIQUE INDEX rules_account_name ON rules(account_id, name COLLATE NOCASE);

-- The profiles a rule assigns, in order. No cascade from the profile: deleting a profile that
-- rules use takes it out of them explicitly (with activity entries) in the same batch, and a
-- rule row left pointing at it makes that batch fail instead of dangling.
CREATE TABLE rule_profiles (
  rule_id     TEXT NOT NULL REFERENCES rules(id) ON DELETE CASCADE,
  profile_id  TEXT NOT NULL REFERENCES profiles(id),
  position    INTEGER NOT NULL,
  PRIMARY KEY (rule_id, position),
  UNIQUE (rule_id, profile_id)
);
CREATE INDEX rule_profiles_profile ON rule_profiles(profile_id);

-- The version of an account's rule order: every add, delete and reorder moves it on, so a
-- reorder made on a stale list is refused (CONFLICT) instead of scrambling someone else's.
CREATE TABLE rule_sets (
  account_id  TEXT PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
  version     INTEGER NOT NULL DEFAULT 1
);
