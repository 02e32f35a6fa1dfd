import { type Permission, type PermissionMap, permissions } from "@/schema/permissions";

/** DESIGN.md §4: the roles and the permission flags each one grants, decided on the server. */
export const roles = ["owner", "admin", "configurator", "technician", "viewer", "case-agent"] as const;
export type Role = (typeof roles)[number];

const reports: Permission[] = ["view-reports-in-advanced-accounts", "view-reports-in-non-advanced-accounts"];

const grants: Record<Role, readonly Permission[]> = {
  owner: permissions,
  admin: permissions.filter((p) => p !== "view-all-users"),
  configurator: [
    "edit-configurations",
    "edit-network-config",
    "view-devices-in-accounts",
    "view-subscriptions-in-accounts",
    "manage-devices",
    "create-deployments",
    ...reports,
  ],
  technician: ["view-devices-in-accounts", "manage-devices", ...reports],
  viewer: ["view-devices-in-accounts", "view-subscriptions-in-accounts", ...reports],
  "case-agent": ["view-fc-sessions", "view-fc-users"],
};

export function permissionsOf(role: Role): PermissionMap {
  return Object.fromEntries(permissions.map((p) => [p, grants[role].includes(p)]));
}

export function isRole(value: unknown): value is Role {
  return typeof value === "string" && (roles as readonly string[]).includes(value);
}

/**
 * Who may grant what (issue 5): owner > admin > configurator > technician, viewer, case agent.
 * Nobody grants a role above their own, nor manages someone ranked above them.
 */
const rank: Record<Role, number> = { owner: 4, admin: 3, configurator: 2, technician: 1, viewer: 1, "case-agent": 1 };

export function mayGrant(granter: Role, role: Role): boolean {
  return rank[role] <= rank[granter];
}

/** The roles a user with `granter` may give, highest first. */
export function grantableRoles(granter: Role): Role[] {
  return roles.filter((role) => mayGrant(granter, role));
}
