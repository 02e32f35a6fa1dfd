import type {
  AuthenticationResponseJSON,
  PublicKeyCredentialCreationOptionsJSON,
  PublicKeyCredentialRequestOptionsJSON,
} from "@simplewebauthn/browser";
import { FetchError, postJson } from "./runtime/fetch-json";

/**
 * What the sign-in and security islands share about passkeys: the calls of spec §7, the
 * browser library loaded only when a ceremony starts (it is not in any island's own chunk),
 * and one mapping from its errors to translated messages (spec §8).
 */

type Library = typeof import("./webauthn");
let library: Library | undefined;

/** The library, from the URL the page names (`data-webauthn-src` on <body>, src/ui/shell/document.tsx). */
async function webAuthn(): Promise<Library> {
  library ??= (await import(/* @vite-ignore */ document.body.dataset.webauthnSrc ?? "")) as Library;
  return library;
}

/** Spec §8: what a browser without WebAuthn raises (and what we raise before trying). */
const NOT_SUPPORTED = "WebAuthn is not supported in this browser";

function supported(): boolean {
  return typeof window !== "undefined" && typeof window.PublicKeyCredential === "function";
}

/** The "Sign in with a passkey" button's condition (spec §6), decided in the browser after hydration. */
export async function platformAuthenticatorAvailable(): Promise<boolean> {
  if (!supported()) return false;
  return PublicKeyCredential.isUserVerifyingPlatformAuthenticatorAvailable().catch(() => false);
}

/** Whether the browser can offer passkeys in the email field's autofill (conditional UI). */
export async function conditionalMediationAvailable(): Promise<boolean> {
  if (!supported() || typeof PublicKeyCredential.isConditionalMediationAvailable !== "function") return false;
  return PublicKeyCredential.isConditionalMediationAvailable().catch(() => false);
}

/** Requests the user started (the button) that are under way; autofill requests yield to them. */
let foreground = 0;

/** Ends a background (autofill) request, e.g. when the user goes on with a password. */
export function cancelPasskeyRequest(): void {
  library?.WebAuthnAbortService.cancelCeremony();
}

/** Creates a passkey for the signed-in user and stores it; answers its id. */
export async function addPasskey(name: string): Promise<string> {
  if (!supported()) throw new Error(NOT_SUPPORTED);
  const [{ startRegistration }, optionsJSON] = await Promise.all([
    webAuthn(),
    postJson<PublicKeyCredentialCreationOptionsJSON>("/api/passkey/register/start"),
  ]);
  const credential = await startRegistration({ optionsJSON });
  const answer = await postJson<{ authenticatorId: string }>("/api/passkey/register/verify", {
    ...credential,
    name: name.trim() || undefined,
  });
  return answer.authenticatorId;
}

/**
 * Signs in with a passkey: any the browser holds for this site (discoverable), those of
 * `username`, or the one picked in the email field's autofill (`autofill`). True once signed
 * in; false when the server refused the passkey.
 */
export async function signInWithPasskey({ username, autofill = false }: { username?: string; autofill?: boolean }) {
  if (!supported()) throw new Error(NOT_SUPPORTED);
  if (!autofill) foreground += 1;
  try {
    const [{ startAuthentication }, { options, uniqueId }] = await Promise.all([
      webAuthn(),
      postJson<{ options: PublicKeyCredentialRequestOptionsJSON; uniqueId: string }>(
        "/api/passkey/auth/start",
        username ? { username } : {},
      ),
    ]);
    // Starting now would cancel a request the user asked for meanwhile (one ceremony at a time).
    if (autofill && foreground > 0) throw Object.assign(new Error("Superseded"), { name: "AbortError" });
    const response: AuthenticationResponseJSON = await startAuthentication({
      optionsJSON: options,
      useBrowserAutofill: autofill,
    });
    return (await postJson<{ ok: boolean }>("/api/passkey/auth/verify", { uniqueId, response })).ok;
  } catch (error) {
    if (error instanceof FetchError && error.status === 401) return false;
    throw error;
  } finally {
    if (!autofill) foreground -= 1;
  }
}

/** The library's error codes (WebAuthnError.code) → translation keys (spec §8). */
const codeKeys: Record<string, string> = {
  ERROR_CEREMONY_ABORTED: "passkeys.error.aborted",
  ERROR_AUTHENTICATOR_MISSING_DISCOVERABLE_CREDENTIAL_SUPPORT: "passkeys.error.noDiscoverable",
  ERROR_AUTHENTICATOR_MISSING_USER_VERIFICATION_SUPPORT: "passkeys.error.noUserVerification",
  ERROR_AUTHENTICATOR_PREVIOUSLY_REGISTERED: "passkeys.error.alreadyRegistered",
  ERROR_INVALID_RP_ID: "passkeys.error.invalidRpId",
  ERROR_INVALID_DOMAIN: "passkeys.error.invalidDomain",
  ERROR_INVALID_USER_ID_LENGTH: "passkeys.error.userIdLength",
  ERROR_AUTHENTICATOR_GENERAL_ERROR: "passkeys.error.general",
};

export const passkeyMessageKeys = [...new Set(Object.values(codeKeys))].concat([
  "passkeys.error.notSupported",
  "passkeys.error.network",
  "passkeys.error.tooMany",
]);

/** A cancelled or aborted ceremony: nothing to report for a background request. */
export function isAborted(error: unknown): boolean {
  return errorKey(error) === "passkeys.error.aborted";
}

/** The translation key for anything a passkey ceremony threw. */
export function errorKey(error: unknown): string {
  if (error instanceof FetchError) {
    if (error.status === 429) return "passkeys.error.tooMany";
    return error.status === 409 ? "passkeys.error.alreadyRegistered" : "passkeys.error.general";
  }
  if (!(error instanceof Error)) return "passkeys.error.general";
  if (error.message === NOT_SUPPORTED) return "passkeys.error.notSupported";
  const code = "code" in error && typeof error.code === "string" ? error.code : "";
  // fetch fails with a bare TypeError when the server cannot be reached.
  if (error instanceof TypeError && !code) return "passkeys.error.network";
  // The user closed the browser's dialog or it timed out (NotAllowedError, passed through).
  const cause = error.cause instanceof Error ? error.cause.name : error.name;
  if (cause === "NotAllowedError" || cause === "AbortError") return "passkeys.error.aborted";
  return codeKeys[code] ?? "passkeys.error.general";
}
