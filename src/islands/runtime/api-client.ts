import { QueryClient } from "@tanstack/react-query";
import { createTRPCClient, httpBatchLink, TRPCClientError } from "@trpc/client";
import type { AppRouter } from "@/server/api/router";
import { type Messages, translate } from "./messages";

/**
 * What islands use to call the typed procedures: tRPC's own client over /api (batched), and
 * one react-query cache shared by every island on the page (separate React roots, one module).
 * Cached data counts as fresh for 2 seconds (spec §7).
 */
export const api = createTRPCClient<AppRouter>({ links: [httpBatchLink({ url: "/api" })] });

export const queryClient = new QueryClient({
  defaultOptions: { queries: { staleTime: 2000, refetchOnWindowFocus: false } },
});

/** The current user, cached under one fixed key (spec §7: not retried; any failure means no user). */
export const currentUserKey = ["me"] as const;

export type CurrentUser = { ok: false } | { ok: true; user: string; orgId: string; permissions: Record<string, boolean> };

export async function fetchCurrentUser(): Promise<CurrentUser> {
  try {
    const response = await fetch("/api/me", { headers: { Accept: "application/json" } });
    const body = (await response.json()) as CurrentUser;
    return response.ok && body && typeof body === "object" && body.ok === true ? body : { ok: false };
  } catch {
    return { ok: false };
  }
}

/**
 * A procedure error as the user should read it: the server's translated message, or the
 * client's two fixed ones (spec §8), translated here.
 */
export function errorText(error: unknown, messages: Messages): string {
  if (error instanceof TRPCClientError) {
    if (error.message === "Unable to transform response from server") return translate(messages, "api.unreadable");
    if (error.data) return error.message;
  }
  return translate(messages, "api.unknown");
}

/** The translation keys errorText needs; list them in an island's registry entry. */
export const apiMessageKeys = ["api.unreadable", "api.unknown"] as const;
