/**
 * The one byte range of a `Range` header a firmware download honours (RFC 9110 §14): `bytes=a-b`,
 * `bytes=a-` and `bytes=-n`. Several ranges, another unit or bad syntax are not worth a multipart
 * answer to a radio: the whole file is served (`"whole"`), as the RFC allows for a Range ignored.
 */
export type ByteRange = { offset: number; length: number };

export type RangeAnswer = "whole" | "unsatisfiable" | ByteRange;

const SINGLE = /^bytes=[ \t]*(\d*)-(\d*)[ \t]*$/i;

export function byteRangeOf(header: string | null | undefined, size: number): RangeAnswer {
  if (!header) return "whole";
  const match = SINGLE.exec(header);
  if (!match) return "whole";
  const [, first = "", last = ""] = match;
  if (first === "" && last === "") return "whole";
  if (first === "") {
    // The last n bytes; more than the file is the whole file (still a 206).
    const suffix = Number(last);
    if (!Number.isSafeInteger(suffix)) return "whole";
    if (suffix === 0 || size === 0) return "unsatisfiable";
    const length = Math.min(suffix, size);
    return { offset: size - length, length };
  }
  const offset = Number(first);
  const end = last === "" ? size - 1 : Number(last);
  if (!Number.isSafeInteger(offset) || !Number.isSafeInteger(end)) return "whole";
  if (last !== "" && end < offset) return "whole";
  if (offset >= size) return "unsatisfiable";
  return { offset, length: Math.min(end, size - 1) - offset + 1 };
}

/**
 * `If-Range` holds when it names the file as it is now: the same strong ETag, or exactly its
 * Last-Modified date. Otherwise the file changed since the radio began: it starts over (200).
 */
export function ifRangeHolds(header: string | null | undefined, etag: string, lastModified: string): boolean {
  if (!header) return true;
  const value = header.trim();
  if (value.startsWith('"') || value.startsWith("W/")) return value === etag;
  return value === lastModified;
}
