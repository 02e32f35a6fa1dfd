import { zValidator } from "@hono/zod-validator";
import { type Context, Hono, type MiddlewareHandler } from "hono";
import { z } from "zod";
import { plainText } from "@/schema/text";
import {
  authenticationOptions,
  PASSKEY_NAME_MAX,
  registerPasskey,
  registrationOptions,
  signInWithPasskey,
} from "../auth/passkeys";
import { withinLimit } from "../auth/throttle";
import type { AppEnv } from "../env";
import { setFlash } from "../render/flash";

/** Bad input answers 400 with what was wrong (the shape of auth-routes.ts). */
function badRequest(result: { success: true } | { success: false; error: z.core.$ZodError }, c: Context) {
  if (!result.success) return c.json({ ok: false, error: "BAD_REQUEST", issues: z.flattenError(result.error).fieldErrors }, 400);
}

const b64url = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[A-Za-z0-9_-]+={0,2}$/);

/** The credential fields every passkey payload carries (spec §3). */
const credentialFields = {
  id: b64url(1400),
  rawId: b64url(1400),
  type: z.literal("public-key"),
  clientExtensionResults: z.record(z.string(), z.unknown()).default({}),
  authenticatorAttachment: z
    .enum(["platform", "cross-platform"])
    .nullish()
    .transform((value) => value ?? undefined),
};

const registrationBody = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(4096),
    attestationObject: b64url(32_768),
    authenticatorData: b64url(32_768).optional(),
    transports: z.array(z.string().max(32)).max(10).optional(),
    publicKeyAlgorithm: z.number().int().optional(),
    publicKey: b64url(4096).optional(),
  }),
  /** What the user calls it; a numbered default when left out. */
  name: plainText(PASSKEY_NAME_MAX).optional(),
});

const authenticationResponse = z.object({
  ...credentialFields,
  response: z.object({
    clientDataJSON: b64url(4096),
    authenticatorData: b64url(32_768),
    signature: b64url(2048),
    userHandle: b64url(128).optional(),
  }),
});

const authStartBody = z.object({ username: z.string().trim().toLowerCase().email().max(254).optional() }).strict();
const authVerifyBody = z.object({ uniqueId: z.string().min(1).max(64), response: authenticationResponse }).strict();

/** The calls exist only while passkeys are offered (the PASSKEYS_ENABLED flag). */
const enabled: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("settings").passkeysEnabled) return c.json({ ok: false, error: "NOT_FOUND" }, 404);
  await next();
};

/** Signing in with passkeys is throttled per address, like passwords. */
const throttled: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!(await withinLimit(c, "passkey"))) return c.json({ ok: false, error: "TOO_MANY_REQUESTS" }, 429);
  await next();
};

const signedIn: MiddlewareHandler<AppEnv> = async (c, next) => {
  if (!c.get("user")) return c.json({ ok: false, error: "UNAUTHORIZED" }, 401);
  await next();
};

/** The passkey calls of spec §7 (answers of spec §3). */
export const passkeyRoutes = new Hono<AppEnv>()
  .use("/api/passkey/*", enabled)
  .post("/api/passkey/register/start", signedIn, async (c) => {
    const user = c.get("user");
    if (!user) return c.json({ ok: false }, 401);
    c.header("Cache-Control", "no-store");
    return c.json(await registrationOptions(c, user));
  })
  .post("/api/passkey/register/verify", signedIn, zValidator("json", registrationBody, badRequest), async (c) => {
    const user = c.get("user");
    if (!user) return c.json({ ok: false }, 401);
    const { name, ...credential } = c.req.valid("json");
    const result = await registerPasskey(c, user, credential, name);
    if (!result.ok) return c.json({ ok: false, error: result.reason }, result.reason === "duplicate" ? 409 : 400);
    // The island reloads /security, which shows this as a toast.
    setFlash(c, { type: "success", key: "passkeys.added" });
    return c.json({ authenticatorId: result.authenticatorId });
  })
  .post("/api/passkey/auth/start", throttled, async (c) => {
    // No body, or {} / {username}: read leniently so a bodiless POST starts a discoverable sign-in.
    const text = await c.req.text();
    let json: unknown = {};
    try {
      json = text.trim() ? JSON.parse(text) : {};
    } catch {
      return c.json({ ok: false, error: "BAD_REQUEST" }, 400);
    }
    const body = authStartBody.safeParse(json);
    if (!body.success) return badRequest(body, c);
    c.header("Cache-Control", "no-store");
    return c.json(await authenticationOptions(c, body.data.username));
  })
  .post("/api/passkey/auth/verify", throttled, zValidator("json", authVerifyBody, badRequest), async (c) => {
    const { uniqueId, response } = c.req.valid("json");
    if (!(await signInWithPasskey(c, uniqueId, response))) return c.json({ ok: false }, 401);
    return c.json({ ok: true });
  });
