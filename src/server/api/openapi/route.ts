import { Hono } from "hono";
import type { AppEnv } from "../../env";
import { openApiJson } from "./served-document";

/**
 * GET /api/openapi.json: the integrators' API as OpenAPI 3.1, public (it holds no data), the
 * same for everyone, so browsers and proxies may keep it for an hour; any origin may read it
 * (an API client or editor hosted elsewhere).
 */
export const openApiRoute = new Hono<AppEnv>().get("/api/openapi.json", (c) =>
  c.body(openApiJson, 200, {
    "Content-Type": "application/json; charset=utf-8",
    "Cache-Control": "public, max-age=3600",
    "Access-Control-Allow-Origin": "*",
  }),
);
