import type { FcPriority } from "@/schema/fc-cases";
import { all, type Db, first, statement } from "./db";

/**
 * The desk's settings per account and each radio's fc settings (issue 15). A missing row
 * means the defaults; writes are upserts guarded by `version` (0 = never saved).
 */
export type FcSettings = {
  categories: string[];
  defaultPriority: FcPriority;
  autoCloseDays: number;
  retentionDays: number;
  version: number;
};

export const defaultFcSettings: FcSettings = {
  categories: ["General", "Audio", "Battery", "Coverage", "Configuration"],
  defaultPriority: "medium",
  autoCloseDays: 14,
  retentionDays: 365,
  version: 0,
};

type SettingsRow = {
  categories: string;
  default_priority: FcPriority;
  auto_close_days: number;
  retention_days: number;
  version: number;
};

export async function findFcSettings(db: Db, accountId: string): Promise<FcSettings> {
  const row = await first<SettingsRow>(
    db,
    "SELECT categories, default_priority, auto_close_days, retention_days, version FROM fc_settings WHERE account_id = ?",
    accountId,
  );
  if (!row) return defaultFcSettings;
  return {
    categories: JSON.parse(row.categories) as string[],
    defaultPriority: row.default_priority,
    autoCloseDays: row.auto_close_days,
    retentionDays: row.retention_days,
    version: row.version,
  };
}

/**
 * Saves the settings when `version` is the one read (0: none saved yet); no change means stale.
 * The SELECT offers a row when there is one to update or none was expected (SQLite needs a
 * WHERE before ON CONFLICT in an INSERT … SELECT).
 */
export function saveFcSettingsStatement(db: Db, accountId: string, s: Omit<FcSettings, "version">, version: number) {
  return statement(
    db,
    `INSERT INTO fc_settings (account_id, categories, default_priority, auto_close_days, retention_days, version, updated_at)
     SELECT ?1, ?2, ?3, ?4, ?5, 1, ?6 WHERE ?7 = 0 OR EXISTS (SELECT 1 FROM fc_settings WHERE account_id = ?1)
     ON CONFLICT (account_id) DO UPDATE SET categories = excluded.categories, default_priority = excluded.default_priority,
       auto_close_days = excluded.auto_close_days, retention_days = excluded.retention_days,
       version = fc_settings.version + 1, updated_at = excluded.updated_at
     WHERE fc_settings.version = ?7`,
    accountId,
    JSON.stringify(s.categories),
    s.defaultPriority,
    s.autoCloseDays,
    s.retentionDays,
    new Date().toISOString(),
    version,
  );
}

export type DeviceFcSettings = {
  remoteSupport: boolean;
  contactCustomerId: string | null;
  contactName: string | null;
  notes: string;
  version: number;
};

export async function findDeviceFcSettings(db: Db, uid: string): Promise<DeviceFcSettings> {
  const row = await first<{
    remote_support: number;
    contact_customer_id: string | null;
    contact_name: string | null;
    notes: string;
    version: number;
  }>(
    db,
    `SELECT s.remote_support, s.contact_customer_id, c.name AS contact_name, s.notes, s.version
     FROM fc_device_settings s LEFT JOIN fc_customers c ON c.id = s.contact_customer_id WHERE s.uid = ?`,
    uid,
  );
  if (!row) return { remoteSupport: true, contactCustomerId: null, contactName: null, notes: "", version: 0 };
  return {
    remoteSupport: row.remote_support === 1,
    contactCustomerId: row.contact_customer_id,
    contactName: row.contact_name,
    notes: row.notes,
    version: row.version,
  };
}

export function saveDeviceFcSettingsStatement(
  db: Db,
  uid: string,
  s: { remoteSupport: boolean; contactCustomerId: string | null; notes: string },
  version: number,
) {
  return statement(
    db,
    `INSERT INTO fc_device_settings (uid, remote_support, contact_customer_id, notes, version, updated_at)
     SELECT ?1, ?2, ?3, ?4, 1, ?5 WHERE ?6 = 0 OR EXISTS (SELECT 1 FROM fc_device_settings WHERE uid = ?1)
     ON CONFLICT (uid) DO UPDATE SET remote_support = excluded.remote_support,
       contact_customer_id = excluded.contact_customer_id, notes = excluded.notes,
       version = fc_device_settings.version + 1, updated_at = excluded.updated_at
     WHERE fc_device_settings.version = ?6`,
    uid,
    s.remoteSupport ? 1 : 0,
    s.contactCustomerId,
    s.notes,
    new Date().toISOString(),
    version,
  );
}

