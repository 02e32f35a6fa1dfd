import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import { TRPCError } from "@trpc/server";
import type { Context } from "hono";
import { type AppRouter, appRouter, type createCaller } from "../api/router";
import type { AppEnv } from "../env";
import { forwardedHeaders, type Upstream } from "./upstream";

type Caller = ReturnType<typeof createCaller>;

const procedureTypes = Object.fromEntries(
  Object.entries(appRouter._def.procedures as unknown as Record<string, { _def: { type: string } }>).map(([path, p]) => [
    path,
    p._def.type,
  ]),
);

/** A client error as the procedure error it was upstream, so pages react to it the same way. */
function asProcedureError(error: unknown): never {
  if (error instanceof TRPCClientError) {
    const code = (error.data as { code?: TRPCError["code"] } | undefined)?.code ?? "INTERNAL_SERVER_ERROR";
    throw new TRPCError({ code, message: error.message });
  }
  throw error;
}

/**
 * The same shape as the in-process caller (`api(c).accounts.list(input)`), but each call goes
 * to the upstream over HTTP with tRPC's own client, carrying the caller's cookie.
 */
export function remoteCaller(c: Context<AppEnv>, upstream: Upstream): Caller {
  const client = createTRPCClient<AppRouter>({
    links: [
      httpBatchLink({
        url: `${upstream.url}/api`,
        fetch: (url, init) => upstream.fetch(new Request(url, init as RequestInit)),
        headers: () => Object.fromEntries(forwardedHeaders(c, upstream)),
      }),
    ],
  });
  const at = (path: string[]): unknown =>
    new Proxy(() => undefined, {
      get: (_, key) => at([...path, String(key)]),
      apply: (_, __, [input]) => {
        let node = client as unknown as Record<string, unknown>;
        for (const key of path) node = node[key] as Record<string, unknown>;
        const run = (procedureTypes[path.join(".")] === "mutation" ? node.mutate : node.query) as (
          input: unknown,
        ) => Promise<unknown>;
        return run(input).catch(asProcedureError);
      },
    });
  return at([]) as Caller;
}
