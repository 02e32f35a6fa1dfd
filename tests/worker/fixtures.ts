import { env } from "cloudflare:test";
import { hashPassword } from "@/server/auth/passwords";
import type { Role } from "@/server/auth/roles";

export const PASSWORD = "correct-horse-battery";

let counter = 0;

/** An organization of its own, so tests in one file do not see each other's rows. */
export async function createOrganization(name = "Test Org", parentId: string | null = null): Promise<string> {
  counter += 1;
  const id = `org_test_${counter}_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare("INSERT INTO organizations (id, name, kind, parent_id) VALUES (?, ?, ?, ?)")
    .bind(id, name, parentId ? "customer" : "dealer", parentId)
    .run();
  return id;
}

type UserOptions = { email?: string; role?: Role; twoFactor?: "none" | "email"; orgId?: string; password?: string };

export async function createUser(options: UserOptions = {}): Promise<{ id: string; email: string; orgId: string }> {
  counter += 1;
  const email = options.email ?? `user${counter}-${crypto.randomUUID().slice(0, 6)}@example.com`;
  const orgId = options.orgId ?? (await createOrganization());
  const id = `usr_test_${counter}_${crypto.randomUUID().slice(0, 8)}`;
  await env.DB.prepare(
    "INSERT INTO users (id, org_id, email, name, role, status, two_factor, password_hash) VALUES (?, ?, ?, ?, ?, 'active', ?, ?)",
  )
    .bind(
      id,
      orgId,
      email,
      "Test User",
      options.role ?? "owner",
      options.twoFactor ?? "none",
      await hashPassword(options.password ?? PASSWORD),
    )
    .run();
  return { id, email, orgId };
}

/** Signs in through the real call and returns the session cookie header value. */
export async function sessionCookie(email: string, password = PASSWORD): Promise<string> {
  const { request, ORIGIN, cookieFrom } = await import("./helpers");
  const response = await request("/api/sign-in", {
    method: "POST",
    body: JSON.stringify({ username: email, password }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json" },
  });
  const token = cookieFrom(response, "__Host-session");
  if (!token) throw new Error(`could not sign in ${email}: ${await response.text()}`);
  return `__Host-session=${token}`;
}

/**
 * Signs in through the real call and returns the cookies a browser then holds: the session and
 * the session hint (src/server/auth/session-hint.ts), with which signed-in pages read the
 * session beside their data.
 */
export async function browserCookie(email: string, password = PASSWORD): Promise<string> {
  const { request, ORIGIN } = await import("./helpers");
  const response = await request("/api/sign-in", {
    method: "POST",
    body: JSON.stringify({ username: email, password }),
    headers: { Origin: ORIGIN, "Content-Type": "application/json" },
  });
  const pairs = response.headers.getSetCookie().map((line) => line.split(";")[0]);
  if (!pairs.some((pair) => pair?.startsWith("__Host-who="))) throw new Error(`no session hint for ${email}`);
  return pairs.join("; ");
}

export async function createAccount(
  orgId: string,
  name = "Test Account",
  level: "essential" | "advanced" = "essential",
): Promise<string> {
  const id = `acc_test_${crypto.randomUUID().slice(0, 12)}`;
  await env.DB.prepare("INSERT INTO accounts (id, org_id, name, subscription_level) VALUES (?, ?, ?, ?)")
    .bind(id, orgId, name, level)
    .run();
  return id;
}
