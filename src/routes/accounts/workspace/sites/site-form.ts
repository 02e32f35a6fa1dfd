import type { SettingsField } from "@/islands/settings-form.island";
import { timeZoneOptions } from "@/routes/accounts/time-zones";
import { timeZoneLabel } from "@/schema/format";
import type { Language } from "@/schema/languages";
import type { Site } from "@/server/data/sites";
import type { Translate } from "@/server/i18n/i18n";

export const siteFieldNames = ["name", "address", "timezone"] as const;

/** The form's values for a stored site (a blank time zone is the account's). */
export function siteValues(site: Pick<Site, "name" | "address" | "timezone" | "version">): Record<string, string> {
  return { name: site.name, address: site.address, timezone: site.timezone ?? "", version: String(site.version) };
}

/** A site's general fields, as the settings-form island renders them. */
export function siteFields(
  t: Translate,
  accountTimezone: string,
  values: Record<string, string>,
  language: Language,
): SettingsField[] {
  const text = (key: string, v: Record<string, unknown> = {}) => String(t(key, v));
  const zones = timeZoneOptions(values.timezone || undefined);
  return [
    { kind: "text", name: "name", label: text("sites.fields.name"), value: values.name ?? "", rule: "name", subject: "siteName" },
    {
      kind: "text",
      name: "address",
      label: text("sites.fields.address"),
      value: values.address ?? "",
      hint: text("sites.fields.addressHint"),
      autoComplete: "street-address",
    },
    {
      kind: "select",
      name: "timezone",
      label: text("sites.fields.timezone"),
      value: values.timezone ?? "",
      hint: text("sites.fields.timezoneHint"),
      options: [
        { value: "", label: text("sites.fields.timezoneInherit", { timezone: timeZoneLabel(language, accountTimezone) }) },
        ...zones.map((zone) => ({ value: zone, label: timeZoneLabel(language, zone) })),
      ],
    },
  ];
}

/** What sites.add and sites.update take from a post. */
export function siteInput(values: Record<string, string>) {
  return { name: values.name ?? "", address: values.address ?? "", timezone: values.timezone ? values.timezone : null };
}
