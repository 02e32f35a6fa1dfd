-- Activity log (DESIGN.md §3): every change, written in the same D1 batch as the change.
-- Configuration changes (deployable = 1) without a deployment are the "changes to deploy".
CREATE TABLE activity_logs (
  id             TEXT PRIMARY KEY,
  org_id         TEXT NOT NULL REFERENCES organizations(id),
  account_id     TEXT,
  actor_id       TEXT,
  actor_email    TEXT NOT NULL,
  action         TEXT NOT NULL CHECK (action IN ('create', 'update', 'delete')),
  entity_type    TEXT NOT NULL,
  entity_id      TEXT NOT NULL,
  entity_label   TEXT NOT NULL DEFAULT '',
  diff           TEXT NOT NULL DEFAULT '{}',
  deployable     INTEGER NOT NULL DEFAULT 0,
  deployment_id  TEXT,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);
CREATE INDEX activity_logs_account_time ON activity_logs(account_id, created_at DESC, id DESC);
CREATE INDEX activity_logs_pending ON activity_logs(account_id, deployable, deployment_id);
