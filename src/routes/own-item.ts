import { TRPCError } from "@trpc/server";
import { translatorFor } from "@/server/i18n/i18n";
import type { RouteContext } from "./types";

/**
 * The caller's own item (a passkey, a linked identity…) named by the URL parameter `param`,
 * found in `items`, which lists only the caller's; anyone else's is NOT_FOUND, like one that
 * never existed.
 */
export async function ownItem<T extends { id: string }>(
  c: RouteContext,
  param: string,
  items: Promise<T[]>,
  notFoundKey: string,
): Promise<T> {
  const id = c.req.param(param) ?? "";
  const found = (await items).find((item) => item.id === id);
  if (!found) {
    const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
    throw new TRPCError({ code: "NOT_FOUND", message: String(t(notFoundKey)) });
  }
  return found;
}
