import { builtAreas, isBuilt, type ProductArea } from "@/schema/features";
import type { PermissionMap } from "@/schema/permissions";

/** A link of the profile menu: which one (its label is `profileMenu.<id>`) and where it goes. */
export type ProfileMenuLink = { id: "accountSettings" | "organizations" | "devices"; href: string };

/**
 * The profile menu's links (spec §2, §6), each only with its permission: account settings
 * when an account is in context and the user may edit accounts, organization settings
 * and device management (once its screens exist, src/schema/features.ts). Pages are rendered on the server with the user known, so the spec's
 * "#" placeholder for a user not loaded yet never applies.
 */
export function profileMenuLinks(
  user: { permissions: PermissionMap } | null,
  accountId: string | null,
  areas: Record<ProductArea, boolean> = builtAreas,
): ProfileMenuLink[] {
  const can = (flag: keyof PermissionMap) => user?.permissions[flag] === true;
  const links: ProfileMenuLink[] = [];
  if (accountId && can("edit-accounts")) {
    links.push({ id: "accountSettings", href: `/accounts/edit/${encodeURIComponent(accountId)}` });
  }
  if (can("view-organizations")) links.push({ id: "organizations", href: "/settings/organizations" });
  if (isBuilt("devices", areas) && can("manage-devices")) links.push({ id: "devices", href: "/devices" });
  return links;
}
