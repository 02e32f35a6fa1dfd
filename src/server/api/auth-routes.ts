import { zValidator } from "@hono/zod-validator";
import { type Context, Hono } from "hono";
import { z } from "zod";
import { endSession, extendSession } from "../auth/sessions";
import { emailStep, passwordStep, sendEmailCode, Throttled, verifyEmailCode } from "../auth/sign-in";
import type { AppEnv } from "../env";

/** Bad input answers 400 with what was wrong, in one shape for every call. */
function badRequest(result: { success: true } | { success: false; error: z.core.$ZodError }, c: Context) {
  if (!result.success) return c.json({ ok: false, error: "BAD_REQUEST", issues: z.flattenError(result.error).fieldErrors }, 400);
}

const email = z.string().trim().min(1).max(254).email();
const signInBody = z.union([
  z.object({ username: email, password: z.string().min(1).max(256) }).strict(),
  z.object({ username: email }).strict(),
]);

/** The plain calls of spec §7 for signing in and out. */
export const authRoutes = new Hono<AppEnv>()
  .onError((error, c) => {
    if (error instanceof Throttled) return c.json({ ok: false, error: "TOO_MANY_REQUESTS" }, 429);
    throw error;
  })
  .get("/api/me", (c) => {
    const user = c.get("user");
    c.header("Cache-Control", "no-store");
    if (!user) return c.json({ ok: false });
    return c.json({ ok: true, user: user.email, orgId: user.orgId, permissions: user.permissions });
  })
  .post("/api/sign-in", zValidator("json", signInBody, badRequest), async (c) => {
    const body = c.req.valid("json");
    if ("password" in body) return c.json(await passwordStep(c, body.username, body.password));
    return c.json(await emailStep(c, body.username));
  })
  .post("/api/auth/2fa/email/send", async (c) => c.json(await sendEmailCode(c)))
  .post(
    "/api/auth/2fa/email/verify",
    zValidator("json", z.object({ otp: z.string().trim().min(1).max(12) }).strict(), badRequest),
    async (c) => c.json(await verifyEmailCode(c, c.req.valid("json").otp)),
  )
  // The idle warning's "Stay signed in": the session's idle clock starts again.
  .post("/api/session/extend", async (c) => {
    c.header("Cache-Control", "no-store");
    if (c.get("user") === null) return c.json({ ok: false }, 401);
    return c.json({ ok: await extendSession(c, c.get("session")) });
  })
  .post("/api/sign-out", async (c) => {
    await endSession(c, c.get("session"));
    return c.body(null, 204);
  });
