import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from "@simplewebauthn/server";
import type { Context } from "hono";
import { batch, newId } from "../data/db";
import {
  countUserPasskeys,
  findPasskeyByCredentialId,
  insertPasskeyStatement,
  listUserPasskeys,
  recordPasskeyUse,
} from "../data/passkeys";
import { deleteSessionStatement } from "../data/sessions";
import { findUserByEmail, findUserById, recordSignIn } from "../data/users";
import {
  type Ceremony,
  consumeChallengeById,
  consumeRegistrationChallenge,
  saveChallengeStatements,
} from "../data/webauthn-challenges";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { base64url, fromBase64url } from "./crypto";
import type { SessionUser } from "./sessions";
import { readSession, startSession } from "./sessions";
import { isAcceptedOrigin, webAuthnConfig } from "./webauthn-config";

/**
 * The passkey ceremonies (spec §3, §7; DESIGN.md §5) on top of @simplewebauthn/server:
 * challenges kept server-side, single use, 5 minutes, tagged with their ceremony; RP ID and
 * origins from configuration; user verification required; the signature counter checked.
 */

export const CHALLENGE_LIFETIME_MS = 5 * 60_000;
/** Ed25519, ES256, RS256: what platform authenticators use. */
const ALGORITHMS = [-8, -7, -257];
export const PASSKEY_NAME_MAX = 60;

type C = Context<AppEnv>;

/** The WebAuthn user handle: the user's id as UTF-8 bytes, which spec §5 bounds to 1–64 bytes. */
export function passkeyUserHandle(userId: string): Uint8Array<ArrayBuffer> {
  const bytes = new TextEncoder().encode(userId);
  if (bytes.length < 1 || bytes.length > 64) throw new Error("A passkey user id must be 1 to 64 bytes");
  return bytes;
}

async function saveChallenge(c: C, challenge: string, ceremony: Ceremony, userId: string | null): Promise<string> {
  const at = new Date();
  const id = newId("wac");
  const expiresAt = new Date(at.getTime() + CHALLENGE_LIFETIME_MS).toISOString();
  await batch(c.env.DB, saveChallengeStatements(c.env.DB, { id, challenge, ceremony, userId, expiresAt }, at));
  return id;
}

type ClientData = { type: string; challenge: string; origin: string };

/** The browser's client data (base64url JSON), or null when it is not readable. */
function clientDataOf(clientDataJSON: string): ClientData | null {
  try {
    const parsed = JSON.parse(new TextDecoder().decode(fromBase64url(clientDataJSON))) as Partial<ClientData>;
    const { type, challenge, origin } = parsed;
    if (typeof type !== "string" || typeof challenge !== "string" || typeof origin !== "string") return null;
    return { type, challenge, origin };
  } catch {
    return null;
  }
}

/**
 * The origin to expect: the one the browser reports when configuration accepts it, else the
 * configured ones (then verification fails, as it must). @simplewebauthn wants exact origins,
 * and the local demo accepts any localhost port.
 */
function expectedOrigins(c: C, reported: string): string[] {
  const config = webAuthnConfig(c.env);
  return isAcceptedOrigin(config, reported) ? [reported] : config.origins;
}

/** POST /api/passkey/register/start: options for a new passkey of the signed-in user. */
export async function registrationOptions(c: C, user: SessionUser): Promise<PublicKeyCredentialCreationOptionsJSON> {
  const existing = await listUserPasskeys(c.env.DB, user.id);
  const options = await generateRegistrationOptions({
    rpName: c.get("settings").appTitle,
    rpID: webAuthnConfig(c.env).rpId,
    userID: passkeyUserHandle(user.id),
    userName: user.email,
    userDisplayName: user.name || user.email,
    timeout: CHALLENGE_LIFETIME_MS,
    attestationType: "none",
    excludeCredentials: existing.map((p) => ({ id: p.credentialId, transports: p.transports })),
    authenticatorSelection: { residentKey: "required", requireResidentKey: true, userVerification: "required" },
    supportedAlgorithmIDs: ALGORITHMS,
  });
  await saveChallenge(c, options.challenge, "registration", user.id);
  return options;
}

export type RegisterResult =
  | { ok: true; authenticatorId: string }
  | { ok: false; reason: "challenge" | "verification" | "duplicate" };

