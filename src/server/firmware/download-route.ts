import { Hono } from "hono";
import { packageObjectKey } from "@/schema/fleet/firmware-manifest";
import type { R2Bucket } from "../cloudflare";
import type { AppEnv } from "../env";
import { byteRangeOf, ifRangeHolds } from "./byte-range";
import { firmwareSecret, verifyDownloadUrl } from "./download-url";

/**
 * `GET`/`HEAD /device/v1/firmware/:packageId?uid&exp&sig` (docs/device-protocol.md, "The download"):
 * the signed URL is the credential, checked by its HMAC and expiry alone, so a thousand radios
 * downloading at once never touch D1; the file streams from the FIRMWARE bucket with Range
 * (one range) for resuming and If-Range so a changed file starts over.
 */
export const firmwareDownload = new Hono<AppEnv>();

type Refusal = { status: 403 | 404; code: string; message: string };

function refuse(r: Refusal): Response {
  return new Response(JSON.stringify({ error: { code: r.code, message: r.message } }), {
    status: r.status,
    headers: { "content-type": "application/json", "cache-control": "no-store" },
  });
}

const expired: Refusal = {
  status: 403,
  code: "URL_EXPIRED",
  message: "This download URL has expired: check in for a fresh one and resume where you stopped.",
};
const invalid: Refusal = { status: 403, code: "INVALID_URL", message: "This download URL is not valid." };
const missing: Refusal = { status: 404, code: "NOT_FOUND", message: "No such firmware file." };

type Described = { size: number; httpEtag: string; uploaded: Date };

/** What every answer carrying (part of) the file says about it. */
function fileHeaders(file: Described, packageId: string): Headers {
  return new Headers({
    "content-type": "application/octet-stream",
    "content-disposition": `attachment; filename="${packageId.replace(/[^A-Za-z0-9._-]/g, "_")}.bin"`,
    "accept-ranges": "bytes",
    etag: file.httpEtag,
    "last-modified": file.uploaded.toUTCString(),
    // A radio's own copy; no shared cache may keep it or re-encode it (that would break ranges).
    "cache-control": "private, no-transform",
  });
}

/** The object's body as the Response constructor's type (the runtime's and the DOM's stream types differ only on paper). */
const streamOf = (file: { body: unknown }) => file.body as ReadableStream<Uint8Array>;

async function whole(bucket: R2Bucket, key: string, packageId: string): Promise<Response> {
  const file = await bucket.get(key);
  if (!file) return refuse(missing);
  const headers = fileHeaders(file, packageId);
  headers.set("content-length", String(file.size));
  return new Response(streamOf(file), { status: 200, headers });
}

async function partial(bucket: R2Bucket, key: string, packageId: string, request: Request): Promise<Response> {
  const described = await bucket.head(key);
  if (!described) return refuse(missing);
  const headers = fileHeaders(described, packageId);
  if (!ifRangeHolds(request.headers.get("if-range"), described.httpEtag, headers.get("last-modified") ?? "")) {
    return whole(bucket, key, packageId);
  }
  const range = byteRangeOf(request.headers.get("range"), described.size);
  if (range === "whole") return whole(bucket, key, packageId);
  if (range === "unsatisfiable") {
    headers.set("content-range", `bytes */${described.size}`);
    headers.set("content-length", "0");
    headers.delete("content-disposition");
    return new Response(null, { status: 416, headers });
  }
  // Only from the file just described: replaced in between, the radio gets the new one whole.
  const file = await bucket.get(key, { range, onlyIf: { etagMatches: described.etag } });
  if (!file) return refuse(missing);
  if (!("body" in file)) return whole(bucket, key, packageId);
  headers.set("content-range", `bytes ${range.offset}-${range.offset + range.length - 1}/${described.size}`);
  headers.set("content-length", String(range.length));
  return new Response(streamOf(file), { status: 206, headers });
}

// Hono answers HEAD with the GET route, dropping the body: the method tells us not to read one.
firmwareDownload.get("/:packageId", async (c) => {
  const packageId = c.req.param("packageId");
  const secret = firmwareSecret(c.env);
  if (!secret) return refuse(invalid);
  const verdict = await verifyDownloadUrl(secret, packageId, new URL(c.req.url).searchParams, new Date());
  if (verdict === "expired") return refuse(expired);
  if (verdict !== "ok") return refuse(invalid);
  const bucket = c.env.FIRMWARE;
  if (!bucket) return refuse(missing);
  const key = packageObjectKey(packageId);
  if (c.req.method === "HEAD") {
    // Range is defined for GET only (RFC 9110 §14.2): a HEAD describes the whole file.
    const described = await bucket.head(key);
    if (!described) return refuse(missing);
    const headers = fileHeaders(described, packageId);
    headers.set("content-length", String(described.size));
    return new Response(null, { status: 200, headers });
  }
  if (!c.req.header("range")) return whole(bucket, key, packageId);
  return partial(bucket, key, packageId, c.req.raw);
});

// Anything else under the download path (another method, no package id) is no device call,
// answered here so it, too, stays clear of D1.
firmwareDownload.all("*", () => refuse(missing));
