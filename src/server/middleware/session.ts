import type { MiddlewareHandler } from "hono";
import { readSession, toSessionUser } from "../auth/sessions";
import type { AppEnv } from "../env";

/** Reads the session: `session` is any live one (also a sign-in attempt), `user` only a signed-in one. */
export const session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const current = await readSession(c);
  const signedIn = current?.record.stage === "signed-in" ? current : null;
  c.set("session", current);
  c.set("user", signedIn ? toSessionUser(signedIn) : null);
  await next();
};
