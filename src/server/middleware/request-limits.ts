import type { Context, MiddlewareHandler } from "hono";
import { IMPORT_BODY_MAX_BYTES } from "@/schema/devices";
import { type ErrorCodeName, errorCodes, httpStatusOf } from "@/schema/errors";
import type { AppEnv } from "../env";
import { AppError } from "../errors";
import { PART_PATH, UPLOAD_FORM_PATH } from "../firmware/upload-paths";
import { translatorFor } from "../i18n/i18n";

/**
 * Limits every request body meets before any handler reads it (issue 9), far above what a
 * real screen sends: the typed API (/api/<procedure>), the plain auth calls and form posts.
 * A refusal is a translated 4xx in the caller's shape; the body is then never parsed.
 */
export const requestLimits = {
  /** The typed API: the largest real body (a profile with 200 contacts) is about 30 KB. */
  apiBodyBytes: 512 * 1024,
  /** ?input=… of a query (GET). */
  queryInputChars: 64 * 1024,
  /** Calls in one batch (batch=1); the islands send a handful at once. */
  batchCalls: 20,
  /** Nesting of JSON objects and arrays. */
  jsonDepth: 32,
  /** The plain auth calls (sign-in, two-factor, passkeys: an attestation is the largest). */
  plainBodyBytes: 64 * 1024,
  /** Form posts: a profile with 200 contacts is the largest form. */
  formBodyBytes: 256 * 1024,
  formFields: 2000,
  /** The CSV import of radios (a file of up to 3 MB), on the API and its form: IMPORT_BODY_MAX_BYTES. */
  importBodyBytes: IMPORT_BODY_MAX_BYTES,
} as const;

/** The procedure that takes a whole file, and its form posts, which their action reads (so a refusal is the import screen). */
const IMPORT_PROCEDURE = "devices.importCsv";
const IMPORT_FORM = /^(\/accounts\/[^/]+\/registry)?\/devices\/import$/;

/** Keys that mean something to JavaScript objects; no input of ours uses them. */
const PROTOTYPE_KEYS = new Set(["__proto__", "constructor", "prototype"]);

/** The plain calls of spec §7 beside the procedures; everything else under /api is a procedure. */
function isPlainCall(path: string): boolean {
  return ["/api/me", "/api/sign-in", "/api/sign-out"].includes(path) || /^\/api\/(auth|passkey)\//.test(path);
}

export type Refusal = { code: ErrorCodeName; key: string; values?: Record<string, string | number> };

/** The body, or null when it is (or says it is) larger than `max`; read no further than that. */
async function readCapped(request: Request, max: number): Promise<Uint8Array | null> {
  const declared = Number(request.headers.get("Content-Length"));
  if (Number.isFinite(declared) && declared > max) return null;
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > max) {
      // The rest is drained (drain-body.ts), not cancelled: the answer must not race the upload.
      reader.releaseLock();
      return null;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/** How deeply the JSON text nests, counted without parsing it (a 5-million-deep body costs one pass). */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let deepest = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const char = text.charCodeAt(i);
    if (inString) {
      if (char === 0x5c) i += 1;
      else if (char === 0x22) inString = false;
    } else if (char === 0x22) inString = true;
    else if (char === 0x5b || char === 0x7b) {
      depth += 1;
      if (depth > deepest) deepest = depth;
      if (deepest > limit) return deepest;
    } else if (char === 0x5d || char === 0x7d) depth -= 1;
  }
  return deepest;
}

/** The first prototype key anywhere in a parsed value (depth is bounded already). */
function prototypeKey(value: unknown): string | null {
  if (Array.isArray(value)) {
    for (const item of value) {
      const found = prototypeKey(item);
      if (found) return found;
    }
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) {
      if (PROTOTYPE_KEYS.has(key)) return key;
      const found = prototypeKey(item);
      if (found) return found;
    }
  }
  return null;
}

