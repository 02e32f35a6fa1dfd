/**
 * Reads a multipart/form-data upload as it arrives (issue 26, the upload form without
 * JavaScript): the text fields before the file are collected; at the file, `onFile` is given
 * them and returns where its bytes go, so a file of tens of MB is never held whole in memory.
 * The form puts every text field before the file input, which browsers send in that order.
 */
export type FormFields = Map<string, string[]>;
export type FileSink = { write(bytes: Uint8Array): Promise<void> };

export class FormTooLarge extends Error {}
export class FormUnreadable extends Error {}

const TEXT_FIELD_MAX = 64 * 1024;
const HEADERS_MAX = 8 * 1024;
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** The boundary of a multipart/form-data Content-Type, or null for any other type. */
export function multipartBoundary(contentType: string | undefined): string | null {
  const [media = "", ...params] = (contentType ?? "").split(";");
  if (media.trim().toLowerCase() !== "multipart/form-data") return null;
  for (const param of params) {
    const match = /^\s*boundary=(?:"([^"]{1,70})"|([^\s;]{1,70}))\s*$/i.exec(param);
    if (match) return match[1] ?? match[2] ?? null;
  }
  return null;
}

function indexOf(haystack: Uint8Array, needle: Uint8Array, from = 0): number {
  const first = needle[0] as number;
  for (
    let i = haystack.indexOf(first, from);
    i !== -1 && i <= haystack.length - needle.length;
    i = haystack.indexOf(first, i + 1)
  ) {
    let j = 1;
    while (j < needle.length && haystack[i + j] === needle[j]) j += 1;
    if (j === needle.length) return i;
  }
  return -1;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  if (a.length === 0) return b;
  const out = new Uint8Array(a.length + b.length);
  out.set(a);
  out.set(b, a.length);
  return out;
}

function dispositionOf(headers: string): { name: string; filename: string | null } {
  const line = headers.split("\r\n").find((h) => /^content-disposition:/i.test(h)) ?? "";
  const name = /;\s*name="([^"]*)"/i.exec(line)?.[1];
  if (name === undefined) throw new FormUnreadable("a part without a name");
  const filename = /;\s*filename="([^"]*)"/i.exec(line)?.[1] ?? null;
  return { name, filename };
}

/**
 * Parses the body. `onFile(fields, filename)` is called at the first file part that has a
 * filename (a file input left empty sends an empty filename: skipped); later file parts are
 * skipped. Past `maxBytes` the read stops with FormTooLarge.
 */
export async function readUploadForm(
  body: ReadableStream<Uint8Array>,
  boundary: string,
  maxBytes: number,
  onFile: (fields: FormFields, filename: string) => Promise<FileSink>,
): Promise<{ fields: FormFields; fileBytes: number | null }> {
  const delimiter = encoder.encode(`\r\n--${boundary}`);
  const fields: FormFields = new Map();
  // The first boundary has no CRLF before it: one is added so every boundary reads alike.
  let buffer: Uint8Array = encoder.encode("\r\n");
  let state: "preamble" | "after-delimiter" | "headers" | "body" | "done" = "preamble";
  let part: { name: string; text: Uint8Array | null; sink: FileSink | null } | null = null;
  let fileBytes: number | null = null;
  let read = 0;
  const reader = body.getReader();

  const emit = async (bytes: Uint8Array) => {
    if (!part || bytes.length === 0) return;
    if (part.sink) {
      fileBytes = (fileBytes ?? 0) + bytes.length;
      await part.sink.write(bytes);
    } else if (part.text) {
      if (part.text.length + bytes.length > TEXT_FIELD_MAX) throw new FormTooLarge("a text field over its limit");
      part.text = concat(part.text, bytes);
    }
  };

  for (;;) {
    let progressed = true;
    while (progressed && state !== "done") {
      progressed = false;
      if (state === "preamble" || state === "body") {
        const at = indexOf(buffer, delimiter);
        if (at === -1) {
          // Keep what could be the start of a delimiter; the rest is the part's.
          const keep = Math.min(buffer.length, delimiter.length - 1);
          if (state === "body") await emit(buffer.subarray(0, buffer.length - keep));
          buffer = buffer.slice(buffer.length - keep);
          break;
        }
        if (state === "body") {
          await emit(buffer.subarray(0, at));
          if (part?.text) fields.set(part.name, [...(fields.get(part.name) ?? []), decoder.decode(part.text)]);
        }
        part = null;
        buffer = buffer.slice(at + delimiter.length);
        state = "after-delimiter";
        progressed = true;
      } else if (state === "after-delimiter") {
        if (buffer.length < 2) break;
        if (buffer[0] === 0x2d && buffer[1] === 0x2d) state = "done";
        else if (buffer[0] === 0x0d && buffer[1] === 0x0a) state = "headers";
        else throw new FormUnreadable("bad boundary line");
        buffer = buffer.slice(2);
        progressed = true;
      } else if (state === "headers") {
        const end = indexOf(buffer, encoder.encode("\r\n\r\n"));
        if (end === -1) {
          if (buffer.length > HEADERS_MAX) throw new FormUnreadable("part headers too long");
          break;
        }
        const { name, filename } = dispositionOf(decoder.decode(buffer.subarray(0, end)));
        buffer = buffer.slice(end + 4);
        const isFile = filename !== null;
        const sink = isFile && filename !== "" && fileBytes === null ? await onFile(fields, filename) : null;
        if (sink) fileBytes = 0;
        part = { name, text: isFile ? null : new Uint8Array(), sink };
        state = "body";
        progressed = true;
      }
    }
    if (state === "done") break;
    const { done, value } = await reader.read();
    if (done) throw new FormUnreadable("the body ended inside the form");
    read += value.length;
    if (read > maxBytes) {
      reader.releaseLock();
      throw new FormTooLarge("the form is over its limit");
    }
    buffer = concat(buffer, value);
  }
  reader.releaseLock();
  return { fields, fileBytes };
}

/** A sink that cuts the bytes into parts of `partBytes` and hands each full part on; `close` sends the last. */
export function partedSink(partBytes: number, send: (partNumber: number, bytes: Uint8Array) => Promise<void>) {
  let current = new Uint8Array(partBytes);
  let filled = 0;
  let partNumber = 1;
  return {
    async write(bytes: Uint8Array) {
      let offset = 0;
      while (offset < bytes.length) {
        const take = Math.min(partBytes - filled, bytes.length - offset);
        current.set(bytes.subarray(offset, offset + take), filled);
        filled += take;
        offset += take;
        if (filled === partBytes) {
          await send(partNumber, current);
          partNumber += 1;
          current = new Uint8Array(partBytes);
          filled = 0;
        }
      }
    },
    async close() {
      if (filled > 0) await send(partNumber, current.subarray(0, filled));
    },
  };
}
