-- Confirming twice (a double click, a retried request, two tabs) makes one deployment: the
-- confirm form and deployments.create/rollback carry a key, unique per account.
ALTER TABLE deployments ADD COLUMN idempotency_key TEXT;
CREATE UNIQUE INDEX deployments_idempotency ON deployments(account_id, idempotency_key) WHERE idempotency_key IS NOT NULL;
