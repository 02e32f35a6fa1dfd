import { z } from "zod";
import type { FormSpec } from "./form-spec";
import { ctcssTones, dcsCodes, isTone, TONE_PATTERN } from "./tones";
import { choice, numberField, repeatedAt, SHORT_NAME_MAX, shortName } from "./zod-fields";

/**
 * "Channels": the radio's channel plan. A radio is built for one band, so the profile names
 * the band and every channel's receive and transmit frequencies lie within it.
 */
export const bands = { vhf: [136, 174], uhf: [400, 480] } as const satisfies Record<string, [number, number]>;
export type Band = keyof typeof bands;

export const channelLimits = { channels: 64, frequencyStepMhz: 0.00125 } as const;
export const bandwidths = ["12.5", "25"] as const;
export const powerLevels = ["low", "high"] as const;

/** MHz in 1.25 kHz steps (12.5 kHz and 6.25 kHz rasters both fall on it). */
const frequency = numberField("validation.FrequencyInvalid").refine((mhz) => {
  const ratio = mhz / channelLimits.frequencyStepMhz;
  return Math.abs(ratio - Math.round(ratio)) < 1e-6;
}, "validation.FrequencyInvalid");

const channel = z.object({
  name: shortName,
  rxMhz: frequency,
  txMhz: frequency,
  bandwidth: choice(bandwidths),
  tone: z
    .string()
    .trim()
    .refine(isTone, "validation.ToneInvalid")
    .transform((tone) => tone.toUpperCase()),
  power: choice(powerLevels),
  scan: z.boolean(),
});

export const channelsSettings = z
  .object({
    band: choice(["vhf", "uhf"]),
    channels: z.array(channel).min(1, "validation.ChannelsRequired").max(channelLimits.channels, "validation.TooManyChannels"),
  })
  .superRefine((settings, ctx) => {
    const [low, high] = bands[settings.band];
    settings.channels.forEach((entry, index) => {
      for (const field of ["rxMhz", "txMhz"] as const) {
        if (entry[field] < low || entry[field] > high) {
          ctx.addIssue({ code: "custom", message: "validation.FrequencyInvalid", path: ["channels", index, field] });
        }
      }
    });
    for (const index of repeatedAt(settings.channels, (entry) => entry.name)) {
      ctx.addIssue({ code: "custom", message: "validation.ChannelNameTaken", path: ["channels", index, "name"] });
    }
  });

export type ChannelsSettings = z.infer<typeof channelsSettings>;

export const channelsDefaults: ChannelsSettings = { band: "uhf", channels: [] };

export const channelsForm: FormSpec = {
  fields: [
    {
      kind: "select",
      name: "band",
      label: "profiles.channels.band",
      hint: "profiles.channels.bandHint",
      options: [
        { value: "vhf", label: "profiles.channels.bands.vhf" },
        { value: "uhf", label: "profiles.channels.bands.uhf" },
      ],
    },
  ],
  rows: {
    name: "channels",
    legend: "profiles.channels.legend",
    hint: "profiles.channels.legendHint",
    item: "profiles.channels.item",
    min: 1,
    max: channelLimits.channels,
    add: "profiles.channels.add",
    remove: "profiles.channels.remove",
    message: "validation.ChannelsRequired",
    blank: { bandwidth: "12.5", power: "high", scan: "on" },
    columns: [
      {
        kind: "text",
        name: "name",
        label: "profiles.channels.name",
        message: "validation.ShortNameTooLong",
        maxLength: SHORT_NAME_MAX,
        required: true,
      },
      ...(["rxMhz", "txMhz"] as const).map((name) => ({
        kind: "number" as const,
        name,
        label: `profiles.channels.${name}`,
        message: "validation.FrequencyInvalid",
        min: bands.vhf[0],
        max: bands.uhf[1],
        step: channelLimits.frequencyStepMhz,
        rangeBy: { field: "band", ranges: { vhf: [...bands.vhf] as [number, number], uhf: [...bands.uhf] as [number, number] } },
      })),
      {
        kind: "select",
        name: "bandwidth",
        label: "profiles.channels.bandwidth",
        options: bandwidths.map((value) => ({ value, label: `profiles.channels.bandwidths.${value.replace(".", "_")}` })),
      },
      {
        kind: "text",
        name: "tone",
        label: "profiles.channels.tone",
        hint: "profiles.channels.toneHint",
        message: "validation.ToneInvalid",
        maxLength: 6,
        required: false,
        pattern: TONE_PATTERN,
        list: "squelch-tones",
      },
      {
        kind: "select",
        name: "power",
        label: "profiles.channels.power",
        options: powerLevels.map((value) => ({ value, label: `profiles.channels.powers.${value}` })),
      },
      { kind: "checkbox", name: "scan", label: "profiles.channels.scan" },
    ],
  },
  datalists: [{ id: "squelch-tones", values: [...ctcssTones, ...dcsCodes.map((code) => `D${code}N`)] }],
};
