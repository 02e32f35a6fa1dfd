import type { R2Bucket } from "../cloudflare";

/** Rows as NDJSON (one JSON object per line, the row's columns), gzip-compressed. */
export async function gzipNdjson(rows: readonly Record<string, unknown>[]): Promise<Uint8Array<ArrayBuffer>> {
  const text = rows.map((row) => `${JSON.stringify(row)}\n`).join("");
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Uint8Array(await new Response(stream).arrayBuffer());
}

/** The rows of a gzip NDJSON object (what a download holds, and what the sweep reads back). */
export async function readNdjson(gzipped: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<Record<string, unknown>[]> {
  const stream = new Blob([gzipped]).stream().pipeThrough(new DecompressionStream("gzip"));
  const text = await new Response(stream).text();
  return text
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => JSON.parse(line) as Record<string, unknown>);
}

export async function sha256Hex(bytes: ArrayBuffer | Uint8Array<ArrayBuffer>): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes);
  return [...new Uint8Array(digest)].map((b) => b.toString(16).padStart(2, "0")).join("");
}

export type WrittenArchive = { bytes: number; sha256: string };

/**
 * Writes the rows to `key` and reads the object back: it counts as written only if the bytes
 * read have the checksum of the bytes sent and hold as many lines as rows. Anything else
 * throws, and the caller deletes nothing.
 */
export async function writeVerifiedArchive(
  bucket: R2Bucket,
  key: string,
  rows: readonly Record<string, unknown>[],
): Promise<WrittenArchive> {
  const body = await gzipNdjson(rows);
  const sha256 = await sha256Hex(body);
  await bucket.put(key, body, {
    httpMetadata: { contentType: "application/gzip" },
    customMetadata: { rows: String(rows.length), sha256 },
    sha256,
  });
  const object = await bucket.get(key);
  if (!object) throw new Error(`archive ${key} is missing after writing it`);
  const back = await object.arrayBuffer();
  if ((await sha256Hex(back)) !== sha256) throw new Error(`archive ${key} reads back other bytes than were written`);
  const lines = (await readNdjson(back)).length;
  if (lines !== rows.length) throw new Error(`archive ${key} holds ${lines} rows, not ${rows.length}`);
  return { bytes: body.byteLength, sha256 };
}
