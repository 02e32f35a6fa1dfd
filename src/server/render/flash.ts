import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { z } from "zod";

/**
 * A one-time message carried across a redirect after a form post (post/redirect/get):
 * a toast with JavaScript, a plain status message without it. It holds a translation key,
 * not text, so it is shown in the language of the page that reads it.
 */
export const flashSchema = z.object({
  type: z.enum(["success", "error", "info"]),
  key: z.string().max(100),
  values: z.record(z.string(), z.union([z.string(), z.number()])).optional(),
});
export type Flash = z.infer<typeof flashSchema>;

const COOKIE = "flash";

export function setFlash(c: Context, flash: Flash): void {
  setCookie(c, COOKIE, JSON.stringify(flash), {
    path: "/",
    httpOnly: true,
    sameSite: "Lax",
    secure: new URL(c.req.url).protocol === "https:",
    maxAge: 60,
  });
}

/** Reads the flash for this request and clears it, so it is shown once. */
export function takeFlash(c: Context): Flash | null {
  const raw = getCookie(c, COOKIE);
  if (raw === undefined) return null;
  deleteCookie(c, COOKIE, { path: "/" });
  try {
    const parsed = flashSchema.safeParse(JSON.parse(raw));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}
