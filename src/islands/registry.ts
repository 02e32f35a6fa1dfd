import type { ComponentType } from "react";
import AccountDelete from "./account-delete.island";
import AccountForm from "./account-form.island";
import AccountSwitcher from "./account-switcher.island";
import ChangePassword from "./change-password.island";
import ConfirmForm from "./confirm-form.island";
import IdentityForm from "./identity-form.island";
import IdentityProviderForm from "./identity-provider-form.island";
import IdleTimer from "./idle-timer.island";
import NetworkConfigForm from "./network-config-form.island";
import { passkeyMessageKeys } from "./passkey-client";
import Passkeys from "./passkeys.island";
import ProfileMenu from "./profile-menu.island";
import SeatsForm from "./seats-form.island";
import SettingsForm from "./settings-form.island";
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
    "signIn.passkeyButton",
    "signIn.PasskeyAuthenticationFailed",
    ...passkeyMessageKeys,
  ]),
  "sign-out": define(SignOut, ["header.signOut"]),
  "confirm-form": define(ConfirmForm, ["identityForm.networkError"]),
  "identity-provider-form": define(IdentityProviderForm, [
    "identityForm.networkError",
    "identityProviders.organization",
    "identityProviders.name",
    "identityProviders.issuer",
    "identityProviders.issuerHint",
    "identityProviders.clientId",
    "identityProviders.clientSecret",
    "identityProviders.clientSecretHint",
    "identityProviders.clientSecretKeep",
    "identityProviders.emailDomains",
    "identityProviders.emailDomainsHint",
    "identityProviders.add",
    "identityProviders.save",
    "validation.Required",
    "validation.NameTooLong",
    "validation.IssuerInvalid",
    "validation.DomainsRequired",
    "validation.DomainInvalid",
  ]),
  "profile-menu": define(ProfileMenu, [
    "header.signedInAs",
    "header.signOut",
    "header.signIn",
    "profileMenu.accountSettings",
    "profileMenu.organizations",
    "profileMenu.devices",
  ]),
  "account-switcher": define(AccountSwitcher, [
    "switcher.jump",
    "switcher.loading",
    "switcher.search",
    "switcher.recent",
    "switcher.results",
    "switcher.noRecent",
    "switcher.searching",
    "switcher.noMatch",
    "switcher.seeAll",
    // apiMessageKeys of runtime/api-client, named here so the server need not load the client.
    "api.unreadable",
    "api.unknown",
  ]),
  "idle-timer": define(IdleTimer, []),
  "seats-form": define(SeatsForm, [
    "subscriptions.networkError",
    "validation.Required",
    "validation.ChooseOne",
    "validation.PlanTooLong",
    "validation.ReferenceTooLong",
    "validation.SeatsWholeNumber",
    "validation.SeatsTooFew",
    "validation.SeatsTooMany",
    "validation.DateInvalid",
    "validation.EndBeforeStart",
  ]),
  "settings-form": define(SettingsForm, [
    "settings.networkError",
    "validation.Required",
    "validation.NameTooLong",
    "validation.EmailRequired",
    "validation.EmailInvalid",
  ]),
  passkeys: define(Passkeys, ["passkeys.add", "passkeys.newName", "passkeys.newNamePlaceholder", ...passkeyMessageKeys]),
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
  "account-form": define(AccountForm, [
    "accounts.fields.name",
    "accounts.fields.level",
    "accounts.fields.levelHint",
    "accounts.fields.timezone",
    "accounts.fields.timezoneHint",
    "accounts.fields.organization",
    "accounts.levels.essential",
    "accounts.levels.advanced",
    "accounts.add.submit",
    "accounts.general.submit",
    "accounts.cancel",
    "accounts.networkError",
    "validation.Required",
    "validation.NameTooLong",
  ]),
  "account-delete": define(AccountDelete, [
    "accounts.delete.confirmLabel",
    "accounts.delete.submit",
    "accounts.networkError",
    "validation.ConfirmNameMismatch",
  ]),
  "network-config-form": define(NetworkConfigForm, [
    "accounts.network.wifiHeading",
    "accounts.network.wifiLead",
    "accounts.network.networkLegend",
    "accounts.network.ssid",
    "accounts.network.security",
    "accounts.network.securities.open",
    "accounts.network.securities.wpa2-personal",
    "accounts.network.securities.wpa3-personal",
    "accounts.network.securities.wpa2-enterprise",
    "accounts.network.passphrase",
    "accounts.network.passphraseKeep",
    "accounts.network.passphraseHint",
    "accounts.network.passphraseOpen",
    "accounts.network.priority",
    "accounts.network.priorityHint",
    "accounts.network.removeNetwork",
    "accounts.network.addNetwork",
    "accounts.network.lteHeading",
    "accounts.network.apn",
    "accounts.network.username",
    "accounts.network.password",
    "accounts.network.passwordKeep",
    "accounts.network.serversHeading",
    "accounts.network.dns",
    "accounts.network.ntp",
    "accounts.network.serversHint",
    "accounts.network.endpointsHeading",
    "accounts.network.endpointsLead",
    "accounts.network.endpointLegend",
    "accounts.network.endpointName",
    "accounts.network.endpointUrl",
    "accounts.network.removeEndpoint",
    "accounts.network.addEndpoint",
    "accounts.network.submit",
    "accounts.networkError",
    "validation.Required",
    "validation.SsidTooLong",
    "validation.PassphraseTooLong",
    "validation.PassphraseTooShort",
    "validation.PassphraseRequired",
    "validation.PriorityRange",
    "validation.HostInvalid",
    "validation.TooManyServers",
    "validation.UrlInvalid",
    "validation.TooLong",
  ]),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = (typeof islands)[N] extends IslandDefinition<infer P> ? P : never;
