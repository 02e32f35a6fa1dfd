import { type Db, first, statement } from "./db";

/** A single sign-on on its way to the provider and back (state, PKCE verifier, nonce). */
export type OidcLogin = {
  state: string;
  providerId: string;
  codeVerifier: string;
  nonce: string;
  next: string;
  expiresAt: string;
};

type Row = { state: string; provider_id: string; code_verifier: string; nonce: string; next: string; expires_at: string };

/** Saves a new login and forgets the expired ones, in one batch. */
export function saveOidcLoginStatements(db: Db, login: OidcLogin, at: string) {
  return [
    statement(db, "DELETE FROM oidc_logins WHERE expires_at <= ?", at),
    statement(
      db,
      "INSERT INTO oidc_logins (state, provider_id, code_verifier, nonce, next, expires_at) VALUES (?, ?, ?, ?, ?, ?)",
      login.state,
      login.providerId,
      login.codeVerifier,
      login.nonce,
      login.next,
      login.expiresAt,
    ),
  ];
}

/**
 * Takes the login a state names: read and deleted in one statement, so a state works once
 * even when two callbacks race. Expiry is the caller's check.
 */
export async function takeOidcLogin(db: Db, state: string): Promise<OidcLogin | null> {
  const row = await first<Row>(
    db,
    "DELETE FROM oidc_logins WHERE state = ? RETURNING state, provider_id, code_verifier, nonce, next, expires_at",
    state,
  );
  return row
    ? {
        state: row.state,
        providerId: row.provider_id,
        codeVerifier: row.code_verifier,
        nonce: row.nonce,
        next: row.next,
        expiresAt: row.expires_at,
      }
    : null;
}
