/** The permission flags of spec §6. Roles map to sets of them on the server (DESIGN.md §4). */
export const permissions = [
  "edit-accounts",
  "view-organizations",
  "manage-devices",
  "edit-configurations",
  "edit-network-config",
  "view-devices-in-accounts",
  "view-subscriptions-in-accounts",
  "view-reports-in-advanced-accounts",
  "view-reports-in-non-advanced-accounts",
  "view-fc-sessions",
  "view-fc-users",
  "view-all-users",
  "create-deployments",
  "edit-users",
  "view-subscriptions-in-organizations",
] as const;

export type Permission = (typeof permissions)[number];
export type PermissionMap = Partial<Record<Permission, boolean>>;
