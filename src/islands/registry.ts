import type { ComponentType } from "react";
import { commandTypes, expiryChoices } from "../schema/fleet/command-kinds";
import { errorSummaryKeys } from "../ui/error-summary";
import AccountDelete from "./account-delete.island";
import AccountForm from "./account-form.island";
import ChangePassword from "./change-password.island";
import CommandForm, { commandFormMessageKeys } from "./command-form.island";
import CommandLive, { commandLiveMessageKeys } from "./command-live.island";
import ConfirmForm from "./confirm-form.island";
import IdentityForm from "./identity-form.island";
import NetworkConfigForm from "./network-config-form.island";
import { passkeyMessageKeys } from "./passkey-client";
import Passkeys from "./passkeys.island";
import ProfileForm from "./profile-form.island";
import RuleForm from "./rule-form.island";
import RuleOrder from "./rule-order.island";
import SettingsForm, { settingsFormMessageKeys } from "./settings-form.island";
import SimulatorLive from "./simulator-live.island";

/**
 * The islands the server may render, each with the translation keys it is given.
 * The browser loads `src/islands/<name>.island.tsx`, so a name here must match its file
 * (a test checks this).
 */
export type IslandDefinition<P> = {
  component: ComponentType<P>;
  messageKeys: readonly string[];
  /** More keys that depend on the props (a form's fields' own messages); missing ones are skipped. */
  propMessageKeys?: (props: Omit<P, "messages">) => string[];
};

function define<P>(
  component: ComponentType<P>,
  messageKeys: readonly string[],
  propMessageKeys?: (props: Omit<P, "messages">) => string[],
): IslandDefinition<P> {
  return { component, messageKeys, propMessageKeys };
}

export const islands = {
  "identity-form": define(IdentityForm, [
    ...errorSummaryKeys,
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
  "confirm-form": define(ConfirmForm, ["identityForm.networkError"]),
  "command-form": define(CommandForm, commandFormMessageKeys(commandTypes, expiryChoices)),
  "command-live": define(CommandLive, commandLiveMessageKeys),
  "simulator-live": define(SimulatorLive, [
    "simulator.live.noScript",
    "simulator.live.connecting",
    "simulator.live.connected",
    "simulator.live.closed",
  ]),
  "settings-form": define(
    SettingsForm,
    [
      ...errorSummaryKeys,
      "settings.networkError",
      "subscriptions.networkError",
      "identityForm.networkError",
      "validation.Required",
      "validation.NameTooLong",
      "validation.EmailRequired",
      "validation.EmailInvalid",
      "validation.IssuerInvalid",
      "validation.DomainsRequired",
      "validation.DomainInvalid",
      "validation.ChooseOne",
      "validation.PlanTooLong",
      "validation.ReferenceTooLong",
      "validation.SeatsWholeNumber",
      "validation.SeatsTooFew",
      "validation.SeatsTooMany",
      "validation.DateInvalid",
      "validation.EndBeforeStart",
    ],
    settingsFormMessageKeys,
  ),
  passkeys: define(Passkeys, ["passkeys.add", "passkeys.newName", "passkeys.newNamePlaceholder", ...passkeyMessageKeys]),
  "change-password": define(ChangePassword, [
    "validation.fields.currentPassword.required",
    "validation.fields.newPassword.required",
    ...errorSummaryKeys,
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
    "validation.fields.accountName.required",
    "validation.fields.accountName.tooLong",
    ...errorSummaryKeys,
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
    ...errorSummaryKeys,
    "accounts.delete.confirmLabel",
    "accounts.delete.submit",
    "accounts.networkError",
    "validation.ConfirmNameMismatch",
  ]),
  "network-config-form": define(NetworkConfigForm, [
    "validation.fields.ssid.required",
    "validation.fields.endpointName.required",
    "validation.fields.endpointName.tooLong",
    "validation.fields.apn.tooLong",
    ...errorSummaryKeys,
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
  "profile-form": define(ProfileForm, [
    "validation.fields.profileName.required",
    "validation.fields.profileName.tooLong",
    "validation.fields.setting.required",
    "validation.fields.setting.choose",
    ...errorSummaryKeys,
    "profiles.form.name",
    "profiles.form.cancel",
    "profiles.networkError",
    "validation.Required",
    "validation.NameTooLong",
    "validation.Invalid",
  ]),
  "rule-form": define(RuleForm, [
    "validation.fields.ruleName.required",
    "validation.fields.ruleName.tooLong",
    ...errorSummaryKeys,
    "rules.form.name",
    "rules.form.enabled",
    "rules.form.enabledHint",
    "rules.form.conditions",
    "rules.form.conditionsHint",
    "rules.form.sites",
    "rules.form.noSites",
    "rules.form.locations",
    "rules.form.noLocations",
    "rules.form.deletedSite",
    "rules.form.deletedLocation",
    "rules.form.models",
    "rules.form.modelsHint",
    "rules.form.tags",
    "rules.form.tagsHint",
    "rules.form.uidPattern",
    "rules.form.uidPatternHint",
    "rules.form.profiles",
    "rules.form.profilesHint",
    "rules.form.noProfilesYet",
    "rules.form.slot",
    "rules.form.noProfile",
    "rules.form.addProfile",
    "rules.form.removeProfile",
    "rules.form.moveUp",
    "rules.form.moveDown",
    "rules.form.cancel",
    "rules.networkError",
    "validation.Required",
    "validation.NameTooLong",
    "validation.ModelInvalid",
    "validation.TooManyModels",
    "validation.TagInvalid",
    "validation.TooManyTags",
    "validation.UidPatternInvalid",
    "validation.ProfileRepeated",
  ]),
  "rule-order": define(RuleOrder, [
    "rules.list.caption",
    "rules.list.priority",
    "rules.list.name",
    "rules.list.conditions",
    "rules.list.profiles",
    "rules.list.order",
    "rules.list.disabled",
    "rules.list.noProfiles",
    "rules.list.moveUp",
    "rules.list.moveDown",
    "rules.list.moved",
    "rules.list.reload",
    // apiMessageKeys of runtime/api-client, named here so the server need not load the client.
    "api.unreadable",
    "api.unknown",
  ]),
};

export type IslandName = keyof typeof islands;
export type IslandProps<N extends IslandName> = (typeof islands)[N] extends IslandDefinition<infer P> ? P : never;
