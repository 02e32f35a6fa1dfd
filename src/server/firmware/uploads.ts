import { firmwareManifest } from "@/schema/fleet/firmware-manifest";
import { refuse, refuseWith } from "../api/refusal";
import type { R2Bucket } from "../cloudflare";
import { type FirmwarePackage, recordPartStatement, type UploadedPart } from "../data/firmware-packages";
import type { Env } from "../env";
import type { Translate } from "../i18n/i18n";
import { firmwareSecret } from "./download-url";
import { SigningKeyUnreadable, signManifest } from "./signing-keys";

/**
 * A package's file goes into R2 as a multipart upload (issue 26): parts of PART_BYTES (R2 wants
 * every part but the last the same size, at least 5 MiB), then completion, which reads the whole
 * object back to measure its SHA-256 and size (a client's hash is never trusted) and signs the
 * manifest with the organization's key.
 */
export const PART_BYTES = 8 * 1024 * 1024;
export const PACKAGE_MAX_BYTES = 512 * 1024 * 1024;
export const MAX_PARTS = PACKAGE_MAX_BYTES / PART_BYTES;

type Ctx = { t: Translate; env: Env };

export function firmwareBucket(ctx: Ctx): R2Bucket {
  const bucket = ctx.env.FIRMWARE;
  if (!bucket) return refuse(ctx, "PRECONDITION_FAILED", "firmware.errors.noBucket");
  return bucket;
}

/** The secret that seals signing keys; a deployment without it refuses to sign (a 4xx, said in words). */
export function signingSecret(ctx: Ctx): string {
  const secret = firmwareSecret(ctx.env);
  if (!secret) return refuse(ctx, "PRECONDITION_FAILED", "firmware.errors.noSecret");
  return secret;
}

export function assertUploading(ctx: Ctx, pkg: FirmwarePackage): string {
  if (pkg.state !== "uploading" || !pkg.uploadId) return refuse(ctx, "CONFLICT", "firmware.errors.notUploading");
  return pkg.uploadId;
}

/** Stores part `partNumber` (1…MAX_PARTS, at most PART_BYTES) and records it on the package. */
export async function storePart(
  ctx: Ctx & { db: Env["DB"] },
  pkg: FirmwarePackage,
  partNumber: number,
  bytes: Uint8Array,
): Promise<UploadedPart> {
  const uploadId = assertUploading(ctx, pkg);
  if (!Number.isInteger(partNumber) || partNumber < 1 || partNumber > MAX_PARTS)
    refuseWith(ctx, "PAYLOAD_TOO_LARGE", "firmware.errors.tooManyParts", { max: MAX_PARTS });
  if (bytes.byteLength === 0) refuse(ctx, "BAD_REQUEST", "firmware.errors.emptyPart");
  if (bytes.byteLength > PART_BYTES) refuse(ctx, "PAYLOAD_TOO_LARGE", "firmware.errors.partTooLarge");
  const upload = firmwareBucket(ctx).resumeMultipartUpload(pkg.objectKey, uploadId);
  const uploaded = await upload.uploadPart(partNumber, bytes);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as Uint8Array<ArrayBuffer>));
  const sha256 = [...digest].map((b) => b.toString(16).padStart(2, "0")).join("");
  const part = { partNumber, etag: uploaded.etag, size: bytes.byteLength, sha256 };
  const result = await recordPartStatement(ctx.db, pkg.id, part).run();
  // Completed or cancelled meanwhile: the part is not the package's.
  if (!result.meta.changes) refuse(ctx, "CONFLICT", "firmware.errors.notUploading");
  return part;
}

/** Parts 1…n with no gap, every one but the last a full PART_BYTES, the whole within the limit. */
function checkParts(ctx: Ctx, parts: UploadedPart[]): number {
  if (parts.length === 0) refuse(ctx, "BAD_REQUEST", "firmware.errors.noParts");
  let size = 0;
  parts.forEach((part, index) => {
    if (part.partNumber !== index + 1) refuseWith(ctx, "BAD_REQUEST", "firmware.errors.missingPart", { part: index + 1 });
    if (index < parts.length - 1 && part.size !== PART_BYTES)
      refuseWith(ctx, "BAD_REQUEST", "firmware.errors.partTooSmall", { part: part.partNumber });
    size += part.size;
  });
  if (size > PACKAGE_MAX_BYTES) refuse(ctx, "PAYLOAD_TOO_LARGE", "firmware.errors.tooLarge");
  return size;
}

type DigestingStream = WritableStream<ArrayBufferView> & { digest: Promise<ArrayBuffer> };
const DigestStream = (crypto as unknown as { DigestStream: new (algorithm: string) => DigestingStream }).DigestStream;

/** SHA-256 (hex) and size of the stored object, read back from R2 as a stream (never held whole in memory). */
export async function measureObject(bucket: R2Bucket, key: string): Promise<{ sha256: string; size: number } | null> {
  const object = await bucket.get(key);
  if (!object) return null;
  const digest = new DigestStream("SHA-256");
  // Straight into the runtime's digest (no JavaScript per chunk); the size is what R2 stored.
  await (object.body as ReadableStream<Uint8Array>).pipeTo(digest);
  const hash = new Uint8Array(await digest.digest);
  return { sha256: [...hash].map((b) => b.toString(16).padStart(2, "0")).join(""), size: object.size };
}

/** Completes the R2 upload, measures what was stored and signs it: what the package row then records. */
export async function finishUpload(
  ctx: Ctx & { db: Env["DB"] },
  pkg: FirmwarePackage,
): Promise<{ size: number; sha256: string; signature: string; keyId: string }> {
  const uploadId = assertUploading(ctx, pkg);
  checkParts(ctx, pkg.parts);
  const secret = signingSecret(ctx);
  const bucket = firmwareBucket(ctx);
  try {
    await bucket
      .resumeMultipartUpload(pkg.objectKey, uploadId)
      .complete(pkg.parts.map(({ partNumber, etag }) => ({ partNumber, etag })));
  } catch (error) {
    // A completion already done (twice at once) or parts R2 no longer has: the caller's to retry, not a 5xx.
    console.warn("firmware upload completion refused", error);
    refuse(ctx, "CONFLICT", "firmware.errors.completeFailed");
  }
  const measured = await measureObject(bucket, pkg.objectKey);
  if (!measured) return refuse(ctx, "CONFLICT", "firmware.errors.completeFailed");
  const manifest = firmwareManifest({ packageId: pkg.id, version: pkg.version, sha256: measured.sha256, size: measured.size });
  try {
    return { ...measured, ...(await signManifest(ctx.db, secret, pkg.orgId, manifest)) };
  } catch (error) {
    // The secret changed since the key was made: said in words (the upload stays, to complete once it is back).
    if (error instanceof SigningKeyUnreadable) return refuse(ctx, "PRECONDITION_FAILED", "firmware.errors.keyUnreadable");
    throw error;
  }
}

/** Cancels an upload in R2 (its parts go) and deletes a stored file; either may already be gone. */
export async function discardFile(ctx: Ctx, pkg: FirmwarePackage): Promise<void> {
  const bucket = ctx.env.FIRMWARE;
  if (!bucket) return;
  if (pkg.uploadId)
    await bucket
      .resumeMultipartUpload(pkg.objectKey, pkg.uploadId)
      .abort()
      .catch(() => undefined);
  await bucket.delete(pkg.objectKey);
}
