import { type Db, first, statement } from "./db";

export type Ceremony = "registration" | "authentication";

export type WebAuthnChallenge = {
  /** The uniqueId the browser is given (authentication) — a lookup handle, not a secret. */
  id: string;
  /** base64url, as in the options and the client data. */
  challenge: string;
  ceremony: Ceremony;
  userId: string | null;
  expiresAt: string;
};

type Row = { id: string; challenge: string; ceremony: Ceremony; user_id: string | null; expires_at: string };

function toChallenge(row: Row): WebAuthnChallenge {
  return { id: row.id, challenge: row.challenge, ceremony: row.ceremony, userId: row.user_id, expiresAt: row.expires_at };
}

/** Saves a new challenge; rows that expired a day ago go on the way, so the table stays small. */
export function saveChallengeStatements(db: Db, challenge: WebAuthnChallenge, at: Date) {
  const dayAgo = new Date(at.getTime() - 24 * 60 * 60_000).toISOString();
  return [
    statement(db, "DELETE FROM webauthn_challenges WHERE expires_at < ?", dayAgo),
    statement(
      db,
      "INSERT INTO webauthn_challenges (id, challenge, ceremony, user_id, expires_at) VALUES (?, ?, ?, ?, ?)",
      challenge.id,
      challenge.challenge,
      challenge.ceremony,
      challenge.userId,
      challenge.expiresAt,
    ),
  ];
}

const live = "used_at IS NULL AND expires_at > ? AND ceremony = ?";

/**
 * Marks an authentication challenge used and returns it, in one statement: of two requests with
 * the same uniqueId only one gets it. An unknown, used, expired or registration challenge
 * returns null and is left as it was.
 */
export async function consumeChallengeById(db: Db, id: string, ceremony: Ceremony, at: Date): Promise<WebAuthnChallenge | null> {
  const row = await first<Row>(
    db,
    `UPDATE webauthn_challenges SET used_at = ? WHERE id = ? AND ${live}
     RETURNING id, challenge, ceremony, user_id, expires_at`,
    at.toISOString(),
    id,
    at.toISOString(),
    ceremony,
  );
  return row ? toChallenge(row) : null;
}

/** The registration variant: found by the challenge the browser signed, and only for its user. */
export async function consumeRegistrationChallenge(
  db: Db,
  challenge: string,
  userId: string,
  at: Date,
): Promise<WebAuthnChallenge | null> {
  const row = await first<Row>(
    db,
    `UPDATE webauthn_challenges SET used_at = ? WHERE challenge = ? AND user_id = ? AND ${live}
     RETURNING id, challenge, ceremony, user_id, expires_at`,
    at.toISOString(),
    challenge,
    userId,
    at.toISOString(),
    "registration",
  );
  return row ? toChallenge(row) : null;
}
