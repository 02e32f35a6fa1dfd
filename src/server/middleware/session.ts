import type { Context, MiddlewareHandler } from "hono";
import { bearerOf } from "../auth/api-token-secret";
import { hintedUser, sameIdentity, syncHint } from "../auth/session-hint";
import type { Speculation } from "../auth/session-types";
import { type CurrentSession, readSession, type SessionUser, toSessionUser } from "../auth/sessions";
import { refusingWrites } from "../data/refusing-writes";
import type { AppEnv } from "../env";
import { upstreamOf, upstreamUser } from "../proxy/upstream";
import { isSignedInPage } from "../render/signed-in-pages";
import { acceptsBearer, bearerSession } from "./bearer";
import { chooseLanguage } from "./language";

export type { Speculation } from "../auth/session-types";

function adopt(c: Context<AppEnv>, current: CurrentSession | null, signedInPage: boolean): SessionUser | null {
  const signedIn = current?.record.stage === "signed-in" ? current : null;
  const user = signedIn ? toSessionUser(signedIn) : null;
  c.set("session", current);
  c.set("user", user);
  // Written by the pages that use it (and by signing in), removed by any request once nobody is signed in.
  if (!user || signedInPage) syncHint(c, current, user);
  return user;
}

/**
 * Reads the session: `session` is any live one (also a sign-in attempt), `user` only a signed-in one.
 *
 * A signed-in page asked for with a session hint (src/server/auth/session-hint.ts) does not wait:
 * the page starts loading as the hinted user while the session is read, so the session and the
 * page's first reads leave as one D1 batch (DESIGN.md §8). Until `settleSession` the database
 * refuses writes and `session` is null; the page settles before it renders anything.
 */
export const session: MiddlewareHandler<AppEnv> = async (c, next) => {
  const upstream = upstreamOf(c.env);
  if (upstream) {
    // Proxy mode: the upstream owns sessions; it says who this is.
    c.set("session", null);
    c.set("user", await upstreamUser(c, upstream));
    return next();
  }
  // An API token where one is accepted; its header never falls back to the cookie.
  const credential = acceptsBearer(c.req.path) ? bearerOf(c.req.header("Authorization")) : null;
  if (credential !== null) return bearerSession(c, credential, next);
  const signedInPage = isSignedInPage(c);
  const hinted = signedInPage ? hintedUser(c) : null;
  if (!hinted) {
    adopt(c, await readSession(c), signedInPage);
    return next();
  }
  const speculation: Speculation = { reading: readSession(c), database: c.env.DB, refusedWrite: false };
  c.env = {
    ...c.env,
    DB: refusingWrites(c.env.DB, () => {
      speculation.refusedWrite = true;
    }),
  };
  c.set("speculation", speculation);
  c.set("session", null);
  c.set("user", hinted);
  await next();
  // Whatever answered, the session was read to its end (an expired one is deleted on the way).
  await settleSession(c);
};

/**
 * Ends a page's speculation: the session's own answer replaces the hint. True when the page's
 * work so far was done for the person the session names (the same user, organisation, role and
 * language); false when it must be done again, as that person or as nobody.
 */
export async function settleSession(c: Context<AppEnv>): Promise<boolean> {
  const speculation = c.get("speculation");
  if (!speculation) return true;
  c.set("speculation", undefined);
  c.env = { ...c.env, DB: speculation.database };
  const hinted = c.get("user");
  // Only a signed-in page speculates.
  const user = adopt(c, await speculation.reading, true);
  if (hinted && user && sameIdentity(hinted, user)) {
    // The same object as during the load: what was remembered for it this request stays valid.
    c.set("user", Object.assign(hinted, user));
    return true;
  }
  c.set("language", chooseLanguage(c));
  return false;
}
