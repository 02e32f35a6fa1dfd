-- Reports (issue 14): every figure is a grouped read of an index of the account's rows, never
-- rows loaded into the Worker. Each index covers the columns its report groups and counts.

-- Inventory by site and location, compliance and last seen by site: one pass, no table reads.
CREATE INDEX devices_account_place ON devices(account_id, status, site_id, location_id, last_seen_at, reported_revision, uid);
-- Inventory and firmware by version.
CREATE INDEX devices_account_firmware ON devices(account_id, status, firmware);
-- Commands in a date range, by type, outcome and time to deliver.
CREATE INDEX commands_account_time ON commands(account_id, created_at, type, state, delivered_at);
-- Configuration activity in a date range, per person, kind and action.
CREATE INDEX activity_logs_account_report ON activity_logs(account_id, created_at, actor_email, entity_type, action);
-- Deployments of a date range.
CREATE INDEX deployments_account_created ON deployments(account_id, created_at);
-- When the k-th radio of a deployment had it (time to 50 %, 90 %, 100 %).
CREATE INDEX deployment_devices_reached ON deployment_devices(deployment_id, updated_at, state)
  WHERE state IN ('applied', 'already_in_sync');
-- Failures of a deployment by reason.
CREATE INDEX deployment_devices_failures ON deployment_devices(deployment_id, code, state)
  WHERE state IN ('failed', 'rejected');
