import { env } from "cloudflare:test";
import { beforeAll, describe, expect, it } from "vitest";
import { packageObjectKey } from "@/schema/fleet/firmware-manifest";
import { createApp } from "@/server/app";
import type { D1Database } from "@/server/cloudflare";
import { byteRangeOf } from "@/server/firmware/byte-range";
import { DOWNLOAD_URL_SECONDS, firmwareSecret, signDownloadUrl } from "@/server/firmware/download-url";
import { type Counted, counting } from "./d1-counting";
import { ORIGIN } from "./helpers";

// The firmware download (issue 26, docs/device-protocol.md "The download"): a signed URL is the
// only credential, the file comes from R2 byte-exact, one range at a time so an interrupted
// download resumes, and not one D1 statement is run for any of it.

const SIZE = 300_000;
const PACKAGE = "fw_download_test";
const OTHER_PACKAGE = "fw_download_other";
const UID = "HD-DL-0001";
const bytes = new Uint8Array(SIZE);
for (let i = 0; i < SIZE; i++) bytes[i] = (i * 31 + (i >> 8)) & 0xff;

const counted: Counted = { calls: 0, statements: [] };
const app = createApp();
const bindings = () => ({ ...env, DB: counting(env.DB as D1Database, counted) });
const secret = () => firmwareSecret(env) as string;

function get(url: string, headers: Record<string, string> = {}, method = "GET"): Promise<Response> {
  return Promise.resolve(app.request(new Request(new URL(url, ORIGIN), { method, headers }), undefined, bindings()));
}

async function urlFor(packageId = PACKAGE, uid = UID, now = new Date()): Promise<string> {
  return (await signDownloadUrl(secret(), packageId, uid, now)).url;
}

async function body(response: Response): Promise<Uint8Array> {
  return new Uint8Array(await response.arrayBuffer());
}

async function errorCode(response: Response): Promise<string> {
  return ((await response.json()) as { error: { code: string } }).error.code;
}

let etag: string;

beforeAll(async () => {
  const firmware = env.FIRMWARE;
  if (!firmware) throw new Error("the FIRMWARE bucket is not bound");
  const stored = await firmware.put(packageObjectKey(PACKAGE), bytes);
  etag = stored?.httpEtag as string;
  await firmware.put(packageObjectKey(OTHER_PACKAGE), new Uint8Array([1, 2, 3]));
});

describe("the whole file", () => {
  it("streams byte-exact with its length, ETag and Accept-Ranges, privately cached", async () => {
    const response = await get(await urlFor());
    expect(response.status).toBe(200);
    expect(response.headers.get("accept-ranges")).toBe("bytes");
    expect(response.headers.get("etag")).toBe(etag);
    expect(response.headers.get("content-length")).toBe(String(SIZE));
    expect(response.headers.get("content-type")).toBe("application/octet-stream");
    expect(response.headers.get("cache-control")).toContain("private");
    expect(await body(response)).toEqual(bytes);
  });

  it("HEAD describes the file without a body, even when asked for a range", async () => {
    const response = await get(await urlFor(), { Range: "bytes=0-9" }, "HEAD");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-length")).toBe(String(SIZE));
    expect(response.headers.get("etag")).toBe(etag);
    expect((await body(response)).byteLength).toBe(0);
  });
});

