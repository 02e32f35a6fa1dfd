import type { ApiToken } from "@/server/data/api-tokens";
import type { RouteContext } from "../types";

/** The API token screens (issue 27) live here, under the organization's settings. */
export const BASE = "/settings/api-tokens";

/** A token as apiTokens.list answers it: with whether it can still call. */
export type ListedToken = ApiToken & { state: "active" | "expired" | "revoked" };

/** The form's fields, all values of repeated ones (the ticked accounts) joined by newlines. */
export async function postedFields(c: RouteContext): Promise<Record<string, string>> {
  const body = await c.req.parseBody({ all: true });
  const values: Record<string, string> = {};
  for (const [name, value] of Object.entries(body)) {
    const texts = (Array.isArray(value) ? value : [value]).filter((v): v is string => typeof v === "string");
    values[name] = texts.join("\n");
  }
  return values;
}
