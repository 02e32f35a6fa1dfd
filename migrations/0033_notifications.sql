-- Notifications (issue 25): who wants which fleet event by email, per account, and the
-- organization's signed webhooks with their delivery log (src/server/notifications).

-- One row per user, account and event the user chose to hear about by email.
CREATE TABLE notification_preferences (
  user_id     TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  account_id  TEXT NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
  event       TEXT NOT NULL,
  PRIMARY KEY (account_id, event, user_id)
);
CREATE INDEX notification_preferences_user ON notification_preferences(user_id, account_id);

-- The secret is kept as is: signing needs it. It is shown once, on creation, and never again
-- (docs/webhooks.md). events: a JSON array of event names.
CREATE TABLE webhooks (
  id                    TEXT PRIMARY KEY,
  org_id                TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  url                   TEXT NOT NULL,
  events                TEXT NOT NULL,
  secret                TEXT NOT NULL,
  enabled               INTEGER NOT NULL DEFAULT 1,
  consecutive_failures  INTEGER NOT NULL DEFAULT 0,
  disabled_at           TEXT,
  created_at            TEXT NOT NULL,
  version               INTEGER NOT NULL DEFAULT 1
);
CREATE INDEX webhooks_org ON webhooks(org_id);

-- One row per event sent to a webhook; attempts and the last error as the queue retries it.
CREATE TABLE webhook_deliveries (
  id           TEXT PRIMARY KEY,
  webhook_id   TEXT NOT NULL REFERENCES webhooks(id) ON DELETE CASCADE,
  event        TEXT NOT NULL,
  body         TEXT NOT NULL,
  status       TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'failed')),
  attempts     INTEGER NOT NULL DEFAULT 0,
  last_status  INTEGER,
  last_error   TEXT,
  created_at   TEXT NOT NULL,
  updated_at   TEXT NOT NULL
);
CREATE INDEX webhook_deliveries_webhook ON webhook_deliveries(webhook_id, created_at DESC);
