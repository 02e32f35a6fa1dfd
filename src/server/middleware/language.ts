import type { Context, MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { fallbackLanguage, isLanguage, type Language, negotiateLanguage } from "@/schema/languages";
import type { AppEnv } from "../env";

export const LANGUAGE_COOKIE = "lang";

/**
 * The interface language: the choice remembered in this browser, else the signed-in user's
 * saved one, else Accept-Language, else English (spec §9).
 */
export function chooseLanguage(c: Context<AppEnv>): Language {
  const remembered = getCookie(c, LANGUAGE_COOKIE);
  const saved = c.get("user")?.language;
  if (isLanguage(remembered)) return remembered;
  if (isLanguage(saved)) return saved;
  return negotiateLanguage(c.req.header("Accept-Language")) ?? fallbackLanguage;
}

/** Sets the language for the request; runs after the session middleware. */
export const language: MiddlewareHandler<AppEnv> = async (c, next) => {
  c.set("language", chooseLanguage(c));
  await next();
};
