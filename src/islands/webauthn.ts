/**
 * The WebAuthn browser library as an entry of its own, loaded by URL (passkey-client.ts) when a
 * passkey ceremony starts: a bare dynamic import would bring Vite's preload helper into a chunk
 * that the sign-in script and the island bootstrap then share, a request and bytes on every form page.
 */
export { startAuthentication, startRegistration, WebAuthnAbortService } from "@simplewebauthn/browser";
