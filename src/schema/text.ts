import { z } from "zod";

/**
 * Strings people type, checked the same way everywhere (issue 9): no control characters (a
 * NUL reached a table CHECK as a 500) and no unpaired surrogates (text that is not Unicode).
 * Server and browser share these, so a form says the same thing with or without JavaScript.
 */

/** Printable text: no C0 control characters or DEL (line breaks and tabs only where text may span lines), well-formed Unicode. */
export function isPlainText(value: string, { multiline = false } = {}): boolean {
  for (let i = 0; i < value.length; i += 1) {
    const code = value.charCodeAt(i);
    if (code < 0x20 || code === 0x7f) {
      if (!(multiline && (code === 0x09 || code === 0x0a || code === 0x0d))) return false;
    } else if (code >= 0xd800 && code <= 0xdbff) {
      const low = value.charCodeAt(i + 1);
      if (!(low >= 0xdc00 && low <= 0xdfff)) return false;
      i += 1;
    } else if (code >= 0xdc00 && code <= 0xdfff) {
      return false;
    }
  }
  return true;
}

const controlMessage = "validation.ControlCharacters";

/** A required one-line name: trimmed, 1..max characters, printable. */
export function nameText(max: number, tooLong = "validation.NameTooLong", required = "validation.Required") {
  return z
    .string()
    .trim()
    .min(1, required)
    .max(max, tooLong)
    .refine((value) => isPlainText(value), controlMessage);
}

/** Optional one-line text (an address, a reference): trimmed, at most max characters, printable. */
export function plainText(max: number, tooLong = "validation.TooLong") {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((value) => isPlainText(value), controlMessage);
}

/** Text that may span lines (a description): trimmed, at most max characters, printable. */
export function multilineText(max: number, tooLong = "validation.TooLong") {
  return z
    .string()
    .trim()
    .max(max, tooLong)
    .refine((value) => isPlainText(value, { multiline: true }), controlMessage);
}

/**
 * D1 refuses a LIKE or GLOB pattern over 50 bytes ("pattern too complex"); a search becomes
 * `%…%` with its wildcards escaped (each then 2 bytes), so its UTF-8 form must fit in 48.
 */
export const SEARCH_MAX_LENGTH = 40;
const LIKE_PATTERN_MAX_BYTES = 50;

export function likePatternBytes(search: string): number {
  let bytes = 2;
  for (const char of search) {
    const code = char.codePointAt(0) ?? 0;
    const size = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    bytes += char === "%" || char === "_" || char === "\\" ? size * 2 : size;
  }
  return bytes;
}

/** The search box of every list: short, printable, and never a pattern D1 refuses. Empty finds all. */
export const searchText = z
  .string()
  .max(SEARCH_MAX_LENGTH, "validation.SearchTooLong")
  .refine((value) => isPlainText(value), controlMessage)
  .refine((value) => likePatternBytes(value.trim()) <= LIKE_PATTERN_MAX_BYTES, "validation.SearchTooLong");
