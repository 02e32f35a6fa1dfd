-- Batch-ended event (issue 25): a bulk command batch ends once, when its last command becomes
-- final; ended_at is set by a conditional UPDATE (… AND ended_at IS NULL), so whoever sets it
-- (the expiry sweep or the report of the last command) is the one that raises the event.
ALTER TABLE command_batches ADD COLUMN ended_at TEXT;
-- The batches still running: the sweep looks only at these.
CREATE INDEX command_batches_open ON command_batches(id) WHERE ended_at IS NULL;
-- Batches that ended before this migration are not announced now.
UPDATE command_batches SET ended_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
 WHERE NOT EXISTS (SELECT 1 FROM commands c WHERE c.batch_id = command_batches.id AND c.state IN ('queued', 'sent', 'delivered'));
