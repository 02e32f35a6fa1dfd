import { wifiSecurity } from "@/schema/network-rules";
import { profileForms, profileTypes } from "@/schema/profiles";
import type { FieldSpec } from "@/schema/profiles/form-spec";
import { roles } from "@/server/auth/roles";

/**
 * The words a person reads for the fields and values of a log entry's diff (issue 9, §4): each
 * field has a translated label (`settings › gpsIntervalSeconds` reads "Settings › GPS
 * reporting interval"), each list item its own ("Wi-Fi network 1"), each coded value its
 * label ("WPA2-Personal", "Administrator"). A profile's settings take their labels from the
 * profile forms, so the log and the form always say the same. Anything unknown (a later
 * issue's field) still shows, by its own name.
 */

/** Fields of everything but profile settings, labelled at `activityLogs.fields.<name>`. */
export const loggedFields = [
  "name",
  "address",
  "timezone",
  "description",
  "site",
  "subscriptionLevel",
  "type",
  "settings",
  "enabled",
  "conditions",
  "siteIds",
  "locationIds",
  "models",
  "tags",
  "uidPattern",
  "profiles",
  "order",
  "quantity",
  "plan",
  "startsAt",
  "endsAt",
  "status",
  "reference",
  "wifi",
  "ssid",
  "security",
  "priority",
  "hasPassphrase",
  "lte",
  "apn",
  "username",
  "hasPassword",
  "dnsServers",
  "ntpServers",
  "endpoints",
  "url",
  "handOver",
  "handOverConfirmed",
  "email",
  "role",
  "expiresAt",
  "issuer",
  "clientId",
  "emailDomains",
  "hasClientSecret",
  "clientSecret",
  "provenDomains",
  "proofMethod",
  "kind",
  "parentId",
  "provider",
  "id",
  "approval",
  "approvalNote",
  "approvalRequired",
  "approvalExpiryHours",
  // A firmware package (issue 26).
  "version",
  "notes",
  "state",
  "size",
  "sha256",
  "keyId",
] as const;

/** Lists whose items have a name of their own ("Wi-Fi network {{number}}"). */
const itemKeys: Record<string, string> = {
  wifi: "activityLogs.items.wifi",
  endpoints: "activityLogs.items.endpoint",
};

/** Coded values, by the field they are a value of: value → label key. */
const plainValues: Record<string, Record<string, string>> = {
  security: Object.fromEntries(wifiSecurity.map((v) => [v, `accounts.network.securities.${v}`])),
  subscriptionLevel: { essential: "accounts.levels.essential", advanced: "accounts.levels.advanced" },
  role: Object.fromEntries(roles.map((r) => [r, `users.roles.${r}`])),
  status: {
    active: "users.statuses.active",
    disabled: "users.statuses.disabled",
    invited: "users.statuses.invited",
    cancelled: "subscriptions.statuses.cancelled",
    expired: "subscriptions.statuses.expired",
    suspended: "subscriptions.statuses.suspended",
  },
  type: Object.fromEntries(profileTypes.map((type) => [type, `profiles.types.${type}`])),
  kind: { vendor: "organizations.kinds.vendor", dealer: "organizations.kinds.dealer", customer: "organizations.kinds.customer" },
  proofMethod: {
    dns: "identityProviders.domainState.dns",
    vendor: "identityProviders.domainState.vendor",
    seed: "identityProviders.domainState.seed",
  },
};

/** What the profile forms say about their fields: label, item and option keys by field name. */
function profileVocabulary() {
  const labels = new Map<string, string>();
  const items = new Map<string, string>();
  const options = new Map<string, Map<string, string>>();
  const learn = (field: FieldSpec) => {
    if (!labels.has(field.name)) labels.set(field.name, field.label);
    if (field.kind !== "select") return;
    const known = options.get(field.name) ?? new Map<string, string>();
    for (const option of field.options) if (!known.has(option.value)) known.set(option.value, option.label);
    options.set(field.name, known);
  };
  for (const type of profileTypes) {
    const form = profileForms[type];
    form.fields.forEach(learn);
    if (form.rows) {
      labels.set(form.rows.name, form.rows.legend);
      items.set(form.rows.name, form.rows.item);
      form.rows.columns.forEach(learn);
    }
  }
  return { labels, items, options };
}

const profile = profileVocabulary();

export type Text = (key: string, values?: Record<string, string>) => string;

const ITEM = /^#(\d+)$/;

/** Whether a path lies in a profile's settings (where the profile forms' words apply). */
const inSettings = (path: string[]) => path[0] === "settings" && path.length > 1;

/** The label of one segment of a path: a field, or a list's item. */
function segmentLabel(path: string[], index: number, text: Text): string {
  const segment = path[index] ?? "";
  const item = ITEM.exec(segment);
  const settings = inSettings(path) && index > 0;
  if (item) {
    const list = path[index - 1] ?? "";
    const key = (settings ? profile.items.get(list) : undefined) ?? itemKeys[list] ?? "activityLogs.item";
    return text(key, { number: item[1] ?? "" });
  }
  const profileLabel = settings ? profile.labels.get(segment) : undefined;
  if (profileLabel) return text(profileLabel);
  return (loggedFields as readonly string[]).includes(segment) ? text(`activityLogs.fields.${segment}`) : segment;
}

/** A field's path as a person reads it: "Wi-Fi network 1 › Passphrase set". */
export function fieldLabel(path: string[], text: Text): string {
  return path.map((_, index) => segmentLabel(path, index, text)).join(" › ");
}

/** The field a value belongs to: the last segment that is not a list item. */
function fieldOf(path: string[]): string {
  for (let index = path.length - 1; index >= 0; index -= 1) {
    const segment = path[index] ?? "";
    if (!ITEM.test(segment)) return segment;
  }
  return "";
}

/**
 * A coded value as a person reads it; free text (names, SSIDs) stays as typed. A time zone
 * shows by its localised name when the reader's language is known.
 */
export function valueLabel(path: string[], value: string, text: Text, timeZoneName?: (zone: string) => string): string {
  const field = fieldOf(path);
  if (field === "timezone" && timeZoneName) return timeZoneName(value);
  const key = (inSettings(path) ? profile.options.get(field)?.get(value) : undefined) ?? plainValues[field]?.[value];
  return key ? text(key) : value;
}
