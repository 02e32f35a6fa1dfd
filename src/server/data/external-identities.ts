import { all, type Db, first, newId, now, statement } from "./db";

/** A person's account at an identity provider (its `sub`), linked to one user. */
export type ExternalIdentity = {
  id: string;
  userId: string;
  providerId: string;
  subject: string;
  email: string;
  linkedAt: string;
  lastUsedAt: string | null;
};

type Row = {
  id: string;
  user_id: string;
  provider_id: string;
  subject: string;
  email: string;
  linked_at: string;
  last_used_at: string | null;
};

const columns = "id, user_id, provider_id, subject, email, linked_at, last_used_at";

function toIdentity(row: Row): ExternalIdentity {
  return {
    id: row.id,
    userId: row.user_id,
    providerId: row.provider_id,
    subject: row.subject,
    email: row.email,
    linkedAt: row.linked_at,
    lastUsedAt: row.last_used_at,
  };
}

export async function findExternalIdentity(db: Db, providerId: string, subject: string): Promise<ExternalIdentity | null> {
  const row = await first<Row>(
    db,
    `SELECT ${columns} FROM external_identities WHERE provider_id = ? AND subject = ?`,
    providerId,
    subject,
  );
  return row ? toIdentity(row) : null;
}

/** A user's linked identities, with the provider's name when it is a stored provider (null for the default one). */
export async function listUserExternalIdentities(
  db: Db,
  userId: string,
): Promise<(ExternalIdentity & { providerName: string | null })[]> {
  const rows = await all<Row & { provider_name: string | null }>(
    db,
    `SELECT e.id, e.user_id, e.provider_id, e.subject, e.email, e.linked_at, e.last_used_at, p.name AS provider_name
     FROM external_identities e LEFT JOIN identity_providers p ON p.id = e.provider_id
     WHERE e.user_id = ? ORDER BY e.linked_at, e.id`,
    userId,
  );
  return rows.map((row) => ({ ...toIdentity(row), providerName: row.provider_name }));
}

/**
 * Links an identity to a user, only if the user exists: in the batch that creates the user
 * from an invitation, nothing is linked when the invitation was no longer open.
 */
export function linkExternalIdentityStatement(
  db: Db,
  input: { userId: string; providerId: string; subject: string; email: string },
) {
  const at = now();
  return statement(
    db,
    `INSERT INTO external_identities (id, user_id, provider_id, subject, email, linked_at, last_used_at)
     SELECT ?, ?, ?, ?, ?, ?, ? WHERE EXISTS (SELECT 1 FROM users WHERE id = ?)`,
    newId("xid"),
    input.userId,
    input.providerId,
    input.subject,
    input.email,
    at,
    at,
    input.userId,
  );
}

/** A sign-in with the identity: when, and the address the provider gives today. */
export function touchExternalIdentityStatement(db: Db, id: string, email: string) {
  return statement(db, "UPDATE external_identities SET last_used_at = ?, email = ? WHERE id = ?", now(), email, id);
}

/**
 * Unlinks one of the user's identities, only while another way in remains: a password, a
 * passkey or another linked identity. The condition is in the statement, so two unlinks at
 * once cannot both pass; `changes` is 1 when it was removed.
 */
export function unlinkExternalIdentityStatement(db: Db, userId: string, id: string) {
  return statement(
    db,
    `DELETE FROM external_identities WHERE id = ? AND user_id = ? AND (
       EXISTS (SELECT 1 FROM users WHERE id = ? AND password_hash IS NOT NULL AND password_hash <> '')
       OR EXISTS (SELECT 1 FROM passkeys WHERE user_id = ?)
       OR EXISTS (SELECT 1 FROM external_identities WHERE user_id = ? AND id <> ?))`,
    id,
    userId,
    userId,
    userId,
    userId,
    id,
  );
}
