import { isCommonPassword } from "./common-passwords";
import { base64url, constantTimeEqual, fromBase64url } from "./crypto";

/**
 * PBKDF2-SHA256 with a per-user 128-bit salt and 100,000 iterations: the most Workers'
 * WebCrypto accepts (DESIGN.md §5). The stored form names its parameters, so a stronger
 * scheme can be introduced later and old hashes still verify.
 */
export const PBKDF2_ITERATIONS = 100_000;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;
const KEY_BYTES = 32;

async function derive(password: string, salt: Uint8Array<ArrayBuffer>, iterations: number): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey("raw", new TextEncoder().encode(password), "PBKDF2", false, ["deriveBits"]);
  const bits = await crypto.subtle.deriveBits({ name: "PBKDF2", hash: "SHA-256", salt, iterations }, key, KEY_BYTES * 8);
  return new Uint8Array(bits);
}

export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(16));
  const hash = await derive(password, salt, PBKDF2_ITERATIONS);
  return `pbkdf2-sha256$${PBKDF2_ITERATIONS}$${base64url(salt)}$${base64url(hash)}`;
}

/** A hash of nothing in particular, verified against when the email is unknown (equal timing). */
const DECOY_HASH = `pbkdf2-sha256$${PBKDF2_ITERATIONS}$AAAAAAAAAAAAAAAAAAAAAA$AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`;

export async function verifyPassword(password: string, stored: string | null): Promise<boolean> {
  const [scheme, iterations, salt, expected] = (stored ?? DECOY_HASH).split("$");
  if (scheme !== "pbkdf2-sha256" || !iterations || !salt || !expected) return false;
  const actual = await derive(password, fromBase64url(salt), Number(iterations));
  return constantTimeEqual(base64url(actual), expected) && stored !== null;
}

/** The password rules, as translation keys (no composition rules, DESIGN.md §5). */
export function passwordProblem(password: string): string | null {
  if (password.length === 0) return "validation.PasswordRequired";
  if (password.length < PASSWORD_MIN_LENGTH) return "validation.PasswordTooShort";
  if (password.length > PASSWORD_MAX_LENGTH) return "validation.PasswordTooLong";
  if (isCommonPassword(password)) return "validation.PasswordTooCommon";
  return null;
}