/** Which of these radios refuse remote support (no row: allowed). */
export async function radiosWithoutRemoteSupport(db: Db, uids: string[]): Promise<string[]> {
  if (!uids.length) return [];
  const rows = await all<{ uid: string }>(
    db,
    `SELECT uid FROM fc_device_settings WHERE remote_support = 0 AND uid IN (${uids.map(() => "?").join(", ")})`,
    ...uids,
  );
  return rows.map((r) => r.uid);
}

export type Employee = { id: string; name: string; email: string; status: string; role: string; orgId: string; version: number };

type EmployeeRow = { id: string; name: string; email: string; status: string; role: string; org_id: string; version: number };
const employeeColumns = "SELECT u.id, u.name, u.email, u.status, u.role, u.org_id, u.version FROM users u";

/** The case users (isCaseUser) of an organization tree: the desk's employees, by name (keyset). */
export async function listEmployees(
  db: Db,
  rootOrgId: string,
  after: { name: string; id: string } | null,
  limit: number,
): Promise<{ items: Employee[]; next: { name: string; id: string } | null }> {
  const rows = await all<EmployeeRow>(
    db,
    `${employeeColumns}
     WHERE u.is_case_user = 1 AND u.org_id IN (SELECT org_id FROM organization_ancestors WHERE ancestor_id = ?)
       AND (? IS NULL OR (u.name, u.id) > (?, ?))
     ORDER BY u.name, u.id LIMIT ?`,
    rootOrgId,
    after ? 1 : null,
    after?.name ?? "",
    after?.id ?? "",
    limit + 1,
  );
  const items = rows.slice(0, limit).map((r) => ({ ...r, orgId: r.org_id }));
  const last = items.at(-1);
  return { items, next: rows.length > limit && last ? { name: last.name, id: last.id } : null };
}

/** One case user of the tree, or null (not a case user, or outside it). */
export async function findEmployee(db: Db, rootOrgId: string, id: string): Promise<Employee | null> {
  const row = await first<EmployeeRow>(
    db,
    `${employeeColumns}
     WHERE u.id = ? AND u.is_case_user = 1 AND u.org_id IN (SELECT org_id FROM organization_ancestors WHERE ancestor_id = ?)`,
    id,
    rootOrgId,
  );
  return row ? { ...row, orgId: row.org_id } : null;
}

/** An employee's name and desk status, version-checked. */
export function updateEmployeeStatement(
  db: Db,
  input: { id: string; version: number; name: string; status: "active" | "disabled" },
) {
  return statement(
    db,
    `UPDATE users SET name = ?, status = ?, version = version + 1, updated_at = ?
     WHERE id = ? AND version = ? AND is_case_user = 1 AND status <> 'invited'`,
    input.name,
    input.status,
    new Date().toISOString(),
    input.id,
    input.version,
  );
}

/**
 * An account's desk data, deleted with the account (in its batch, before it): sessions (their
 * radios and timelines cascade), the radios' contacts among its customers, its customers (their
 * radios cascade) and its desk settings. Each is guarded by the account's version, like the
 * account's own delete, so a stale delete removes nothing.
 */
export function deleteAccountDeskStatements(db: Db, accountId: string, accountVersion: number) {
  const guard = "EXISTS (SELECT 1 FROM accounts WHERE id = ?2 AND version = ?3)";
  return [
    statement(db, `DELETE FROM fc_sessions WHERE account_id = ?1 AND ${guard}`, accountId, accountId, accountVersion),
    statement(
      db,
      `UPDATE fc_device_settings SET contact_customer_id = NULL, version = version + 1
       WHERE contact_customer_id IN (SELECT id FROM fc_customers WHERE account_id = ?1) AND ${guard}`,
      accountId,
      accountId,
      accountVersion,
    ),
    statement(db, `DELETE FROM fc_customers WHERE account_id = ?1 AND ${guard}`, accountId, accountId, accountVersion),
    statement(db, `DELETE FROM fc_settings WHERE account_id = ?1 AND ${guard}`, accountId, accountId, accountVersion),
  ];
}