/** What is wrong with a JSON text, if anything; invalid JSON itself is left to the handler (or refused when `mustParse`). */
function jsonRefusal(text: string, { mustParse }: { mustParse: boolean }): Refusal | null {
  if (jsonDepth(text, requestLimits.jsonDepth) > requestLimits.jsonDepth) {
    return { code: "BAD_REQUEST", key: "errors.tooDeep" };
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    return mustParse ? { code: "BAD_REQUEST", key: "errors.invalidJson" } : null;
  }
  const key = prototypeKey(parsed);
  return key ? { code: "BAD_REQUEST", key: "errors.forbiddenKey", values: { key } } : null;
}

const utf8 = new TextDecoder("utf-8", { fatal: true });

function decode(bytes: Uint8Array): string | null {
  try {
    return utf8.decode(bytes);
  } catch {
    return null;
  }
}

function isJsonType(c: Context<AppEnv>): boolean {
  return (c.req.header("Content-Type") ?? "").toLowerCase().startsWith("application/json");
}

/** A procedure call: method, batch length, ?input=, and the JSON body (other bodies are refused unread later). */
async function procedureRefusal(c: Context<AppEnv>): Promise<Refusal | null> {
  const method = c.req.method;
  if (method !== "GET" && method !== "POST") {
    return { code: "METHOD_NOT_SUPPORTED", key: "errors.methodNotSupported", values: { method } };
  }
  const procedures = c.req.path.slice("/api/".length).split(",");
  const calls = procedures.length;
  if (calls > requestLimits.batchCalls) {
    return { code: "BAD_REQUEST", key: "errors.tooManyCalls", values: { max: requestLimits.batchCalls } };
  }
  const input = new URL(c.req.url).searchParams.get("input");
  if (input !== null) {
    if (input.length > requestLimits.queryInputChars) return { code: "PAYLOAD_TOO_LARGE", key: "errors.payloadTooLarge" };
    const refusal = jsonRefusal(input, { mustParse: false });
    if (refusal) return refusal;
  }
  if (method === "POST" && isJsonType(c)) {
    if (procedures.includes(IMPORT_PROCEDURE)) {
      const refusal = await bodyRefusal(c, requestLimits.importBodyBytes, false);
      return refusal?.code === "PAYLOAD_TOO_LARGE" ? { ...refusal, key: "devices.import.tooLarge" } : refusal;
    }
    return bodyRefusal(c, requestLimits.apiBodyBytes, false);
  }
  return null;
}

/** Reads a JSON body within `max` bytes, checks it, and leaves its text for the handler. */
async function bodyRefusal(c: Context<AppEnv>, max: number, mustParse: boolean): Promise<Refusal | null> {
  const bytes = await readCapped(c.req.raw, max);
  if (!bytes) return { code: "PAYLOAD_TOO_LARGE", key: "errors.payloadTooLarge" };
  const text = decode(bytes);
  if (text === null) return { code: "BAD_REQUEST", key: "errors.invalidEncoding" };
  // Hono keeps promises in its body cache (typed as values): the handler reads this text, not the stream.
  (c.req.bodyCache as Record<string, unknown>).text = Promise.resolve(text);
  if (text.trim() === "") return null;
  return jsonRefusal(text, { mustParse });
}

/**
 * The request's body as a stream that fails past `max` bytes. Past it, the request's own
 * stream is released unread (drain-body.ts reads the rest): the answer must not race the upload.
 */
function cappedBody(body: ReadableStream<Uint8Array>, max: number, onOver: () => void): ReadableStream<Uint8Array> {
  const reader = body.getReader();
  let size = 0;
  return new ReadableStream<Uint8Array>({
    async pull(controller) {
      const { done, value } = await reader.read();
      if (done) {
        controller.close();
        return;
      }
      size += value.byteLength;
      if (size > max) {
        onOver();
        reader.releaseLock();
        controller.error(new Error("body over its limit"));
        return;
      }
      controller.enqueue(value);
    },
  });
}

