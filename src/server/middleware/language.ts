import type { MiddlewareHandler } from "hono";
import { getCookie } from "hono/cookie";
import { fallbackLanguage, isLanguage, negotiateLanguage } from "../../schema/languages";
import type { AppEnv } from "../env";

export const LANGUAGE_COOKIE = "lang";

/** The interface language: the remembered choice, else Accept-Language, else English (spec §9). */
export const language: MiddlewareHandler<AppEnv> = async (c, next) => {
  const remembered = getCookie(c, LANGUAGE_COOKIE);
  c.set(
    "language",
    isLanguage(remembered) ? remembered : (negotiateLanguage(c.req.header("Accept-Language")) ?? fallbackLanguage),
  );
  await next();
};
