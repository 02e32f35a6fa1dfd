import { zValidator } from "@hono/zod-validator";
import { Hono } from "hono";
import { setCookie } from "hono/cookie";
import { z } from "zod";
import { languages } from "../schema/languages";
import { setLanguage } from "./data/users";
import type { AppEnv } from "./env";
import { LANGUAGE_COOKIE } from "./middleware/language";
import { setFlash } from "./render/flash";
import { localPath } from "./safe-redirect";

const ONE_YEAR_S = 365 * 24 * 60 * 60;

/**
 * POST /language: remembers the chosen language in this browser and, for a signed-in user,
 * with the user too, so signing in on another browser brings it back; then goes back to the
 * page it came from.
 */
export const languageRoute = new Hono<AppEnv>().post(
  "/language",
  zValidator("form", z.object({ language: z.enum(languages), next: z.string().optional() })),
  async (c) => {
    const { language, next } = c.req.valid("form");
    const user = c.get("user");
    if (user && user.language !== language) await setLanguage(c.env.DB, user.id, language);
    setCookie(c, LANGUAGE_COOKIE, language, {
      path: "/",
      maxAge: ONE_YEAR_S,
      sameSite: "Lax",
      secure: new URL(c.req.url).protocol === "https:",
    });
    setFlash(c, { type: "success", key: "language.changed" });
    return c.redirect(localPath(next), 303);
  },
);
