import { createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import {
  accounts,
  allocations,
  DEMO_PASSWORD,
  identityProviders,
  organizations,
  radios,
  subscriptions,
  users,
} from "./demo-data.mjs";

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
        password_hash: u.password === false ? null : hashPassword(DEMO_PASSWORD),
      }),
    ),
    ...identityProviders.map((p) =>
      insert("identity_providers", {
        id: p.id,
        org_id: p.orgId,
        name: p.name,
        issuer: p.issuer,
        client_id: p.clientId,
        client_secret: p.clientSecret,
        email_domains: JSON.stringify(p.emailDomains),
      }),
    ),
    ...subscriptions.map((s) =>
      insert("subscriptions", {
        id: s.id,
        org_id: s.orgId,
        plan: s.plan,
        quantity: s.quantity,
        starts_at: s.startsAt,
        ends_at: s.endsAt,
        reference: s.reference,
      }),
    ),
    ...allocations.map(allocationStatement),
    ...radios.map(radioStatement),
  ];
}

/** A demo radio, written only while its account has a free seat (the seat guard would refuse it). */
function radioStatement(r) {
  const secretHash = createHash("sha256").update(r.secret).digest("hex");
  const [uid, org, account, brand, model, name, hash] = [r.uid, r.orgId, r.accountId, r.brand, r.model, r.name, secretHash].map(
    sqlValue,
  );
  return `INSERT INTO devices (uid, org_id, account_id, brand, model, name, secret_hash)
SELECT ${uid}, ${org}, ${account}, ${brand}, ${model}, ${name}, ${hash}
WHERE (SELECT devices_in_use FROM accounts WHERE id = ${account})
      < (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ${account})
ON CONFLICT DO NOTHING;`;
}

/**
 * A demo allocation, written only while its subscription, its account and the free seats are
 * there: seeding again after someone used the demo (took seats, removed a subscription) must
 * not fail on the database's seat guard (migrations/0007_subscriptions.sql).
 */
function allocationStatement(a) {
  const [id, subscription, account, quantity] = [a.id, a.subscriptionId, a.accountId, a.quantity].map(sqlValue);
  return `INSERT INTO allocations (id, subscription_id, account_id, quantity)
SELECT ${id}, ${subscription}, ${account}, ${quantity}
WHERE EXISTS (SELECT 1 FROM accounts WHERE id = ${account})
  AND (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE subscription_id = ${subscription}) + ${quantity}
      <= (SELECT quantity FROM subscriptions WHERE id = ${subscription})
ON CONFLICT DO NOTHING;`;
}
