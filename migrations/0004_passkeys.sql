-- Passkeys (DESIGN.md §3, §5): WebAuthn credentials of users, and the server-side challenges
-- of their ceremonies.

-- credential_id and public_key are base64url; counter is the authenticator's signature
-- counter (a value going back means a cloned authenticator); transports is a JSON array.
CREATE TABLE passkeys (
  id             TEXT PRIMARY KEY,
  user_id        TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
  credential_id  TEXT NOT NULL UNIQUE,
  public_key     TEXT NOT NULL,
  counter        INTEGER NOT NULL DEFAULT 0,
  transports     TEXT NOT NULL DEFAULT '[]',
  name           TEXT NOT NULL,
  device_type    TEXT NOT NULL DEFAULT 'singleDevice' CHECK (device_type IN ('singleDevice', 'multiDevice')),
  backed_up      INTEGER NOT NULL DEFAULT 0,
  created_at     TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
  last_used_at   TEXT
);
CREATE INDEX passkeys_user ON passkeys(user_id);

-- One row per ceremony started: single use (used_at), short-lived (expires_at) and tagged
-- with its ceremony, so a registration challenge can never complete an authentication.
-- user_id: who registers, or whose credentials an authentication was restricted to.
CREATE TABLE webauthn_challenges (
  id          TEXT PRIMARY KEY,
  challenge   TEXT NOT NULL UNIQUE,
  ceremony    TEXT NOT NULL CHECK (ceremony IN ('registration', 'authentication')),
  user_id     TEXT REFERENCES users(id) ON DELETE CASCADE,
  expires_at  TEXT NOT NULL,
  used_at     TEXT
);
CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges(expires_at);
