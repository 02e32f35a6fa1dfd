import { env } from "cloudflare:test";
import type { Role } from "../../src/server/auth/roles";
import { hashPassword } from "../../src/server/auth/passwords";

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
    .bind(id, orgId, email, "Test User", options.role ?? "owner", options.twoFactor ?? "none", await hashPassword(options.password ?? PASSWORD))
    .run();
  return { id, email, orgId };
}
