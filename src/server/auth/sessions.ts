import type { Context } from "hono";
import { deleteCookie, getCookie, setCookie } from "hono/cookie";
import type { D1PreparedStatement } from "../cloudflare";
import { batch } from "../data/db";
import {
  deleteSessionStatement,
  findSessionAndUser,
  insertSessionStatement,
  type SessionRecord,
  type SessionStage,
  touchSession,
} from "../data/sessions";
import type { User } from "../data/users";
import type { AppEnv } from "../env";
import { clientAddress } from "./client-address";
import { randomToken, sha256Hex } from "./crypto";
import { permissionsOf } from "./roles";
import { clearHint, syncHint } from "./session-hint";
import type { CurrentSession, SessionUser } from "./session-types";

/** DESIGN.md §5 and issue 3: idle 15 minutes, absolute 12 hours, both enforced here. */
export const IDLE_TIMEOUT_MS = 15 * 60_000;
export const ABSOLUTE_LIFETIME_MS = 12 * 60 * 60_000;
/** A sign-in attempt waiting for its email code lives as long as the code. */
export const PENDING_LIFETIME_MS = 10 * 60_000;
/** last_seen_at is written at most this often, not on every request. */
const TOUCH_INTERVAL_MS = 60_000;

const COOKIE = "session"; // sent as __Host-session

export type { CurrentSession, SessionUser } from "./session-types";

function writeCookie(c: Context<AppEnv>, token: string, maxAgeSeconds: number) {
  setCookie(c, COOKIE, token, {
    prefix: "host",
    httpOnly: true,
    secure: true,
    sameSite: "Lax",
    path: "/",
    maxAge: maxAgeSeconds,
  });
}

export function clearSessionCookie(c: Context<AppEnv>) {
  deleteCookie(c, COOKIE, { prefix: "host", secure: true, path: "/" });
  clearHint(c);
}

/**
 * Starts a session with a new token (a new one at every sign-in), optionally in the same
 * batch as other writes, e.g. ending the sign-in attempt it replaces. Given the whole user, a
 * signed-in session also leaves its hint, so the first page after it reads beside the session.
 */
export async function startSession(
  c: Context<AppEnv>,
  who: string | User,
  stage: SessionStage,
  alongside: D1PreparedStatement[] = [],
  at = Date.now(),
): Promise<SessionRecord> {
  const userId = typeof who === "string" ? who : who.id;
  const token = randomToken(16);
  const lifetime = stage === "signed-in" ? ABSOLUTE_LIFETIME_MS : PENDING_LIFETIME_MS;
  const record: SessionRecord = {
    id: await sha256Hex(token),
    userId,
    stage,
    createdAt: new Date(at).toISOString(),
    lastSeenAt: new Date(at).toISOString(),
    expiresAt: new Date(at + lifetime).toISOString(),
  };
  await batch(c.env.DB, [
    ...alongside,
    insertSessionStatement(c.env.DB, {
      ...record,
      ip: clientAddress(c),
      userAgent: c.req.header("User-Agent")?.slice(0, 300) ?? null,
    }),
  ]);
  writeCookie(c, token, Math.floor(lifetime / 1000));
  if (stage === "signed-in" && typeof who !== "string") {
    syncHint(c, { record, user: who }, toSessionUser({ record, user: who }));
  }
  return record;
}

function isExpired(record: SessionRecord, at: number): boolean {
  return (
    Date.parse(record.expiresAt) <= at || (record.stage === "signed-in" && Date.parse(record.lastSeenAt) + IDLE_TIMEOUT_MS <= at)
  );
}

/**
 * The session the request's cookie names, if it is alive and its user active. An expired or
 * orphaned one is deleted on the way, and an idle one can never come back.
 */
export async function readSession(c: Context<AppEnv>, at = Date.now()): Promise<CurrentSession | null> {
  // The database as the read began: a page begun on the session hint swaps in one that refuses writes.
  const db = c.env.DB;
  const token = getCookie(c, COOKIE, "host");
  if (!token || token.length > 64) return null;
  const found = await findSessionAndUser(db, await sha256Hex(token));
  const record = found.session;
  if (!record) return null;
  const user = isExpired(record, at) ? null : found.user;
  if (user?.status !== "active") {
    await deleteSessionStatement(db, record.id).run();
    return null;
  }
  if (record.stage === "signed-in" && at - Date.parse(record.lastSeenAt) > TOUCH_INTERVAL_MS) {
    await touchSession(db, record.id, new Date(at).toISOString());
  }
  return { record, user };
}

export function toSessionUser({ record, user }: CurrentSession): SessionUser {
  return {
    id: user.id,
    sessionId: record.id,
    email: user.email,
    name: user.name,
    orgId: user.orgId,
    role: user.role,
    language: user.language,
    permissions: permissionsOf(user.role),
  };
}

/**
 * "Stay signed in" (the idle warning, WCAG 2.2.1): restarts the signed-in session's idle clock
 * now, even when the read above left it alone (it touches at most once a minute).
 */
export async function extendSession(c: Context<AppEnv>, session: CurrentSession | null, at = Date.now()): Promise<boolean> {
  if (session?.record.stage !== "signed-in") return false;
  await touchSession(c.env.DB, session.record.id, new Date(at).toISOString());
  return true;
}

/** Ends the request's session on the server and in the browser. */
export async function endSession(c: Context<AppEnv>, session: CurrentSession | null): Promise<void> {
  if (session) await deleteSessionStatement(c.env.DB, session.record.id).run();
  clearSessionCookie(c);
}
