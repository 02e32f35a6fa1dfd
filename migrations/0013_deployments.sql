-- Revisions and deployments (DESIGN.md §7). Confirming a deployment writes a fixed number of
-- rows whatever the fleet size: one revision (the account's frozen configuration), one
-- deployment, the links of the pending changes, one activity entry. Nothing is written per
-- radio until the radio itself reports (deployment_devices).

-- A device's rollout bucket: a stable hash of its uid into 10,000 buckets, computed by SQLite
-- itself so no writer has to remember it: the polynomial hash (base 131, modulo the prime
-- 1,000,003) of the uid's 64 character positions (0 past its end), written as a weighted sum
-- (weight = 131^(64-i) mod p) because D1 limits expression depth. src/schema/fleet/rollout.ts
-- computes the same. Phases open buckets from 0 upwards.
ALTER TABLE devices ADD COLUMN rollout_bucket INTEGER GENERATED ALWAYS AS (
  (
    (
        coalesce(unicode(substr(uid, 1, 1)), 0) * 344141
      + coalesce(unicode(substr(uid, 2, 1)), 0) * 552247
      + coalesce(unicode(substr(uid, 3, 1)), 0) * 271392
      + coalesce(unicode(substr(uid, 4, 1)), 0) * 505890
      + coalesce(unicode(substr(uid, 5, 1)), 0) * 606917
      + coalesce(unicode(substr(uid, 6, 1)), 0) * 180206
      + coalesce(unicode(substr(uid, 7, 1)), 0) * 131147
      + coalesce(unicode(substr(uid, 8, 1)), 0) * 199475
      + coalesce(unicode(substr(uid, 9, 1)), 0) * 780151
      + coalesce(unicode(substr(uid, 10, 1)), 0) * 326567
      + coalesce(unicode(substr(uid, 11, 1)), 0) * 804022
      + coalesce(unicode(substr(uid, 12, 1)), 0) * 311482
      + coalesce(unicode(substr(uid, 13, 1)), 0) * 55813
      + coalesce(unicode(substr(uid, 14, 1)), 0) * 962261
      + coalesce(unicode(substr(uid, 15, 1)), 0) * 76048
      + coalesce(unicode(substr(uid, 16, 1)), 0) * 344093
      + coalesce(unicode(substr(uid, 17, 1)), 0) * 956828
      + coalesce(unicode(substr(uid, 18, 1)), 0) * 556924
      + coalesce(unicode(substr(uid, 19, 1)), 0) * 912651
      + coalesce(unicode(substr(uid, 20, 1)), 0) * 434449
      + coalesce(unicode(substr(uid, 21, 1)), 0) * 285760
      + coalesce(unicode(substr(uid, 22, 1)), 0) * 735008
      + coalesce(unicode(substr(uid, 23, 1)), 0) * 471261
      + coalesce(unicode(substr(uid, 24, 1)), 0) * 423446
      + coalesce(unicode(substr(uid, 25, 1)), 0) * 423081
      + coalesce(unicode(substr(uid, 26, 1)), 0) * 270406
      + coalesce(unicode(substr(uid, 27, 1)), 0) * 24965
      + coalesce(unicode(substr(uid, 28, 1)), 0) * 305535
      + coalesce(unicode(substr(uid, 29, 1)), 0) * 910732
      + coalesce(unicode(substr(uid, 30, 1)), 0) * 755046
      + coalesce(unicode(substr(uid, 31, 1)), 0) * 784392
      + coalesce(unicode(substr(uid, 32, 1)), 0) * 59423
    ) % 1000003
    + (
        coalesce(unicode(substr(uid, 33, 1)), 0) * 992823
      + coalesce(unicode(substr(uid, 34, 1)), 0) * 435061
      + coalesce(unicode(substr(uid, 35, 1)), 0) * 377368
      + coalesce(unicode(substr(uid, 36, 1)), 0) * 94484
      + coalesce(unicode(substr(uid, 37, 1)), 0) * 535074
      + coalesce(unicode(substr(uid, 38, 1)), 0) * 622407
      + coalesce(unicode(substr(uid, 39, 1)), 0) * 577272
      + coalesce(unicode(substr(uid, 40, 1)), 0) * 821203
      + coalesce(unicode(substr(uid, 41, 1)), 0) * 59704
      + coalesce(unicode(substr(uid, 42, 1)), 0) * 603511
      + coalesce(unicode(substr(uid, 43, 1)), 0) * 180180
      + coalesce(unicode(substr(uid, 44, 1)), 0) * 558629
      + coalesce(unicode(substr(uid, 45, 1)), 0) * 187471
      + coalesce(unicode(substr(uid, 46, 1)), 0) * 375478
      + coalesce(unicode(substr(uid, 47, 1)), 0) * 399814
      + coalesce(unicode(substr(uid, 48, 1)), 0) * 277862
      + coalesce(unicode(substr(uid, 49, 1)), 0) * 513573
      + coalesce(unicode(substr(uid, 50, 1)), 0) * 286364
      + coalesce(unicode(substr(uid, 51, 1)), 0) * 727379
      + coalesce(unicode(substr(uid, 52, 1)), 0) * 211660
      + coalesce(unicode(substr(uid, 53, 1)), 0) * 55051
      + coalesce(unicode(substr(uid, 54, 1)), 0) * 259963
      + coalesce(unicode(substr(uid, 55, 1)), 0) * 108855
      + coalesce(unicode(substr(uid, 56, 1)), 0) * 176404
      + coalesce(unicode(substr(uid, 57, 1)), 0) * 718906
      + coalesce(unicode(substr(uid, 58, 1)), 0) * 982590
      + coalesce(unicode(substr(uid, 59, 1)), 0) * 373914
      + coalesce(unicode(substr(uid, 60, 1)), 0) * 499039
      + coalesce(unicode(substr(uid, 61, 1)), 0) * 248085
      + coalesce(unicode(substr(uid, 62, 1)), 0) * 17161
      + coalesce(unicode(substr(uid, 63, 1)), 0) * 131
      + coalesce(unicode(substr(uid, 64, 1)), 0) * 1
    ) % 1000003
  ) % 1000003 % 10000
) VIRTUAL;
-- A phase's radios (bucket range) and the drift counts, without touching the rows.
CREATE INDEX devices_account_bucket ON devices(account_id, status, rollout_bucket);
CREATE INDEX devices_account_revision ON devices(account_id, status, reported_revision, last_seen_at);

-- An account's configuration frozen when a deployment was confirmed: network config at every
-- level, profiles, rules. Immutable; content_hash (SHA-256 of content) tells equal ones apart.
CREATE TABLE revisions (
  id            TEXT PRIMARY KEY,
  account_id    TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  number        INTEGER NOT NULL,
  content_hash  TEXT NOT NULL,
  content       TEXT NOT NULL CHECK (json_valid(content)),
  created_at    TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  UNIQUE (account_id, number)
);
CREATE INDEX revisions_account_hash ON revisions(account_id, content_hash);

-- state: scheduled → running ⇄ paused → finished | cancelled; superseded by a newer one.
CREATE TABLE deployments (
  id                    TEXT PRIMARY KEY,
  account_id            TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  org_id                TEXT NOT NULL REFERENCES organizations(id),
  number                INTEGER NOT NULL,
  revision_id           TEXT NOT NULL REFERENCES revisions(id),
  -- What the account had deployed before: what "roll back" deploys again.
  previous_revision_id  TEXT REFERENCES revisions(id),
  -- A redeploy of an earlier revision names the deployment it rolls back.
  rollback_of           TEXT,
  state                 TEXT NOT NULL CHECK (state IN ('scheduled', 'running', 'paused', 'finished', 'cancelled', 'superseded')),
  -- Why it is paused: 'user', 'error-threshold', 'success-threshold'.
  pause_reason          TEXT,
  -- {phases:[{share, successPercent, successAction, errorKind, errorValue, errorMinimum, waitMinutes}], startAt?}
  plan                  TEXT NOT NULL CHECK (json_valid(plan)),
  -- {mode:'delivery'} | {mode:'at', at} | {mode:'user-delay', maxMinutes}
  switchover            TEXT NOT NULL CHECK (json_valid(switchover)),
  phase_index           INTEGER NOT NULL DEFAULT 0,
  phase_started_at      TEXT,
  -- When a timed phase (or a scheduled start) moves on by itself; the clock object's alarm.
  next_step_at          TEXT,
  -- Radios of the account when confirmed (its seat counter: O(1)).
  targeted              INTEGER NOT NULL,
  note                  TEXT NOT NULL DEFAULT '' CHECK (length(note) <= 500),
  created_by            TEXT NOT NULL,
  created_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  started_at            TEXT,
  ended_at              TEXT,
  updated_at            TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version               INTEGER NOT NULL DEFAULT 1,
  UNIQUE (account_id, number)
);
CREATE INDEX deployments_account_number ON deployments(account_id, number DESC);
CREATE INDEX deployments_due ON deployments(next_step_at) WHERE next_step_at IS NOT NULL;

-- What a radio reported about a deployment; written only when it reports.
CREATE TABLE deployment_devices (
  deployment_id  TEXT NOT NULL REFERENCES deployments(id) ON DELETE CASCADE,
  uid            TEXT NOT NULL,
  phase          INTEGER NOT NULL,
  state          TEXT NOT NULL CHECK (state IN ('delivered', 'applying', 'applied', 'failed', 'rejected', 'already_in_sync')),
  code           TEXT NOT NULL DEFAULT '' CHECK (length(code) <= 40),
  detail         TEXT NOT NULL DEFAULT '' CHECK (length(detail) <= 500),
  updated_at     TEXT NOT NULL,
  PRIMARY KEY (deployment_id, uid)
) WITHOUT ROWID;
-- Counts per state and per phase are one grouped query over this index; radios per state page by uid.
CREATE INDEX deployment_devices_state ON deployment_devices(deployment_id, state, uid);
CREATE INDEX deployment_devices_phase ON deployment_devices(deployment_id, phase, state);
CREATE INDEX deployment_devices_uid ON deployment_devices(uid, deployment_id);
