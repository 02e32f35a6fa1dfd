import { z } from "zod";
import { LABEL_SOURCE } from "./rules";

/**
 * What a radio's fields may hold (DESIGN.md §7, migration 0012): shared by the procedures, the
 * forms and the CSV import, so each refuses the same things with the same messages.
 */
export const deviceLimits = { uid: 64, brand: 40, model: 60, name: 120, notes: 2000, tags: 20, tag: 32 } as const;

export const UID_SOURCE = "^[A-Za-z0-9._-]{1,64}$";

export const deviceUid = z
  .string()
  .trim()
  .min(1, "validation.UidInvalid")
  .max(deviceLimits.uid, "validation.UidInvalid")
  .regex(new RegExp(UID_SOURCE), "validation.UidInvalid");

export const deviceBrand = z.string().trim().min(1, "validation.Required").max(deviceLimits.brand, "validation.TooLong");
export const deviceModel = z
  .string()
  .trim()
  .min(1, "validation.Required")
  .max(deviceLimits.model, "validation.TooLong")
  .regex(new RegExp(LABEL_SOURCE), "validation.DeviceModelInvalid");
export const deviceName = z.string().trim().max(deviceLimits.name, "validation.NameTooLong");
export const deviceNotes = z.string().trim().max(deviceLimits.notes, "validation.TooLong");

const tag = z
  .string()
  .trim()
  .min(1, "validation.DeviceTagInvalid")
  .max(deviceLimits.tag, "validation.DeviceTagInvalid")
  .regex(new RegExp(LABEL_SOURCE), "validation.DeviceTagInvalid");

/** Tags without repeats (compared without case), at most 20. */
export const deviceTags = z
  .array(tag)
  .max(deviceLimits.tags, "validation.TooManyTags")
  .transform((tags) => {
    const seen = new Set<string>();
    return tags.filter((t) => {
      const key = t.toLowerCase();
      if (seen.has(key)) return false;
      seen.add(key);
      return true;
    });
  });
export const deviceTag = tag;

/** Tags as typed in a form or a CSV cell: separated by commas or semicolons. */
export function splitTags(text: string): string[] {
  return text
    .split(/[,;]/)
    .map((t) => t.trim())
    .filter(Boolean);
}

/**
 * What one CSV import of radios may hold (issue 23): the file's bytes and its rows. A request
 * carrying it may be larger (JSON escapes on the API; the file and the pasted text on the form),
 * up to IMPORT_BODY_MAX_BYTES: within that, a file too large is answered with the import's own
 * message and kept on the screen; past it the body is not read.
 */
export const IMPORT_MAX_BYTES = 3 * 1024 * 1024;
export const IMPORT_MAX_ROWS = 10_000;
export const IMPORT_BODY_MAX_BYTES = 2 * IMPORT_MAX_BYTES + 64 * 1024;