/** POST /api/passkey/register/verify: checks the new credential and stores it under `name`. */
export async function registerPasskey(
  c: C,
  user: SessionUser,
  credential: RegistrationResponseJSON,
  name: string | undefined,
): Promise<RegisterResult> {
  const db = c.env.DB;
  const clientData = clientDataOf(credential.response.clientDataJSON);
  if (!clientData) return { ok: false, reason: "verification" };
  const challenge = await consumeRegistrationChallenge(db, clientData.challenge, user.id, new Date());
  if (!challenge) return { ok: false, reason: "challenge" };
  let verified: Awaited<ReturnType<typeof verifyRegistrationResponse>>;
  try {
    verified = await verifyRegistrationResponse({
      response: credential,
      expectedChallenge: challenge.challenge,
      expectedOrigin: expectedOrigins(c, clientData.origin),
      expectedRPID: webAuthnConfig(c.env).rpId,
      requireUserVerification: true,
      supportedAlgorithmIDs: ALGORITHMS,
    });
  } catch {
    return { ok: false, reason: "verification" };
  }
  if (!verified.verified) return { ok: false, reason: "verification" };
  const info = verified.registrationInfo;
  if (await findPasskeyByCredentialId(db, info.credential.id)) return { ok: false, reason: "duplicate" };
  const t = translatorFor(user.language ?? c.get("language"), c.get("settings").brandNamespace);
  const fallbackName = String(t("passkeys.defaultName", { number: (await countUserPasskeys(db, user.id)) + 1 }));
  const { id, statement } = insertPasskeyStatement(db, {
    userId: user.id,
    credentialId: info.credential.id,
    publicKey: base64url(info.credential.publicKey),
    counter: info.credential.counter,
    transports: credential.response.transports ?? [],
    name: (name?.trim() || fallbackName).slice(0, PASSKEY_NAME_MAX),
    deviceType: info.credentialDeviceType,
    backedUp: info.credentialBackedUp,
  });
  await batch(db, [statement]);
  return { ok: true, authenticatorId: id };
}

/**
 * POST /api/passkey/auth/start. The options never list credentials: every passkey here is
 * discoverable, and a list that is empty for some addresses and not for others would tell
 * which addresses have passkeys. With a username that has passkeys, the challenge is bound to
 * that user on the server, where nobody can see it.
 */
export async function authenticationOptions(
  c: C,
  username: string | undefined,
): Promise<{ options: PublicKeyCredentialRequestOptionsJSON; uniqueId: string }> {
  const user = username ? await findUserByEmail(c.env.DB, username) : null;
  const passkeys = user?.status === "active" ? await listUserPasskeys(c.env.DB, user.id) : [];
  const options = await generateAuthenticationOptions({
    rpID: webAuthnConfig(c.env).rpId,
    allowCredentials: [],
    userVerification: "required",
    timeout: CHALLENGE_LIFETIME_MS,
  });
  const restrictedTo = passkeys.length > 0 && user ? user.id : null;
  return { options, uniqueId: await saveChallenge(c, options.challenge, "authentication", restrictedTo) };
}

/**
 * POST /api/passkey/auth/verify. The challenge is used up first (whatever follows), then the
 * assertion is checked; a counter that did not move forward means a cloned authenticator and
 * is refused. Success is a signed-in session with a new token: user verification was required,
 * so the passkey stands for both factors.
 */
export async function signInWithPasskey(c: C, uniqueId: string, response: AuthenticationResponseJSON): Promise<boolean> {
  const db = c.env.DB;
  const challenge = await consumeChallengeById(db, uniqueId, "authentication", new Date());
  if (!challenge) return false;
  const clientData = clientDataOf(response.response.clientDataJSON);
  const passkey = await findPasskeyByCredentialId(db, response.id);
  if (!clientData || !passkey) return false;
  if (challenge.userId && challenge.userId !== passkey.userId) return false;
  // The user handle, when sent, must name the passkey's owner.
  if (response.response.userHandle && response.response.userHandle !== base64url(passkeyUserHandle(passkey.userId))) {
    return false;
  }
  const user = await findUserById(db, passkey.userId);
  if (user?.status !== "active") return false;
  let verified: Awaited<ReturnType<typeof verifyAuthenticationResponse>>;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge.challenge,
      expectedOrigin: expectedOrigins(c, clientData.origin),
      expectedRPID: webAuthnConfig(c.env).rpId,
      credential: { id: passkey.credentialId, publicKey: fromBase64url(passkey.publicKey), counter: passkey.counter },
      requireUserVerification: true,
    });
  } catch (error) {
    // The library refuses a counter that went back; say why in the log (a likely clone).
    console.warn(`passkey ${passkey.id} refused: ${error instanceof Error ? error.message : String(error)}`);
    return false;
  }
  if (!verified.verified || !verified.authenticationInfo.userVerified) return false;
  const info = verified.authenticationInfo;
  const recorded = await recordPasskeyUse(db, {
    id: passkey.id,
    previousCounter: passkey.counter,
    newCounter: info.newCounter,
    backedUp: info.credentialBackedUp,
    deviceType: info.credentialDeviceType,
  });
  if (!recorded) return false;
  const previous = await readSession(c);
  await startSession(c, user, "signed-in", previous ? [deleteSessionStatement(db, previous.record.id)] : []);
  await recordSignIn(db, user.id);
  return true;
}
