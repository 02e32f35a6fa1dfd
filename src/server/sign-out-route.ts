import { Hono } from "hono";
import { endSession } from "./auth/sessions";
import type { AppEnv } from "./env";

/**
 * POST /sign-out: the header's plain form, for browsers without JavaScript. It ends the
 * session on the server and in the browser, then goes home (spec §4). With JavaScript the
 * sign-out island calls POST /api/sign-out instead.
 */
export const signOutRoute = new Hono<AppEnv>().post("/sign-out", async (c) => {
  await endSession(c, c.get("session"));
  return c.redirect("/", 303);
});
