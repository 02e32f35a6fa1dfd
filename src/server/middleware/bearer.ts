import type { Context, Next } from "hono";
import { errorCodes } from "@/schema/errors";
import { integratorDownloads } from "../api/integrator-procedures";
import { isTokenShaped, tokenPrincipal } from "../auth/api-token-secret";
import { clientAddress } from "../auth/client-address";
import { sha256Hex } from "../auth/crypto";
import { findApiTokenByHash, tokenState, touchApiTokenStatement } from "../data/api-tokens";
import { countHit } from "../data/sign-in-guards";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { chooseLanguage } from "./language";

/** Calls a token may make per minute (a sliding window counted in D1, countHit); API_TOKEN_RATE_LIMIT overrides it. */
export const TOKEN_CALLS_PER_MINUTE = 600;
const WINDOW_SECONDS = 60;
/** Last use is written at most once per this long per token, so a busy token costs no write per call. */
const LAST_USED_EVERY_MS = 60_000;

/** /api/<router>.<procedure>, or a batch of them (a,b): the procedures route, not sign-in, passkeys or uploads. */
const PROCEDURE_PATH = /^\/api\/[A-Za-z]+\.[A-Za-z]+(,[A-Za-z]+\.[A-Za-z]+)*$/;

/**
 * Where a token is a credential: the procedures and the listed downloads. Pages and the other
 * /api routes (sign-in, passkeys, single sign-on, firmware parts) stay cookie-only.
 */
export function acceptsBearer(path: string): boolean {
  return PROCEDURE_PATH.test(path) || integratorDownloads.some((pattern) => pattern.test(path));
}

function callsPerMinute(c: Context<AppEnv>): number {
  const configured = Number(c.env.API_TOKEN_RATE_LIMIT);
  return Number.isInteger(configured) && configured > 0 ? configured : TOKEN_CALLS_PER_MINUTE;
}

/** A refusal in the wire's error format (spec §8), in the caller's language (Accept-Language). */
function refusal(c: Context<AppEnv>, code: "UNAUTHORIZED" | "TOO_MANY_REQUESTS", key: string, headers: Record<string, string>) {
  const t = translatorFor(chooseLanguage(c), c.get("settings").brandNamespace);
  const status = code === "UNAUTHORIZED" ? 401 : 429;
  const body = { error: { message: String(t(key)), code: errorCodes[code], data: { code, httpStatus: status } } };
  return c.json(body, status, { ...headers, "Cache-Control": "no-store" });
}

const unauthorized = (c: Context<AppEnv>) =>
  refusal(c, "UNAUTHORIZED", "apiTokens.errors.unauthorized", { "WWW-Authenticate": 'Bearer realm="api"' });

/**
 * A call with `Authorization: Bearer <token>` (issue 27): the token is the only credential (a
 * cookie sent along is ignored). One D1 read finds it by its hash each call (no cache: a
 * revoked token fails on the next call); then the call is counted in the token's window, and
 * its last use written when the stored one is a minute old.
 */
export async function bearerSession(c: Context<AppEnv>, credential: string, next: Next) {
  c.set("session", null);
  c.set("user", null);
  if (!isTokenShaped(credential)) return unauthorized(c);
  const token = await findApiTokenByHash(c.env.DB, await sha256Hex(credential));
  if (!token || tokenState(token) !== "active") return unauthorized(c);
  const at = Date.now();
  const stale = !token.lastUsedAt || Date.parse(token.lastUsedAt) <= at - LAST_USED_EVERY_MS;
  const country = (c.req.raw as { cf?: { country?: unknown } }).cf?.country;
  const [count] = await Promise.all([
    countHit(c.env.DB, `api-token:${token.id}`, at, WINDOW_SECONDS),
    stale
      ? touchApiTokenStatement(
          c.env.DB,
          token.id,
          { at: new Date(at).toISOString(), address: clientAddress(c), country: typeof country === "string" ? country : null },
          new Date(at - LAST_USED_EVERY_MS).toISOString(),
        ).run()
      : null,
  ]);
  const limit = callsPerMinute(c);
  if (count > limit) {
    // The rest of this window, then the share of the next after which this window's calls, weighing
    // less as it slides away, are under the limit (an upper bound: the previous window counts too).
    const windowEnd = (Math.floor(at / 1000 / WINDOW_SECONDS) + 1) * WINDOW_SECONDS;
    const retryAfter = Math.max(1, Math.ceil(windowEnd - at / 1000 + WINDOW_SECONDS * (1 - limit / count)));
    return refusal(c, "TOO_MANY_REQUESTS", "apiTokens.errors.tooManyRequests", { "Retry-After": String(retryAfter) });
  }
  c.set("user", tokenPrincipal(token));
  return next();
}
