import { fetchRequestHandler } from "@trpc/server/adapters/fetch";
import type { Context } from "hono";
import { Hono } from "hono";
import { errorCodes } from "@/schema/errors";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { remoteCaller } from "../proxy/remote-caller";
import { upstreamOf } from "../proxy/upstream";
import { type AppRouter, appRouter, createCaller } from "./router";
import type { ApiContext } from "./trpc";

/** The procedures' context for this request: who calls, in which language, over which database. */
export function apiContext(c: Context<AppEnv>): ApiContext {
  const language = c.get("language");
  return {
    env: c.env,
    db: c.env.DB,
    user: c.get("user"),
    language,
    origin: new URL(c.req.url).origin,
    t: translatorFor(language, c.get("settings").brandNamespace),
  };
}

/**
 * The procedures as pages call them: in process over D1 (authorization stays in the
 * procedures), or, in proxy mode, over HTTP on the upstream with the caller's identity.
 */
export function api(c: Context<AppEnv>): ReturnType<typeof createCaller> {
  const upstream = upstreamOf(c.env);
  return upstream ? remoteCaller(c, upstream) : createCaller(apiContext(c));
}

function isJson(text: string | null): boolean {
  if (text === null || text === "") return true;
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** An error in the wire format, for what is refused before tRPC sees it. */
function wireError(c: Context<AppEnv>, code: "BAD_REQUEST" | "PARSE_ERROR", messageKey: string, status: 400 | 415) {
  const message = String(translatorFor(c.get("language"), c.get("settings").brandNamespace)(messageKey));
  return c.json({ error: { message, code: errorCodes[code], data: { code, httpStatus: status } } }, status);
}

/**
 * /api/<router>.<procedure> in tRPC's HTTP wire format: queries are GET with ?input=<json>,
 * mutations POST a JSON body, batch=1 batches; errors carry the codes of spec §8.
 * Only JSON is accepted in bodies, which keeps cross-site forms out (DESIGN.md §5).
 */
export const proceduresRoute = new Hono<AppEnv>().all("/api/*", async (c) => {
  const type = c.req.header("Content-Type") ?? "";
  if (c.req.method === "POST" && !type.startsWith("application/json")) {
    return wireError(c, "BAD_REQUEST", "errors.sendJson", 415);
  }
  // tRPC reports unreadable JSON as BAD_REQUEST; spec §8 has PARSE_ERROR for it.
  const body = c.req.method === "POST" ? await c.req.text() : null;
  if (!isJson(body) || !isJson(c.req.query("input") ?? null)) return wireError(c, "PARSE_ERROR", "errors.invalidJson", 400);
  return fetchRequestHandler<AppRouter>({
    endpoint: "/api",
    req: body === null ? c.req.raw : new Request(c.req.raw, { body }),
    router: appRouter,
    createContext: () => apiContext(c),
    responseMeta: () => ({ headers: { "Cache-Control": "no-store" } }),
    onError: ({ error }) => {
      if (error.code === "INTERNAL_SERVER_ERROR") console.error(error);
    },
  });
});
