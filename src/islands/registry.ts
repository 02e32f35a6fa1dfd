import type { ComponentType } from "react";
import ChangePassword from "./change-password.island";
import IdentityForm from "./identity-form.island";
import IdleTimer from "./idle-timer.island";
import SignIn from "./sign-in.island";
import SignOut from "./sign-out.island";
import Toaster from "./toaster.island";

/**
 * The islands the server may render, each with the translation keys it is given.
 * The browser loads `src/islands/<name>.island.tsx`, so a name here must match its file
 * (a test checks this).
 */
export type IslandDefinition<P> = { component: ComponentType<P>; messageKeys: readonly string[] };

function define<P>(component: ComponentType<P>, messageKeys: readonly string[]): IslandDefinition<P> {
  return { component, messageKeys };
}

export const islands = {
  toaster: define(Toaster, ["toast.notifications"]),
  "identity-form": define(IdentityForm, [
    "identityForm.networkError",
    "validation.EmailRequired",
    "validation.EmailInvalid",
    "validation.PasswordRequired",
    "validation.PasswordTooShort",
    "validation.PasswordTooLong",
    "validation.PasswordConfirmationRequired",
    "validation.PasswordMismatch",
    "validation.NameRequired",
    "validation.NameTooLong",
  ]),
  "sign-in": define(SignIn, [
    "signIn.email",
    "signIn.password",
    "signIn.continue",
    "signIn.submit",
    "signIn.signingInAs",
    "signIn.change",
    "signIn.forgotPassword",
    "signIn.ssoHeading",
    "signIn.ssoIntro",
    "signIn.ssoButton",
    "signIn.providerButton",
    "signIn.redirecting",
    "signIn.or",
    "signIn.twoFactorHeading",
    "signIn.twoFactorIntro",
    "signIn.sendCode",
    "signIn.code",
    "signIn.codeHint",
    "signIn.verify",
    "signIn.resendCode",
    "signIn.Blocked",
    "signIn.Generic",
    "signIn.BadOTP",
    "signIn.TooManyAttempts",
    "signIn.NetworkError",
    "validation.EmailRequired",
    "validation.EmailInvalid",
    "validation.PasswordRequired",
  ]),
  "sign-out": define(SignOut, ["header.signOut"]),
  "idle-timer": define(IdleTimer, []),
  "change-password": define(ChangePassword, [
    "security.currentPassword",
    "security.newPassword",
    "security.newPasswordHint",
    "security.confirmPassword",
    "security.changePassword",
    "security.networkError",
    "validation.PasswordRequired",
    "validation.PasswordTooShort",
    "validation.PasswordConfirmationRequired",
    "validation.PasswordMismatch",
  ]),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = (typeof islands)[N] extends IslandDefinition<infer P> ? P : never;
