import { createHash, pbkdf2Sync, randomBytes } from "node:crypto";
import {
  accounts,
  allocations,
  DEMO_PASSWORD,
  fleets,
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
    // The simulator's five demo radios first: Harbor Demo Fleet keeps just them (the deployments
    // browser test counts on its phases), since a fleet is seeded only into an account with none.
    ...radios.map(radioStatement),
    ...fleets.flatMap(fleetStatements),
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

/**
 * A demo fleet: its seats (a subscription of the organization and an allocation), then its
 * radios in one INSERT … SELECT over a generated series, only into an account with no radios
 * yet (seeding again changes nothing). Radio secrets are random and unknown: `npm run
 * demo:radio` makes radios whose secrets it prints.
 */
function fleetStatements(fleet) {
  const account = sqlValue(fleet.accountId);
  const subscription = `sub_radios_${fleet.accountId}`;
  const models = ["XR-7", "XR-9", "TX-200"];
  return [
    insert("subscriptions", {
      id: subscription,
      org_id: fleet.orgId,
      plan: "Demo radios",
      quantity: fleet.count + 50,
      starts_at: "2025-01-01",
      ends_at: null,
      reference: `DEMO-${fleet.prefix}`,
    }),
    allocationStatement({
      id: `alc_radios_${fleet.accountId}`,
      subscriptionId: subscription,
      accountId: fleet.accountId,
      quantity: fleet.count + 50,
    }),
    `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${fleet.count})
INSERT INTO devices (uid, org_id, account_id, brand, model, name, tags, secret_hash, firmware, battery, signal, last_seen_at, created_at)
SELECT printf('%s-%04d', ${sqlValue(fleet.prefix)}, i), ${sqlValue(fleet.orgId)}, ${account}, 'Northwind',
  CASE i % 3 WHEN 0 THEN '${models[0]}' WHEN 1 THEN '${models[1]}' ELSE '${models[2]}' END,
  printf('%s %d', ${sqlValue(fleet.name)}, i),
  CASE WHEN i % 4 = 0 THEN json_array(${sqlValue(fleet.tags[0])}, 'night') ELSE json_array(${sqlValue(fleet.tags[0])}) END,
  lower(hex(randomblob(32))),
  CASE WHEN i % 10 = 0 THEN '' WHEN i % 7 = 0 THEN '1.8.2' ELSE '2.4.1' END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE 15 + (i * 37) % 85 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE -45 - (i * 13) % 60 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', (i * 97) % 20000)) END,
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM n
WHERE (SELECT devices_in_use FROM accounts WHERE id = ${account}) = 0
  AND (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ${account}) >= ${fleet.count}
ON CONFLICT DO NOTHING;`,
    `INSERT OR IGNORE INTO device_tags (uid, tag)
SELECT d.uid, lower(t.value) FROM devices d, json_each(d.tags) t WHERE d.account_id = ${account};`,
  ];
}
