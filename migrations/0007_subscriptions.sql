-- Subscriptions and allocations (DESIGN.md §3): the seats an organization holds, and the seats
-- it gives from them to accounts in its tree (devices in an account then take those seats).
-- Dates are calendar days (YYYY-MM-DD, UTC); ends_at is the last day, NULL for no end.
-- "expired" is not stored: it is an active subscription whose ends_at has passed.

CREATE TABLE subscriptions (
  id          TEXT PRIMARY KEY,
  org_id      TEXT NOT NULL REFERENCES organizations(id),
  plan        TEXT NOT NULL CHECK (length(plan) BETWEEN 1 AND 80),
  quantity    INTEGER NOT NULL CHECK (quantity BETWEEN 1 AND 1000000),
  starts_at   TEXT NOT NULL,
  ends_at     TEXT,
  status      TEXT NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'suspended', 'cancelled')),
  reference   TEXT NOT NULL DEFAULT '' CHECK (length(reference) <= 80),
  created_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at  TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version     INTEGER NOT NULL DEFAULT 1,
  CHECK (ends_at IS NULL OR ends_at >= starts_at)
);
CREATE INDEX subscriptions_org ON subscriptions(org_id, starts_at);

-- One row per (subscription, account). Deleting an account gives its seats back.
CREATE TABLE allocations (
  id               TEXT PRIMARY KEY,
  subscription_id  TEXT NOT NULL REFERENCES subscriptions(id),
  account_id       TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  quantity         INTEGER NOT NULL CHECK (quantity >= 1),
  created_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at       TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  version          INTEGER NOT NULL DEFAULT 1,
  UNIQUE (subscription_id, account_id)
);
CREATE INDEX allocations_account ON allocations(account_id);

-- Seats are never over-allocated. The app writes allocations with single conditional
-- statements (src/server/data/allocations.ts) and answers a clear message when they change
-- nothing; these triggers are the last line: any other write that would give out more seats
-- than the subscription holds, or shrink a subscription below what is given out, aborts.
CREATE TRIGGER allocations_within_seats_on_insert
BEFORE INSERT ON allocations
WHEN (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = NEW.subscription_id) + NEW.quantity
     > (SELECT quantity FROM subscriptions WHERE id = NEW.subscription_id)
BEGIN
  SELECT RAISE(ABORT, 'seats over-allocated');
END;

CREATE TRIGGER allocations_within_seats_on_update
BEFORE UPDATE OF quantity, subscription_id ON allocations
WHEN (NEW.quantity > OLD.quantity OR NEW.subscription_id <> OLD.subscription_id)
  AND (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = NEW.subscription_id AND id <> OLD.id)
      + NEW.quantity > (SELECT quantity FROM subscriptions WHERE id = NEW.subscription_id)
BEGIN
  SELECT RAISE(ABORT, 'seats over-allocated');
END;

CREATE TRIGGER subscriptions_cover_allocations
BEFORE UPDATE OF quantity ON subscriptions
WHEN NEW.quantity < (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = NEW.id)
BEGIN
  SELECT RAISE(ABORT, 'seats over-allocated');
END;
