-- Firmware over the air (issue 26). A package is a file in the FIRMWARE bucket (R2) with its
-- SHA-256 and an Ed25519 signature by its organization's key; a firmware deployment is a
-- deployment (same engine, same plan, targets, approval, pace) of kind 'firmware' that names a
-- package instead of giving radios a new configuration.

-- An organization's signing key. The private key is PKCS#8, encrypted (AES-GCM) with the
-- deployment's FIRMWARE_KEY_SECRET; radios get the public keys of their organization and its
-- ancestors in their configuration (so a vendor's package verifies on a customer's radio).
CREATE TABLE firmware_signing_keys (
  org_id       TEXT PRIMARY KEY REFERENCES organizations(id) ON DELETE CASCADE,
  key_id       TEXT NOT NULL UNIQUE,
  -- Raw 32-byte Ed25519 public key, base64.
  public_key   TEXT NOT NULL,
  -- base64(iv ‖ AES-GCM(pkcs8)).
  private_key  TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))
);

-- state: uploading (parts arrive through an R2 multipart upload) → ready (hashed and signed).
CREATE TABLE firmware_packages (
  id           TEXT PRIMARY KEY,
  org_id       TEXT NOT NULL REFERENCES organizations(id) ON DELETE CASCADE,
  version      TEXT NOT NULL CHECK (length(version) BETWEEN 1 AND 40),
  -- JSON array of the radio models it fits (1–50 names as devices.model spells them).
  models       TEXT NOT NULL CHECK (json_valid(models) AND json_type(models) = 'array'),
  notes        TEXT NOT NULL DEFAULT '' CHECK (length(notes) <= 5000),
  state        TEXT NOT NULL DEFAULT 'uploading' CHECK (state IN ('uploading', 'ready')),
  object_key   TEXT NOT NULL UNIQUE,
  upload_id    TEXT,
  -- Parts received so far: [{"partNumber":1,"etag":"…","size":…}].
  parts        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(parts)),
  size         INTEGER NOT NULL DEFAULT 0,
  sha256       TEXT,
  signature    TEXT,
  key_id       TEXT,
  created_by   TEXT NOT NULL,
  created_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  updated_at   TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  row_version  INTEGER NOT NULL DEFAULT 1,
  UNIQUE (org_id, version)
);
CREATE INDEX firmware_packages_org ON firmware_packages(org_id, state, created_at DESC);

-- kind 'firmware': package_id is what the radios install; revision_id stays the configuration
-- revision in force when it was confirmed (so a reader that forgets the kind gives radios the
-- configuration they already have, never a wrong one). previous_package_id: what "roll back"
-- installs again.
ALTER TABLE deployments ADD COLUMN kind TEXT NOT NULL DEFAULT 'config' CHECK (kind IN ('config', 'firmware'));
ALTER TABLE deployments ADD COLUMN package_id TEXT REFERENCES firmware_packages(id);
ALTER TABLE deployments ADD COLUMN previous_package_id TEXT REFERENCES firmware_packages(id);
-- A radio's read takes the account's newest firmware deployments apart from its configuration ones.
CREATE INDEX deployments_account_kind ON deployments(account_id, kind, number DESC);
CREATE INDEX deployments_package ON deployments(package_id) WHERE package_id IS NOT NULL;
CREATE INDEX deployments_previous_package ON deployments(previous_package_id) WHERE previous_package_id IS NOT NULL;

-- A firmware report's stage (state stays the engine's: downloading … rebooting are 'applying',
-- updated is 'applied', a failure at any stage or a boot of the old firmware is 'failed'),
-- the download's progress in percent, and the firmware the radio ran when it started.
ALTER TABLE deployment_devices ADD COLUMN stage TEXT CHECK (stage IS NULL OR stage IN
  ('downloading', 'downloaded', 'verified', 'installing', 'rebooting', 'updated', 'booted-old',
   'download', 'verify', 'install', 'reboot'));
ALTER TABLE deployment_devices ADD COLUMN progress INTEGER CHECK (progress IS NULL OR progress BETWEEN 0 AND 100);
ALTER TABLE deployment_devices ADD COLUMN from_firmware TEXT CHECK (from_firmware IS NULL OR length(from_firmware) <= 40);

-- A radio's firmware history: one row each time the firmware it reports changes (rare: written
-- only by the check-in that carries a new version, never by an idle one).
CREATE TABLE device_firmware_history (
  uid        TEXT NOT NULL,
  at         TEXT NOT NULL,
  firmware   TEXT NOT NULL,
  previous   TEXT NOT NULL,
  PRIMARY KEY (uid, at, firmware)
) WITHOUT ROWID;
CREATE TRIGGER device_firmware_history_update AFTER UPDATE OF firmware ON devices
WHEN OLD.firmware IS NOT NEW.firmware AND NEW.firmware <> ''
BEGIN
  INSERT OR IGNORE INTO device_firmware_history (uid, at, firmware, previous)
  VALUES (NEW.uid, strftime('%Y-%m-%dT%H:%M:%fZ', 'now'), NEW.firmware, OLD.firmware);
END;
