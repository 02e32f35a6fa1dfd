-- Four-eyes approval of deployments (issue 25, after hawkBit's approval workflow). An account may
-- ask that each deployment wait for a second person with create-deployments (never its author);
-- nobody deciding within the expiry ends it.
ALTER TABLE accounts ADD COLUMN approval_required INTEGER NOT NULL DEFAULT 0 CHECK (approval_required IN (0, 1));
ALTER TABLE accounts ADD COLUMN approval_expiry_hours INTEGER NOT NULL DEFAULT 72 CHECK (approval_expiry_hours BETWEEN 1 AND 168);

-- A deployment waiting for approval is `scheduled` with approval 'pending' (radios are told
-- nothing of scheduled deployments); its next_step_at is the expiry, when the clock ends it.
ALTER TABLE deployments ADD COLUMN approval TEXT NOT NULL DEFAULT 'none'
  CHECK (approval IN ('none', 'pending', 'approved', 'rejected', 'expired'));
-- The confirming person's user id (created_by keeps their email, which may change).
ALTER TABLE deployments ADD COLUMN approval_author_id TEXT;
-- Who decided (user email, as created_by), their note, and when; NULL/'' until decided.
ALTER TABLE deployments ADD COLUMN approved_by TEXT;
ALTER TABLE deployments ADD COLUMN approval_note TEXT NOT NULL DEFAULT '';
ALTER TABLE deployments ADD COLUMN decided_at TEXT;
ALTER TABLE deployments ADD COLUMN approval_expires_at TEXT;
-- The account's deployments waiting for a decision (the list's badge, the account home's count).
CREATE INDEX deployments_awaiting_approval ON deployments(account_id) WHERE approval = 'pending';
