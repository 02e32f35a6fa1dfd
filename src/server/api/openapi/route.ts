import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { openApiJson } from "./served-document";

let etag: Promise<string> | null = null;

/** The document's ETag: a digest of the text this build ships, taken once per isolate. */
function documentTag(): Promise<string> {
  etag ??= crypto.subtle.digest("SHA-256", new TextEncoder().encode(openApiJson)).then((digest) => {
    const hex = [...new Uint8Array(digest).slice(0, 12)].map((byte) => byte.toString(16).padStart(2, "0")).join("");
    return `"${hex}"`;
  });
  return etag;
}

/**
 * GET /api/openapi.json: the integrators' API as OpenAPI 3.1, public (it holds no data), the
 * same for everyone, so browsers and proxies may keep it for an hour and ask again with its
 * ETag; any origin may read it (an API client or editor hosted elsewhere).
 */
export const openApiRoute = new Hono<AppEnv>().get("/api/openapi.json", async (c) => {
  const tag = await documentTag();
  const headers = {
    "Cache-Control": "public, max-age=3600",
    "Access-Control-Allow-Origin": "*",
    ETag: tag,
  };
  const asked = c.req.header("If-None-Match") ?? "";
  if (asked.split(",").some((value) => value.trim().replace(/^W\//, "") === tag)) return c.body(null, 304, headers);
  return c.body(openApiJson, 200, { ...headers, "Content-Type": "application/json; charset=utf-8" });
});
