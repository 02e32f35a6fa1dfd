/**
 * The kinds of things whose changes land in an account's log, in the order the filter offers
 * them; each has a label at `activityLogs.entityTypes.<type>`. A type not listed here (a later
 * issue's) still shows, by its own name.
 */
export const accountEntityTypes = [
  "account",
  "network-config",
  "site",
  "location",
  "profile",
  "rule",
  "rule-order",
  "allocation",
  "deployment",
  "command",
  "radioGroup",
  "firmwarePackage",
  "fc-session",
  "fc-customer",
  "fc-settings",
] as const;

export const entityTypeKey = (type: string) => `activityLogs.entityTypes.${type}`;

export function isKnownEntityType(type: string): boolean {
  return (accountEntityTypes as readonly string[]).includes(type);
}
