-- Firmware drift (issue 26): an account's newest firmware deployment in one index probe,
-- however many configuration deployments came after it.
CREATE INDEX deployments_account_firmware ON deployments(account_id, number DESC) WHERE kind = 'firmware';
