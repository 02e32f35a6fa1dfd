import { TOKEN_ACTOR_PREFIX } from "@/schema/actor-label";
import type { ApiToken } from "../data/api-tokens";
import { base64url, sha256Hex } from "./crypto";
import { permissionsOf } from "./roles";
import type { SessionUser } from "./session-types";

/** Every secret starts so: a leaked one is recognisable by secret scanners and people. */
export const TOKEN_PREFIX = "ctk_";
/** 32 random bytes, base64url: 43 characters after the prefix. */
const SECRET = /^ctk_[A-Za-z0-9_-]{43}$/;

export type NewSecret = { token: string; tokenHash: string; hint: string };

export async function newTokenSecret(): Promise<NewSecret> {
  const token = TOKEN_PREFIX + base64url(crypto.getRandomValues(new Uint8Array(32)));
  return { token, tokenHash: await sha256Hex(token), hint: token.slice(TOKEN_PREFIX.length, TOKEN_PREFIX.length + 8) };
}

/** Whether a string has the shape of one of our secrets (else no lookup is spent on it). */
export function isTokenShaped(text: string): boolean {
  return SECRET.test(text);
}

/**
 * The credential of an `Authorization` header: the text after "Bearer " (the scheme in any
 * case, RFC 7235), "" for another scheme or an empty one, null for no header at all.
 */
export function bearerOf(header: string | undefined): string | null {
  if (header === undefined) return null;
  const match = /^\s*bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? "";
}

/** Who calls with a token: its organization, its role's permissions, its account limit. */
export function tokenPrincipal(token: ApiToken): SessionUser {
  return {
    id: token.id,
    sessionId: "",
    email: `${TOKEN_ACTOR_PREFIX}${token.name}`,
    name: token.name,
    orgId: token.orgId,
    role: token.role,
    language: null,
    permissions: permissionsOf(token.role),
    token: { id: token.id, name: token.name, accountIds: token.accountIds },
  };
}
