import { z } from "zod";
import { nameText } from "../text";
import { buttonsDefaults, buttonsForm, buttonsSettings } from "./buttons";
import { channelsDefaults, channelsForm, channelsSettings } from "./channels";
import { contactsDefaults, contactsForm, contactsSettings } from "./contacts";
import { deviceDefaults, deviceForm, deviceSettings } from "./device";
import type { FormSpec } from "./form-spec";

/**
 * The profile types of two-way radios (DESIGN.md §3: a profile is a type, a name and its
 * settings). One module per type holds its schema, defaults and form; this one ties them up.
 */
export const profileTypes = ["device", "channels", "contacts", "buttons"] as const;
export type ProfileType = (typeof profileTypes)[number];

export function isProfileType(value: unknown): value is ProfileType {
  return typeof value === "string" && (profileTypes as readonly string[]).includes(value);
}

export const settingsSchemas = {
  device: deviceSettings,
  channels: channelsSettings,
  contacts: contactsSettings,
  buttons: buttonsSettings,
} as const;

export type ProfileSettings = { [T in ProfileType]: z.infer<(typeof settingsSchemas)[T]> };

export const profileDefaults: ProfileSettings = {
  device: deviceDefaults,
  channels: channelsDefaults,
  contacts: contactsDefaults,
  buttons: buttonsDefaults,
};

export const profileForms: Record<ProfileType, FormSpec> = {
  device: deviceForm,
  channels: channelsForm,
  contacts: contactsForm,
  buttons: buttonsForm,
};

/** At most this many profiles of one type in an account (and templates of one type in an organization). */
export const PROFILES_PER_TYPE = 50;
export const PROFILE_NAME_MAX = 120;

export const profileName = nameText(PROFILE_NAME_MAX);

/** A type and its settings, checked by that type's schema; issues sit under `settings`. */
export const typedSettings = z.discriminatedUnion(
  "type",
  [
    z.object({ type: z.literal("device"), settings: deviceSettings }),
    z.object({ type: z.literal("channels"), settings: channelsSettings }),
    z.object({ type: z.literal("contacts"), settings: contactsSettings }),
    z.object({ type: z.literal("buttons"), settings: buttonsSettings }),
  ],
  "validation.ChooseOne",
);

/**
 * Settings as stored (JSON the schema checked when saved). Should a row not read (a schema
 * grew stricter), the type's defaults stand in rather than failing the page.
 */
export function readSettings<T extends ProfileType>(type: T, json: string): ProfileSettings[T] {
  try {
    const parsed = settingsSchemas[type].safeParse(JSON.parse(json));
    if (parsed.success) return parsed.data as ProfileSettings[T];
  } catch {
    // not JSON: fall through to the defaults
  }
  return profileDefaults[type];
}
