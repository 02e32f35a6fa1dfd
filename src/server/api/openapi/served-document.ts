import committed from "../../../../docs/api/openapi.json?raw";
import type { OpenApiDocument } from "./types";

/**
 * The committed document (docs/api/openapi.json, written by `npm run openapi`) as the Worker
 * ships it: the text for /api/openapi.json, and the parsed document the reference page renders.
 */
export const openApiJson: string = committed;

let parsed: OpenApiDocument | null = null;

/** Parsed once per isolate, the first time a reference page needs it. */
export function servedDocument(): OpenApiDocument {
  parsed ??= JSON.parse(committed) as OpenApiDocument;
  return parsed;
}
