import { TRPCError } from "@trpc/server";
import type { Context } from "hono";
import type { AppEnv } from "./env";

type Memo<T> = WeakMap<object, Map<string, Promise<T>>>;

/**
 * `ask()` at most once per request, person and key: a page's load and its shell share one
 * answer. Keyed by the request's user object, which lives as long as the request and is
 * replaced when a page begun on the session hint turns out to be someone else's
 * (middleware/session.ts): nothing asked for the hint outlives that.
 */
export function askedOnce<T>(memo: Memo<T>, c: Context<AppEnv>, key: string, ask: () => Promise<T>): Promise<T> {
  const scope = c.get("user") ?? c.req.raw;
  let answers = memo.get(scope);
  if (!answers) {
    answers = new Map();
    memo.set(scope, answers);
  }
  let answer = answers.get(key);
  if (!answer) {
    answer = ask();
    answers.set(key, answer);
  }
  return answer;
}

/** An account that is unknown, another tenant's or not this person's to see: the page itself says so. */
export function isRefusedAccount(error: unknown): boolean {
  return error instanceof TRPCError && ["NOT_FOUND", "FORBIDDEN", "BAD_REQUEST"].includes(error.code);
}
