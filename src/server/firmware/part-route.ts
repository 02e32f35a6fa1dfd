import { TRPCError } from "@trpc/server";
import { type Context, Hono } from "hono";
import { type ErrorCodeName, httpStatusOf } from "@/schema/errors";
import { apiContext } from "../api/procedures-route";
import type { AppEnv } from "../env";
import { translatorFor } from "../i18n/i18n";
import { managedPackage } from "./package-scope";
import { PART_BYTES, storePart } from "./uploads";

/**
 * PUT /api/firmware/<packageId>/parts/<n>[?accountId=…]: one part of a package's file, the raw
 * bytes as the body (issue 26). Not a procedure: a part is 8 MiB of binary, which the JSON wire
 * format cannot carry. Guarded like the procedures: the session, manage-devices, the package
 * changeable by the caller; and like a form, from our own origin only (a cross-site PUT needs a
 * CORS preflight we never grant; the Origin check says so explicitly).
 */
type Answer = { ok: true; partNumber: number; size: number } | { ok: false; error: ErrorCodeName; message: string };

function refusal(c: Context<AppEnv>, code: ErrorCodeName, key: string, values: Record<string, number> = {}) {
  const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
  return c.json<Answer>({ ok: false, error: code, message: String(t(key, values)) }, httpStatusOf[code] as 400);
}

/** The body within `max` bytes, or null past it (the rest is left for drain-body.ts). */
async function readPart(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const bytes = new Uint8Array(Number.isFinite(declared) && declared > 0 ? declared : max);
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (size + value.byteLength > bytes.byteLength) {
      reader.releaseLock();
      return null;
    }
    bytes.set(value, size);
    size += value.byteLength;
  }
  return bytes.subarray(0, size);
}

export const firmwarePartRoute = new Hono<AppEnv>().put("/api/firmware/:packageId/parts/:partNumber", async (c) => {
  const user = c.get("user");
  if (!user) return refusal(c, "UNAUTHORIZED", "errors.signInFirst");
  if (c.req.header("Origin") !== new URL(c.req.url).origin) return refusal(c, "FORBIDDEN", "firmware.errors.crossSite");
  if (!user.permissions["manage-devices"]) return refusal(c, "FORBIDDEN", "errors.protected");
  const partNumber = Number(c.req.param("partNumber"));
  const ctx = { ...apiContext(c), user };
  try {
    const pkg = await managedPackage(ctx, c.req.param("packageId"), c.req.query("accountId") || undefined);
    const bytes = await readPart(c.req.raw, PART_BYTES);
    if (!bytes) return refusal(c, "PAYLOAD_TOO_LARGE", "firmware.errors.partTooLarge");
    const part = await storePart(ctx, pkg, partNumber, bytes);
    return c.json<Answer>({ ok: true, partNumber: part.partNumber, size: part.size });
  } catch (error) {
    if (error instanceof TRPCError && error.code in httpStatusOf) {
      const code = error.code as ErrorCodeName;
      return c.json<Answer>({ ok: false, error: code, message: error.message }, httpStatusOf[code] as 400);
    }
    throw error;
  }
});
