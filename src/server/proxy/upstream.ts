import type { Context, MiddlewareHandler } from "hono";
import { isLanguage } from "@/schema/languages";
import { permissions as allPermissions, type PermissionMap } from "@/schema/permissions";
import { permissionsOf, roles } from "../auth/roles";
import type { SessionUser } from "../auth/sessions";
import type { AppEnv, Env } from "../env";

/**
 * Proxy mode (DESIGN.md §1): with API_UPSTREAM set, another server that speaks the same
 * protocol owns the data and the sessions. /api is forwarded to it with the caller's cookie,
 * the current user is asked of it, and pages read through it (see remote-caller.ts).
 * In Cloudflare the upstream can be a service binding named UPSTREAM; otherwise plain fetch.
 */
export type Upstream = { url: string; fetch: (request: Request) => Promise<Response> };

export function upstreamOf(env: Env): Upstream | null {
  const url = env.API_UPSTREAM?.trim().replace(/\/+$/, "");
  if (!url) return null;
  const binding = env.UPSTREAM;
  // The binding's types are the Workers' own; at run time they are the same Request and Response.
  const viaBinding = (request: Request) => binding?.fetch(request as never) as unknown as Promise<Response>;
  return { url, fetch: binding ? viaBinding : (request) => fetch(request) };
}

/** The headers that carry the caller to the upstream: identity, language, client address. */
export function forwardedHeaders(c: Context<AppEnv>, upstream: Upstream): Headers {
  const headers = new Headers();
  for (const name of ["cookie", "accept", "accept-language", "content-type", "user-agent", "cf-connecting-ip"]) {
    const value = c.req.header(name);
    if (value) headers.set(name, value);
  }
  // Our own CSRF check has passed; the upstream checks that the request comes from itself.
  if (c.req.method !== "GET" && c.req.method !== "HEAD") headers.set("origin", new URL(upstream.url).origin);
  headers.set("x-forwarded-host", new URL(c.req.url).host);
  return headers;
}

/** Sends this /api request on to the upstream and passes its answer back, cookies included. */
export async function forward(c: Context<AppEnv>, upstream: Upstream): Promise<Response> {
  const url = new URL(c.req.url);
  const hasBody = c.req.method !== "GET" && c.req.method !== "HEAD";
  const answer = await upstream.fetch(
    new Request(`${upstream.url}${url.pathname}${url.search}`, {
      method: c.req.method,
      headers: forwardedHeaders(c, upstream),
      body: hasBody ? await c.req.arrayBuffer() : undefined,
      redirect: "manual",
    }),
  );
  return new Response(answer.body, { status: answer.status, headers: answer.headers });
}

/** The role whose flags are exactly these (for display); the flags themselves are what count. */
function roleOf(map: PermissionMap): SessionUser["role"] {
  return roles.find((role) => allPermissions.every((p) => (permissionsOf(role)[p] ?? false) === (map[p] ?? false))) ?? "viewer";
}

/** Who the caller is, according to the upstream's GET /api/me (spec §3 shape); null when signed out. */
export async function upstreamUser(c: Context<AppEnv>, upstream: Upstream): Promise<SessionUser | null> {
  if (!c.req.header("cookie")) return null;
  try {
    const response = await upstream.fetch(new Request(`${upstream.url}/api/me`, { headers: forwardedHeaders(c, upstream) }));
    const me = (await response.json()) as { ok?: boolean; user?: unknown; orgId?: unknown; permissions?: unknown };
    if (
      me.ok !== true ||
      typeof me.user !== "string" ||
      typeof me.orgId !== "string" ||
      typeof me.permissions !== "object" ||
      !me.permissions
    ) {
      return null;
    }
    const permissions = me.permissions as PermissionMap;
    const language = c.req.header("accept-language");
    return {
      id: me.user,
      sessionId: "",
      email: me.user,
      name: me.user,
      orgId: me.orgId,
      role: roleOf(permissions),
      language: isLanguage(language) ? language : null,
      permissions,
    };
  } catch {
    return null; // spec §4: a failed current-user lookup means signed out
  }
}

/** In proxy mode every /api call (plain and typed) is the upstream's to answer. */
export const proxyApi: MiddlewareHandler<AppEnv> = async (c, next) => {
  const upstream = upstreamOf(c.env);
  return upstream ? forward(c, upstream) : next();
};
