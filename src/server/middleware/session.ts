import type { MiddlewareHandler } from "hono";
import { readSession, toSessionUser } from "../auth/sessions";
import type { AppEnv } from "../env";
import { upstreamOf, upstreamUser } from "../proxy/upstream";

/** Reads the session: `session` is any live one (also a sign-in attempt), `user` only a signed-in one. */
export const session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const upstream = upstreamOf(c.env);
  if (upstream) {
    // Proxy mode: the upstream owns sessions; it says who this is.
    c.set("session", null);
    c.set("user", await upstreamUser(c, upstream));
    return next();
  }
  const current = await readSession(c);
  const signedIn = current?.record.stage === "signed-in" ? current : null;
  c.set("session", current);
  c.set("user", signedIn ? toSessionUser(signedIn) : null);
  await next();
};
