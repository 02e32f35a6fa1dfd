import type { Context } from "hono";

/** The caller's address as Cloudflare reports it; one shared bucket when run without it (local). */
export function clientAddress(c: Context): string {
  return c.req.header("CF-Connecting-IP") ?? "local";
}
