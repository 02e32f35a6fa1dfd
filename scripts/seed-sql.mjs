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
import { deskStatements } from "./demo-desk.mjs";
import {
  checkInStatement,
  deploymentStatements,
  placementStatement,
  plannedFirmware,
  plannedLastSeen,
} from "./demo-fleet-story.mjs";
import { workspaces } from "./demo-workspaces.mjs";

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
    // The local demo's domains are marked proven (there is no DNS to prove them with locally).
    ...identityProviders.flatMap((p) => p.emailDomains.map((domain) => provenDomainStatement(p.id, domain))),
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
    ...workspaces.flatMap(workspaceStatements),
    // The simulator's five demo radios first: Harbor Demo Fleet keeps just them (the deployments
    // browser test counts on its phases), since a fleet is seeded only into an account with none.
    ...radios.map(radioStatement),
    ...fleets.flatMap(fleetStatements),
    // The fleets' recent life (issue 14): places, check-ins and the bus account's deployment.
    ...fleets.flatMap((fleet) => {
      const workspace = workspaces.find((w) => w.accountId === fleet.accountId);
      return workspace ? [placementStatement(fleet, workspace)] : [];
    }),
    ...fleets
      .filter((fleet) => fleet.accountId === "acc_metro_bus")
      .flatMap((fleet) =>
        deploymentStatements(
          fleet,
          workspaces.find((w) => w.accountId === fleet.accountId),
        ),
      ),
    ...fleets.map(checkInStatement),
    // The customer-care desk (issue 15), after the radios its sessions are about.
    ...deskStatements(),
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
 * One demo account's workspace: its network settings (only while the account has none, so
 * seeding again keeps what someone changed), sites, locations, profiles, rules and a few
 * recent changes in its log. Rows that exist are left alone.
 */
function workspaceStatements(w) {
  const account = accounts.find((a) => a.id === w.accountId);
  if (!account) throw new Error(`demo workspace for unknown account ${w.accountId}`);
  const email = (userId) => users.find((u) => u.id === userId)?.email ?? "";
  return [
    `UPDATE accounts SET network_config = ${sqlValue(JSON.stringify(w.network))} WHERE id = ${sqlValue(w.accountId)} AND network_config = '{}';`,
    ...w.sites.flatMap((site) => [
      insert("sites", {
        id: site.id,
        account_id: w.accountId,
        name: site.name,
        address: site.address,
        timezone: site.timezone ?? null,
        network_config: JSON.stringify(site.network ?? {}),
      }),
      ...site.locations.map((location) =>
        insert("locations", {
          id: location.id,
          account_id: w.accountId,
          site_id: site.id,
          name: location.name,
          description: location.description,
          network_config: JSON.stringify(location.network ?? {}),
        }),
      ),
    ]),
    ...w.profiles.map((profile) =>
      insert("profiles", {
        id: profile.id,
        org_id: account.orgId,
        account_id: w.accountId,
        type: profile.type,
        name: profile.name,
        settings: JSON.stringify(profile.settings),
      }),
    ),
    ...w.rules.flatMap((rule, index) => [
      insert("rules", {
        id: rule.id,
        account_id: w.accountId,
        name: rule.name,
        priority: index + 1,
        enabled: 1,
        conditions: JSON.stringify(rule.conditions),
      }),
      ...rule.profileIds.map((profileId, position) =>
        insert("rule_profiles", { rule_id: rule.id, profile_id: profileId, position: position + 1 }),
      ),
    ]),
    insert("rule_sets", { account_id: w.accountId, version: 1 }),
    ...w.changes.map((change) =>
      insert("activity_logs", {
        id: change.id,
        org_id: account.orgId,
        account_id: w.accountId,
        actor_id: change.actor,
        actor_email: email(change.actor),
        action: change.action,
        entity_type: change.entityType,
        entity_id: change.entityId,
        entity_label: change.entityLabel,
        diff: JSON.stringify(change.diff),
        deployable: 1,
        created_at: change.at,
      }),
    ),
  ];
}

