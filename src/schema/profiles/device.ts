import { z } from "zod";
import type { FormSpec } from "./form-spec";
import { choice, wholeNumber } from "./zod-fields";

/**
 * "Device settings": how the radio itself behaves — display, volume, power saving, GPS
 * reporting and the language of its menus.
 */
export const deviceLimits = { brightnessMin: 1, brightnessMax: 5, volumeMax: 15, gpsMin: 10, gpsMax: 3600 } as const;

export const backlightTimeouts = ["5", "10", "15", "30", "60", "always"] as const;
export const powerSaveModes = ["off", "standard", "extended"] as const;
export const menuLanguages = ["en", "es", "fr", "pt"] as const;

export const deviceSettings = z
  .object({
    brightness: wholeNumber("validation.BrightnessRange", deviceLimits.brightnessMin, deviceLimits.brightnessMax),
    backlight: choice(backlightTimeouts),
    volumeMin: wholeNumber("validation.VolumeRange", 0, deviceLimits.volumeMax),
    volumeMax: wholeNumber("validation.VolumeRange", 0, deviceLimits.volumeMax),
    powerSave: choice(powerSaveModes),
    gpsIntervalSeconds: wholeNumber("validation.GpsIntervalRange", 0, deviceLimits.gpsMax).refine(
      (seconds) => seconds === 0 || seconds >= deviceLimits.gpsMin,
      "validation.GpsIntervalRange",
    ),
    menuLanguage: choice(menuLanguages),
  })
  .refine((settings) => settings.volumeMin <= settings.volumeMax, {
    message: "validation.VolumeOrder",
    path: ["volumeMax"],
  });

export type DeviceSettings = z.infer<typeof deviceSettings>;

export const deviceDefaults: DeviceSettings = {
  brightness: 3,
  backlight: "10",
  volumeMin: 2,
  volumeMax: 12,
  powerSave: "standard",
  gpsIntervalSeconds: 60,
  menuLanguage: "en",
};

const options = (values: readonly string[], prefix: string) => values.map((value) => ({ value, label: `${prefix}.${value}` }));

export const deviceForm: FormSpec = {
  fields: [
    {
      kind: "number",
      name: "brightness",
      label: "profiles.device.brightness",
      hint: "profiles.device.brightnessHint",
      message: "validation.BrightnessRange",
      min: deviceLimits.brightnessMin,
      max: deviceLimits.brightnessMax,
      step: 1,
    },
    {
      kind: "select",
      name: "backlight",
      label: "profiles.device.backlight",
      options: options(backlightTimeouts, "profiles.device.backlights"),
    },
    {
      kind: "number",
      name: "volumeMin",
      label: "profiles.device.volumeMin",
      hint: "profiles.device.volumeHint",
      message: "validation.VolumeRange",
      min: 0,
      max: deviceLimits.volumeMax,
      step: 1,
    },
    {
      kind: "number",
      name: "volumeMax",
      label: "profiles.device.volumeMax",
      hint: "profiles.device.volumeHint",
      message: "validation.VolumeRange",
      min: 0,
      max: deviceLimits.volumeMax,
      step: 1,
    },
    {
      kind: "select",
      name: "powerSave",
      label: "profiles.device.powerSave",
      hint: "profiles.device.powerSaveHint",
      options: options(powerSaveModes, "profiles.device.powerSaves"),
    },
    {
      kind: "number",
      name: "gpsIntervalSeconds",
      label: "profiles.device.gpsInterval",
      hint: "profiles.device.gpsIntervalHint",
      message: "validation.GpsIntervalRange",
      min: deviceLimits.gpsMin,
      max: deviceLimits.gpsMax,
      step: 1,
      orZero: true,
    },
    {
      kind: "select",
      name: "menuLanguage",
      label: "profiles.device.menuLanguage",
      options: options(menuLanguages, "profiles.device.menuLanguages"),
    },
  ],
};
