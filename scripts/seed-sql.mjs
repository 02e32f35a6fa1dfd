import { pbkdf2Sync, randomBytes } from "node:crypto";
import { accounts, DEMO_PASSWORD, organizations, users } from "./demo-data.mjs";

/** The same stored form as src/server/auth/passwords.ts (PBKDF2-SHA256, 100,000 iterations). */
function hashPassword(password) {
  const salt = randomBytes(16);
  const hash = pbkdf2Sync(password, salt, 100_000, 32, "sha256");
  return `pbkdf2-sha256$100000$${salt.toString("base64url")}$${hash.toString("base64url")}`;
}

/** SQL literal for a string, number or null. */
export function sqlValue(value) {
  if (value === null || value === undefined) return "NULL";
  if (typeof value === "number") return String(value);
  return `'${String(value).replaceAll("'", "''")}'`;
}

function insert(table, row) {
  const columns = Object.keys(row);
  return `INSERT INTO ${table} (${columns.join(", ")}) VALUES (${columns.map((c) => sqlValue(row[c])).join(", ")}) ON CONFLICT DO NOTHING;`;
}

/** The demo data as idempotent SQL statements. */
export function seedStatements() {
  return [
    ...organizations.map((o) => insert("organizations", { id: o.id, name: o.name, kind: o.kind, parent_id: o.parentId })),
    ...accounts.map((a) =>
      insert("accounts", {
        id: a.id,
        org_id: a.orgId,
        name: a.name,
        subscription_level: a.subscriptionLevel,
        timezone: a.timezone,
      }),
    ),
    ...users.map((u) =>
      insert("users", {
        id: u.id,
        org_id: u.orgId,
        email: u.email,
        name: u.name,
        role: u.role,
        status: "active",
        two_factor: u.twoFactor ?? "none",
        is_case_user: u.isCaseUser ? 1 : 0,
        password_hash: hashPassword(DEMO_PASSWORD),
      }),
    ),
  ];
}
