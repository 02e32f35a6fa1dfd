import type { Language } from "@/schema/languages";
import type { PermissionMap } from "@/schema/permissions";
import type { D1Database } from "../cloudflare";
import type { SessionRecord } from "../data/sessions";
import type { User } from "../data/users";

// The session's types on their own, so the request context (env.ts) can name them without
// importing the code that reads sessions (which itself needs that context).

/** Who is signed in, as pages and procedures see it. */
export type SessionUser = {
  id: string;
  sessionId: string;
  email: string;
  name: string;
  orgId: string;
  role: User["role"];
  language: Language | null;
  permissions: PermissionMap;
  /**
   * Set when an API token calls (issue 27): then `id` is the token's id, `email` the label the
   * activity log shows for it, and `accountIds`, when not null, the only accounts it may reach.
   */
  token?: { id: string; name: string; accountIds: readonly string[] | null };
};

export type CurrentSession = { record: SessionRecord; user: User };

/**
 * A signed-in page started on the session hint: the session's answer, the database to go back
 * to, and whether the page tried to write meanwhile (then it loads again once confirmed).
 */
export type Speculation = { reading: Promise<CurrentSession | null>; database: D1Database; refusedWrite: boolean };
