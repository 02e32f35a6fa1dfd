/**
 * What the sign-in page's server rendering and its plain enhancement script (src/enhance/sign-in)
 * share: the steps of spec §4, the rules of spec §5 and the strings the script is given.
 */

/** The sign-in states of spec §4 ("signed in" leaves the page). */
export type SignInStep = "email" | "password" | "sso" | "need-2fa" | "need-otp";
export const signInSteps: readonly SignInStep[] = ["email", "password", "sso", "need-2fa", "need-otp"];
export type Provider = { id: string; name: string };
/** Field ("email", "password", "otp", or "form" for the whole step) → translation key. */
export type SignInErrors = Record<string, string>;

/** What the script reads from the form's `data-config` (JSON, written by the server). */
export type SignInConfig = {
  messages: Record<string, string>;
  /** Where to go once signed in: a local path, already checked by the server. */
  next: string;
  /** The state the server rendered: a form posted without JavaScript comes back at a later step. */
  step: SignInStep;
  email: string;
  sso: Provider | null;
  /** The passkey feature flag (spec §6); the browser decides the rest. */
  passkeys: boolean;
  /**
   * The classes of a field with and without an error and of the error summary's parts, from
   * the server's own components: the script then shares no chunk with the React islands.
   */
  classes: {
    control: string;
    controlError: string;
    summary: { box: string; title: string; message: string; list: string; link: string };
  };
};

/** Spec §5: required, and like name@example.com with no spaces. The form action uses it too. */
export function emailProblem(value: string): string | undefined {
  const email = value.trim();
  if (!email) return "validation.EmailRequired";
  if (email.length > 254 || !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) return "validation.EmailInvalid";
  return undefined;
}

export const passwordProblem = (password: string): string | undefined => (password ? undefined : "validation.PasswordRequired");

/** Where an identity provider's button leads; the provider's round trip keeps where to go next. */
export const providerHref = (id: string, next: string) =>
  `/api/auth/signin/${encodeURIComponent(id)}${next === "/" ? "" : `?next=${encodeURIComponent(next)}`}`;

/** The strings the script may show (the server renders the rest in place). */
export const signInMessageKeys = [
  "errorSummary.title",
  "errorSummary.titlePrefix",
  "signIn.ssoIntro",
  "signIn.ssoButton",
  "signIn.redirecting",
  "signIn.twoFactorIntro",
  "signIn.codeHint",
  "signIn.Blocked",
  "signIn.Generic",
  "signIn.BadOTP",
  "signIn.TooManyAttempts",
  "signIn.NetworkError",
  "validation.EmailRequired",
  "validation.EmailInvalid",
  "validation.PasswordRequired",
  "signIn.PasskeyAuthenticationFailed",
] as const;
