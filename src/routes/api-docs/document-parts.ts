import { servedDocument } from "@/server/api/openapi/served-document";
import type { Operation } from "@/server/api/openapi/types";

/** One documented call as the reference page lists it. */
export type DocumentedCall = { method: "GET" | "POST"; path: string; operation: Operation };

/** The groups of procedures (the document's tags, the routers), in the document's order. */
export function procedureGroups(): string[] {
  return servedDocument()
    .tags.map((tag) => tag.name)
    .filter((name) => name !== "downloads");
}

/** Every call of the document, in its order. */
export function documentedCalls(): DocumentedCall[] {
  return Object.entries(servedDocument().paths).flatMap(([path, item]) => [
    ...(item.get ? [{ method: "GET" as const, path, operation: item.get }] : []),
    ...(item.post ? [{ method: "POST" as const, path, operation: item.post }] : []),
  ]);
}

export function callsOf(group: string): DocumentedCall[] {
  return documentedCalls().filter((call) => call.operation.tags.includes(group));
}

/** The input schema and example of a procedure, from its parameter (query) or body (mutation). */
export function inputOf(operation: Operation): { schema: Record<string, unknown> | null; example: unknown } {
  const media =
    operation.requestBody?.content["application/json"] ??
    operation.parameters?.find((parameter) => parameter.name === "input")?.content?.["application/json"];
  return { schema: media?.schema ?? null, example: media?.example };
}

/** The translation key of a procedure's summary: apiDocs.summaries.<router>.<name>. */
export const summaryKey = (operationId: string) => `apiDocs.summaries.${operationId}`;

/** The input field a list takes its next page by (a cursor, or a page number), if it pages. */
export function pagingField(operation: Operation): string | null {
  const properties = inputOf(operation).schema?.properties;
  if (typeof properties !== "object" || properties === null) return null;
  return ["after", "cursor", "page"].find((field) => field in properties) ?? null;
}
