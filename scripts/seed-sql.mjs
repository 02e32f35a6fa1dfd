import { accounts, organizations } from "./demo-data.mjs";

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
  ];
}
