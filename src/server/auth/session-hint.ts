import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import { isLanguage } from "@/schema/languages";
import type { AppEnv } from "../env";
import { isRole, permissionsOf } from "./roles";
import type { CurrentSession, SessionUser } from "./session-types";

/**
 * Who this browser was signed in as at its last page: the user, organisation, role and saved
 * language, never a credential. It lets a signed-in page start reading its data in the same D1
 * round trip as the session (src/server/middleware/session.ts); the session still decides. A
 * wrong or forged hint only costs that page a second try with the session's own answer.
 */
const COOKIE = "who"; // sent as __Host-who

/** The part of a signed-in user a page's data may depend on; the hint carries exactly that. */
type Identity = Pick<SessionUser, "id" | "orgId" | "role" | "language">;

function encode(user: Identity): string {
  return [user.id, user.orgId, user.role, user.language ?? ""].join(" ");
}

export function sameIdentity(a: Identity, b: Identity): boolean {
  return encode(a) === encode(b);
}

/** The signed-in user the hint names, with what only the session knows left empty. */
export function hintedUser(c: Context<AppEnv>): SessionUser | null {
  const value = getCookie(c, COOKIE, "host");
  if (!value || value.length > 200) return null;
  const [id, orgId, role, language, ...rest] = value.split(" ");
  if (!id || !orgId || !isRole(role) || rest.length > 0) return null;
  if (language !== "" && !isLanguage(language)) return null;
  return {
    id,
    orgId,
    role,
    language: language || null,
    permissions: permissionsOf(role),
    sessionId: "",
    email: "",
    name: "",
  };
}

export function clearHint(c: Context<AppEnv>): void {
  if (getCookie(c, COOKIE, "host") !== undefined) deleteCookie(c, COOKIE, { prefix: "host", secure: true, path: "/" });
}

/**
 * Keeps the hint in step with the session: written when it differs (it lives as long as the
 * session can), removed when nobody is signed in.
 */
export function syncHint(c: Context<AppEnv>, session: CurrentSession | null, user: SessionUser | null): void {
  if (!session || !user) clearHint(c);
  else if (getCookie(c, COOKIE, "host") !== encode(user))
    setCookie(c, COOKIE, encode(user), {
      prefix: "host",
      httpOnly: true,
      secure: true,
      sameSite: "Lax",
      path: "/",
      maxAge: Math.max(0, Math.floor((Date.parse(session.record.expiresAt) - Date.now()) / 1000)),
    });
}