describe("ranges", () => {
  const cases: [string, number, number][] = [
    ["bytes=0-0", 0, 1],
    ["bytes=100-199", 100, 100],
    ["bytes=299990-", 299_990, 10],
    ["bytes=-500", SIZE - 500, 500],
    ["bytes=-999999", 0, SIZE],
    ["bytes=299000-999999", 299_000, 1000],
  ];
  for (const [range, offset, length] of cases) {
    it(`${range} answers 206 with exactly bytes ${offset}–${offset + length - 1}`, async () => {
      const response = await get(await urlFor(), { Range: range });
      expect(response.status).toBe(206);
      expect(response.headers.get("content-range")).toBe(`bytes ${offset}-${offset + length - 1}/${SIZE}`);
      expect(response.headers.get("content-length")).toBe(String(length));
      expect(response.headers.get("etag")).toBe(etag);
      expect(await body(response)).toEqual(bytes.slice(offset, offset + length));
    });
  }

  it("several ranges, another unit or a malformed range get the whole file (200)", async () => {
    for (const range of ["bytes=0-9,20-29", "items=0-9", "bytes=9-2", "bytes=abc", "bytes=-"]) {
      const response = await get(await urlFor(), { Range: range });
      expect(response.status, range).toBe(200);
      expect(response.headers.get("content-range"), range).toBeNull();
      expect((await body(response)).byteLength, range).toBe(SIZE);
    }
  });

  it("a range past the end answers 416 with the size", async () => {
    for (const range of [`bytes=${SIZE}-`, `bytes=${SIZE + 5}-${SIZE + 10}`, "bytes=-0"]) {
      const response = await get(await urlFor(), { Range: range });
      expect(response.status, range).toBe(416);
      expect(response.headers.get("content-range"), range).toBe(`bytes */${SIZE}`);
      await response.arrayBuffer();
    }
  });

  it("If-Range with the current ETag honours the range; another ETag or a weak one sends the whole file", async () => {
    const same = await get(await urlFor(), { Range: "bytes=10-19", "If-Range": etag });
    expect(same.status).toBe(206);
    expect(await body(same)).toEqual(bytes.slice(10, 20));
    for (const other of ['"not-the-file"', `W/${etag}`]) {
      const changed = await get(await urlFor(), { Range: "bytes=10-19", "If-Range": other });
      expect(changed.status, other).toBe(200);
      expect(await body(changed), other).toEqual(bytes);
    }
  });

  it("If-Range with the file's Last-Modified date honours the range; another date does not", async () => {
    const lastModified = (await get(await urlFor(), {}, "HEAD")).headers.get("last-modified") as string;
    const same = await get(await urlFor(), { Range: "bytes=5-6", "If-Range": lastModified });
    expect(same.status).toBe(206);
    await same.arrayBuffer();
    const older = await get(await urlFor(), { Range: "bytes=5-6", "If-Range": "Tue, 01 Jan 2019 00:00:00 GMT" });
    expect(older.status).toBe(200);
    await older.arrayBuffer();
  });
});

describe("resuming", () => {
  /** Reads the first `keep` bytes of a download, then drops the connection, as a radio losing its link. */
  async function interrupted(url: string, keep: number): Promise<{ part: Uint8Array; etag: string }> {
    const response = await get(url);
    const reader = (response.body as ReadableStream<Uint8Array>).getReader();
    const chunks: Uint8Array[] = [];
    let have = 0;
    while (have < keep) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      have += value.byteLength;
    }
    await reader.cancel();
    const part = new Uint8Array(have);
    let at = 0;
    for (const chunk of chunks) {
      part.set(chunk, at);
      at += chunk.byteLength;
    }
    return { part: part.slice(0, keep), etag: response.headers.get("etag") as string };
  }

  it("a download cut midway resumes with Range and If-Range and reassembles the exact file", async () => {
    const url = await urlFor();
    const first = await interrupted(url, 123_457);
    const rest = await get(url, { Range: `bytes=${first.part.byteLength}-`, "If-Range": first.etag });
    expect(rest.status).toBe(206);
    const tail = await body(rest);
    const whole = new Uint8Array(first.part.byteLength + tail.byteLength);
    whole.set(first.part);
    whole.set(tail, first.part.byteLength);
    expect(whole).toEqual(bytes);
  });

  it("resumes with a fresh URL after the first expired, and starts over when the file changed meanwhile", async () => {
    const firmware = env.FIRMWARE;
    if (!firmware) throw new Error("no bucket");
    const key = packageObjectKey("fw_download_changing");
    await firmware.put(key, bytes.slice(0, 1000));
    const start = new Date(Date.now() - 2 * DOWNLOAD_URL_SECONDS * 1000);
    const oldUrl = await urlFor("fw_download_changing", UID, start);
    const stale = await get(oldUrl, { Range: "bytes=0-" });
    expect(stale.status).toBe(403);
    expect(await errorCode(stale)).toBe("URL_EXPIRED");

    const fresh = await urlFor("fw_download_changing");
    const first = await interrupted(fresh, 400);
    const replaced = bytes.slice(1000, 1800);
    await firmware.put(key, replaced);
    const restarted = await get(fresh, { Range: "bytes=400-", "If-Range": first.etag });
    expect(restarted.status).toBe(200);
    expect(await body(restarted)).toEqual(replaced);
  });
});

