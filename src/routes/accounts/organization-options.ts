import type { OrganizationInTree } from "@/server/api/routers/organizations";

/** Options of an organization select, indented by depth so the tree shows (non-breaking spaces survive in <option>). */
export function organizationOptions(organizations: OrganizationInTree[]): { value: string; label: string }[] {
  return organizations.map((organization) => ({
    value: organization.id,
    label: `${"\u00a0\u00a0\u00a0".repeat(organization.depth)}${organization.name}`,
  }));
}
