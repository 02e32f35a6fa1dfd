import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { fallbackLanguage, isLanguage, negotiateLanguage } from "@/schema/languages";
import type { AppEnv } from "../env";

export const LANGUAGE_COOKIE = "lang";

/**
 * The interface language: the choice remembered in this browser, else the signed-in user's
 * saved one, else Accept-Language, else English (spec §9). Runs after the session middleware.
 */
export const language: MiddlewareHandler<AppEnv> = async (c, next) => {
  const remembered = getCookie(c, LANGUAGE_COOKIE);
  const saved = c.get("user")?.language;
  c.set(
    "language",
    isLanguage(remembered)
      ? remembered
      : isLanguage(saved)
        ? saved
        : (negotiateLanguage(c.req.header("Accept-Language")) ?? fallbackLanguage),
  );
  await next();
};
