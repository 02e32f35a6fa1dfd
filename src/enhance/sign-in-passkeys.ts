import {
  cancelPasskeyRequest,
  conditionalMediationAvailable,
  errorKey,
  platformAuthenticatorAvailable,
  signInWithPasskey,
} from "@/islands/passkey-client";
import type { SignInStep } from "@/schema/sign-in";

/** The autofill request is renewed before its server-side challenge (5 minutes) expires. */
const AUTOFILL_RENEW_MS = 4.5 * 60_000;

type Options = {
  /** The server's hidden "Sign in with a passkey" button (absent when the feature is off). */
  button: HTMLButtonElement | null;
  /** The passkey feature flag (spec §6). */
  enabled: boolean;
  step: () => SignInStep;
  email: () => string;
  signedIn: () => void;
  /** A translation key for the form's message; "" clears it. */
  fail: (key: string) => void;
};

/**
 * Passkey sign-in on the sign-in page. The button shows only once the browser says it has a
 * user-verifying platform authenticator (spec §6), on the email and password steps. On the
 * email step a background request lets the browser offer passkeys in the email field's
 * autofill; it is cancelled when the user goes on another way. `stepChanged` follows the form.
 */
export function startPasskeys({ button, enabled, step, email, signedIn, fail }: Options) {
  let available = false;
  let busy = false;
  let autofill: (() => void) | null = null;

  /** Starts the background request; answers how to stop it. */
  function startAutofill(): () => void {
    let live = true;
    const renew = setTimeout(() => {
      if (!busy) restartAutofill();
    }, AUTOFILL_RENEW_MS);
    void (async () => {
      if (!(await conditionalMediationAvailable()) || !live) return;
      try {
        const ok = await signInWithPasskey({ autofill: true });
        if (!live) return;
        if (ok) signedIn();
        else {
          fail("signIn.PasskeyAuthenticationFailed");
          restartAutofill();
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
      if (!busy) cancelPasskeyRequest();
    };
  }

  /** Passkeys need a secure context (https or localhost): elsewhere do not even start. */
  function syncAutofill() {
    const wanted = enabled && step() === "email" && globalThis.isSecureContext;
    if (wanted && !autofill) autofill = startAutofill();
    if (!wanted && autofill) {
      autofill();
      autofill = null;
    }
  }

  function restartAutofill() {
    autofill?.();
    autofill = null;
    syncAutofill();
  }

  function stepChanged() {
    if (button) button.hidden = !(available && (step() === "email" || step() === "password"));
    syncAutofill();
  }

  function setPending(on: boolean) {
    for (const name of ["aria-busy", "aria-disabled"]) {
      if (on) button?.setAttribute(name, "true");
      else button?.removeAttribute(name);
    }
  }

  button?.addEventListener("click", async () => {
    if (busy) return;
    busy = true;
    setPending(true);
    fail("");
    try {
      if (await signInWithPasskey({ username: step() === "password" ? email() : undefined })) {
        signedIn();
        return; // stay busy while the browser navigates
      }
      fail("signIn.PasskeyAuthenticationFailed");
    } catch (error) {
      fail(errorKey(error));
    }
    busy = false;
    setPending(false);
    restartAutofill(); // the button's request replaced the autofill one: start it again
  });

  if (enabled) {
    void platformAuthenticatorAvailable().then((yes) => {
      available = yes;
      stepChanged();
    });
  }
  syncAutofill();
  return { stepChanged };
}
