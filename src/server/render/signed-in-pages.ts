import type { Context } from "hono";
import { matchedRoutes } from "hono/route";

// The GET handlers of the pages only a signed-in person sees (src/server/pages.tsx adds them).
const handlers = new WeakSet<object>();

export function markSignedInPage(handler: object): void {
  handlers.add(handler);
}

/** This request is for a signed-in page: nothing but that page's load and render answers it. */
export function isSignedInPage(c: Context): boolean {
  return c.req.method === "GET" && matchedRoutes(c).some((route) => handlers.has(route.handler));
}