/** A proven domain claim of a demo provider; a claim left unproven by the migration is marked proven. */
function provenDomainStatement(providerId, domain) {
  const [provider, name] = [providerId, domain].map(sqlValue);
  return `INSERT INTO identity_provider_domains (provider_id, domain, token, proven_at, proven_by)
VALUES (${provider}, ${name}, lower(hex(randomblob(16))), '2025-01-01T00:00:00.000Z', 'seed')
ON CONFLICT (provider_id, domain) DO UPDATE SET proven_at = excluded.proven_at, proven_by = 'seed' WHERE proven_at IS NULL;`;
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
  ${plannedFirmware("i")},
  CASE WHEN i % 10 = 0 THEN NULL ELSE 15 + (i * 37) % 85 END,
  CASE WHEN i % 10 = 0 THEN NULL ELSE -45 - (i * 13) % 60 END,
  ${plannedLastSeen("i")},
  strftime('%Y-%m-%dT%H:%M:%fZ', 'now')
FROM n
WHERE (SELECT devices_in_use FROM accounts WHERE id = ${account}) = 0
  AND (SELECT COALESCE(SUM(quantity), 0) FROM allocations WHERE account_id = ${account}) >= ${fleet.count}
ON CONFLICT DO NOTHING;`,
    `INSERT OR IGNORE INTO device_tags (uid, tag)
SELECT d.uid, lower(t.value) FROM devices d, json_each(d.tags) t WHERE d.account_id = ${account};`,
    commandHistoryStatement(fleet),
  ];
}

/**
 * Two months of finished commands to a demo fleet (two per radio), so the commands report has
 * figures: pings, locates, reboots and syncs, most succeeded, some failed, expired or cancelled,
 * delivered within seconds to minutes. Nothing waits, so no radio's queue changes. Fixed ids:
 * seeding again adds nothing.
 */
function commandHistoryStatement(fleet) {
  const [prefix, org, account] = [fleet.prefix, fleet.orgId, fleet.accountId].map(sqlValue);
  return `WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${fleet.count * 2}),
t AS (SELECT i, printf('%s-%04d', ${prefix}, 1 + (i * 13) % ${fleet.count}) AS uid,
        strftime('%Y-%m-%dT%H:%M:%fZ', 'now', printf('-%d minutes', 30 + (i * 7919) % 86400)) AS at,
        CASE WHEN i % 11 = 0 THEN 'failed' WHEN i % 13 = 0 THEN 'expired' WHEN i % 17 = 0 THEN 'cancelled' ELSE 'succeeded' END AS state
      FROM n)
INSERT OR IGNORE INTO commands (id, uid, org_id, account_id, type, state, code, created_by, created_by_email, created_at, expires_at, sent_at, delivered_at, ended_at)
SELECT printf('cmd_demo_%s_%05d', ${prefix}, i), uid, ${org}, ${account},
  CASE i % 4 WHEN 0 THEN 'ping' WHEN 1 THEN 'locate' WHEN 2 THEN 'reboot' ELSE 'sync' END,
  state, CASE state WHEN 'failed' THEN 'busy' ELSE '' END, 'usr_demo_seed', 'admin@example.com', at,
  strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 day'),
  CASE WHEN state IN ('succeeded', 'failed') THEN strftime('%Y-%m-%dT%H:%M:%fZ', at, printf('+%d seconds', 2 + i % 40)) END,
  CASE WHEN state IN ('succeeded', 'failed') THEN strftime('%Y-%m-%dT%H:%M:%fZ', at, printf('+%d seconds', 5 + (i * 7) % 600)) END,
  CASE WHEN state = 'expired' THEN strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 day')
       WHEN state = 'cancelled' THEN strftime('%Y-%m-%dT%H:%M:%fZ', at, '+1 minute')
       ELSE strftime('%Y-%m-%dT%H:%M:%fZ', at, printf('+%d seconds', 10 + (i * 7) % 600)) END
FROM t WHERE EXISTS (SELECT 1 FROM devices d WHERE d.uid = t.uid AND d.account_id = ${account});`;
}
