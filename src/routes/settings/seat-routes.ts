import type { PageDefinition, RouteDefinition } from "../types";

/**
 * The Subscriptions and Allocations screens share their guard: signed in, with
 * view-subscriptions-in-organizations (spec §6). Changing seats needs edit-accounts as well,
 * which their procedures check.
 */
// biome-ignore lint/suspicious/noExplicitAny: each page pairs its own loader and component
export function seatRoutes(screens: [path: string, title: string, page: PageDefinition<any>][]): RouteDefinition[] {
  return screens.map(([path, title, page]) => ({
    path,
    title,
    access: "signed-in",
    permission: "view-subscriptions-in-organizations",
    page,
  }));
}