/**
 * A form post read within `max` bytes, parsed as it arrives (never a second copy of the
 * bytes): the form, or why it is refused (too large, unreadable, too many fields). The form is
 * left for `c.req.parseBody()`.
 */
export async function readForm(c: Context<AppEnv>, max: number): Promise<{ form: FormData } | { refusal: Refusal }> {
  const tooLarge = { refusal: { code: "PAYLOAD_TOO_LARGE", key: "errors.payloadTooLarge" } } as const;
  const declared = Number(c.req.header("Content-Length"));
  if (Number.isFinite(declared) && declared > max) return tooLarge;
  let over = false;
  let form: FormData;
  try {
    const body = c.req.raw.body;
    form = await new Response(
      body
        ? cappedBody(body, max, () => {
            over = true;
          })
        : "",
      { headers: { "Content-Type": c.req.header("Content-Type") ?? "" } },
    ).formData();
  } catch {
    return over ? tooLarge : { refusal: { code: "BAD_REQUEST", key: "errors.unreadableForm" } };
  }
  let fields = 0;
  for (const _ of form.keys()) fields += 1;
  if (fields > requestLimits.formFields) {
    return { refusal: { code: "PAYLOAD_TOO_LARGE", key: "errors.tooManyFields", values: { max: requestLimits.formFields } } };
  }
  (c.req.bodyCache as Record<string, unknown>).formData = Promise.resolve(form);
  return { form };
}

/** A form post: size, readable, not too many fields; the parsed form is left for the action. */
async function formRefusal(c: Context<AppEnv>): Promise<Refusal | null> {
  const type = c.req.header("Content-Type") ?? "";
  const media = type.split(";")[0]?.trim().toLowerCase();
  if (media !== "application/x-www-form-urlencoded" && media !== "multipart/form-data") return null;
  if (IMPORT_FORM.test(c.req.path) || UPLOAD_FORM_PATH.test(c.req.path)) return null;
  const read = await readForm(c, requestLimits.formBodyBytes);
  return "refusal" in read ? read.refusal : null;
}

/** The refusal in the shape the caller reads: the wire format, a plain call's JSON, or a form's page. */
function refuse(c: Context<AppEnv>, refusal: Refusal, shape: "procedure" | "plain" | "form"): Response {
  const message = String(translatorFor(c.get("language"), c.get("settings").brandNamespace)(refusal.key, refusal.values ?? {}));
  const status = httpStatusOf[refusal.code] as 400 | 405 | 413;
  if (shape === "procedure") {
    return c.json(
      { error: { message, code: errorCodes[refusal.code], data: { code: refusal.code, httpStatus: status } } },
      status,
    );
  }
  if (shape === "plain") return c.json({ ok: false, error: refusal.code, message }, status);
  if ((c.req.header("Accept") ?? "").includes("application/json"))
    return c.json({ ok: false, errors: { form: message } }, status);
  throw new AppError(refusal.code, message);
}

/** Runs after the language is known, so every refusal speaks the caller's language. */
export const limitRequests: MiddlewareHandler<AppEnv> = async (c, next) => {
  const path = c.req.path;
  if (c.req.method === "PUT" && PART_PATH.test(path)) {
    // A firmware package's part (8 MiB of bytes): its route reads it within its own limit.
  } else if (path.startsWith("/api/") && isPlainCall(path)) {
    const refusal = c.req.method === "POST" ? await bodyRefusal(c, requestLimits.plainBodyBytes, true) : null;
    if (refusal) return refuse(c, refusal, "plain");
  } else if (path.startsWith("/api/")) {
    const refusal = await procedureRefusal(c);
    if (refusal) return refuse(c, refusal, "procedure");
  } else if (c.req.method === "POST") {
    const refusal = await formRefusal(c);
    if (refusal) return refuse(c, refusal, "form");
  }
  await next();
};