describe("refusals", () => {
  it("another radio's uid, another package, a changed expiry or signature: 403 INVALID_URL", async () => {
    const url = new URL(await urlFor(), ORIGIN);
    const tampered: string[] = [];
    const otherUid = new URL(url);
    otherUid.searchParams.set("uid", "HD-DL-0002");
    tampered.push(otherUid.pathname + otherUid.search);
    tampered.push(`/device/v1/firmware/${OTHER_PACKAGE}${url.search}`);
    const laterExp = new URL(url);
    laterExp.searchParams.set("exp", String(Number(url.searchParams.get("exp")) + 3600));
    tampered.push(laterExp.pathname + laterExp.search);
    const sig = url.searchParams.get("sig") as string;
    const flipped = new URL(url);
    flipped.searchParams.set("sig", `${sig[0] === "a" ? "b" : "a"}${sig.slice(1)}`);
    tampered.push(flipped.pathname + flipped.search);
    tampered.push(url.pathname);
    tampered.push(`${url.pathname}?uid=${UID}&exp=abc&sig=${sig}`);
    tampered.push(`${url.pathname}?uid=${UID}&exp=1&sig=${"z".repeat(64)}`);
    for (const path of tampered) {
      const response = await get(path);
      expect(response.status, path).toBe(403);
      expect(await errorCode(response), path).toBe("INVALID_URL");
    }
  });

  it("a URL signed with another secret is refused", async () => {
    const foreign = await signDownloadUrl("someone else's secret", PACKAGE, UID, new Date());
    const response = await get(foreign.url);
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe("INVALID_URL");
  });

  it("an expired URL: 403 URL_EXPIRED, also for HEAD", async () => {
    const old = await urlFor(PACKAGE, UID, new Date(Date.now() - DOWNLOAD_URL_SECONDS * 1000 - 120_000));
    const response = await get(old);
    expect(response.status).toBe(403);
    expect(await errorCode(response)).toBe("URL_EXPIRED");
    expect((await get(old, {}, "HEAD")).status).toBe(403);
  });

  it("a validly signed URL for a file not in the bucket: 404, for GET, ranges and HEAD", async () => {
    const url = await urlFor("fw_never_uploaded");
    const response = await get(url);
    expect(response.status).toBe(404);
    expect(await errorCode(response)).toBe("NOT_FOUND");
    expect((await get(url, { Range: "bytes=0-" })).status).toBe(404);
    expect((await get(url, {}, "HEAD")).status).toBe(404);
  });

  it("hostile package ids and queries never answer 5xx", async () => {
    const paths = [
      "/device/v1/firmware/",
      "/device/v1/firmware/%00",
      `/device/v1/firmware/${"x".repeat(5000)}?uid=${"y".repeat(5000)}&exp=9e99&sig=`,
      `/device/v1/firmware/..%2F..%2Fsecrets?uid=a&exp=99999999999&sig=${"0".repeat(64)}`,
      "/device/v1/firmware/fw?uid=a&uid=b&exp=1&exp=2",
    ];
    for (const path of paths) {
      const response = await get(path, { Range: "bytes=99999999999999999999-" });
      expect(response.status, path).toBeLessThan(500);
      await response.arrayBuffer();
    }
  });

  it("without the bucket bound a signed URL answers 404, not an error", async () => {
    const { FIRMWARE: _unbound, ...rest } = bindings();
    const response = await app.request(new Request(new URL(await urlFor(), ORIGIN)), undefined, rest);
    expect(response.status).toBe(404);
  });
});

it("none of these downloads ran a D1 statement", () => {
  expect(counted.statements).toEqual([]);
  expect(counted.calls).toBe(0);
});

describe("byteRangeOf", () => {
  it("reads the three forms and refuses nothing it should serve", () => {
    expect(byteRangeOf("bytes=0-", 10)).toEqual({ offset: 0, length: 10 });
    expect(byteRangeOf("bytes=9-9", 10)).toEqual({ offset: 9, length: 1 });
    expect(byteRangeOf("bytes=-3", 10)).toEqual({ offset: 7, length: 3 });
    expect(byteRangeOf("bytes=10-", 10)).toBe("unsatisfiable");
    expect(byteRangeOf("bytes=-1", 0)).toBe("unsatisfiable");
    expect(byteRangeOf("bytes=0-1,3-4", 10)).toBe("whole");
    expect(byteRangeOf(null, 10)).toBe("whole");
  });
});
