import type { PageDefinition, RouteDefinition } from "@/routes/types";
import type { Permission } from "@/schema/permissions";

/**
 * The screens under /accounts/:accountId (sites, locations): signed in, each with the flag its
 * tab needs (spec §6). Redirects to a first tab have none: they pick the tab by the flags.
 */
export function workspaceRoutes(
  // biome-ignore lint/suspicious/noExplicitAny: each page pairs its own loader and component
  screens: [path: string, title: string, permission: Permission | undefined, page: PageDefinition<any>][],
): RouteDefinition[] {
  return screens.map(([path, title, permission, page]) => ({
    path: `/accounts/:accountId${path}`,
    title,
    access: "signed-in",
    ...(permission ? { permission } : {}),
    page,
  }));
}
