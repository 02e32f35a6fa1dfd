import { useEffect, useRef, useState } from "react";
import { Button } from "../ui/button";
import {
  cancelPasskeyRequest,
  conditionalMediationAvailable,
  errorKey,
  platformAuthenticatorAvailable,
  signInWithPasskey,
} from "./passkey-client";

/** The autofill request is renewed before its server-side challenge (5 minutes) expires. */
const AUTOFILL_RENEW_MS = 4.5 * 60_000;

type Props = {
  /** The passkey feature flag (spec §6). */
  enabled: boolean;
  /** After the email step: sign in with that user's passkeys; before it, with any (discoverable). */
  username?: string;
  /** The email step is showing: offer passkeys in its field's autofill meanwhile (conditional UI). */
  autofill: boolean;
  label: string;
  onSignedIn: () => void;
  /** A translation key for the form's message; "" clears it. */
  onError: (key: string) => void;
};

/**
 * Passkey sign-in inside the sign-in island. The button appears only in the browser, once it
 * says it has a user-verifying platform authenticator (spec §6), so the server's HTML and
 * hydration agree. On the email step a background request lets the browser offer passkeys in
 * the email field's autofill; it is cancelled when the user goes on another way.
 */
export function PasskeySignIn({ enabled, username, autofill, label, onSignedIn, onError }: Props) {
  const [available, setAvailable] = useState(false);
  const [pending, setPending] = useState(false);
  const [round, setRound] = useState(0);
  const busy = useRef(false);
  // The latest callbacks, for requests that outlive the render that started them.
  const callbacks = useRef({ onSignedIn, onError });
  callbacks.current = { onSignedIn, onError };

  useEffect(() => {
    if (enabled) void platformAuthenticatorAvailable().then(setAvailable);
  }, [enabled]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: `round` restarts the autofill request
  useEffect(() => {
    // Passkeys need a secure context (https or localhost): elsewhere do not even start.
    if (!enabled || !autofill || !globalThis.isSecureContext) return;
    let live = true;
    const renew = setTimeout(() => {
      if (!busy.current) setRound((n) => n + 1);
    }, AUTOFILL_RENEW_MS);
    void (async () => {
      if (!(await conditionalMediationAvailable()) || !live) return;
      try {
        const signedIn = await signInWithPasskey({ autofill: true });
        if (!live) return;
        if (signedIn) callbacks.current.onSignedIn();
        else {
          callbacks.current.onError("signIn.PasskeyAuthenticationFailed");
          setRound((n) => n + 1);
        }
      } catch {
        // Nobody asked for this background request: it was cancelled (the user went on, or
        // pressed the button) or passkeys cannot work here (plain http, no authenticator).
        // Say so only when someone tries a passkey (the button), never on opening the page.
      }
    })();
    return () => {
      live = false;
      clearTimeout(renew);
      if (!busy.current) cancelPasskeyRequest();
    };
  }, [enabled, autofill, round]);

  async function onClick() {
    if (busy.current) return;
    busy.current = true;
    setPending(true);
    onError("");
    try {
      if (await signInWithPasskey({ username })) {
        onSignedIn();
        return; // stay busy while the browser navigates
      }
      onError("signIn.PasskeyAuthenticationFailed");
    } catch (error) {
      onError(errorKey(error));
    }
    busy.current = false;
    setPending(false);
    setRound((n) => n + 1); // the button's request replaced the autofill one: start it again
  }

  if (!enabled || !available) return null;
  return (
    <Button variant="white" pending={pending} onClick={onClick}>
      {label}
    </Button>
  );
}
