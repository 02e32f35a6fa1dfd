import { all, type Db } from "./db";

/** A package a firmware deployment of an account may install, as the confirm page offers it. */
export type PackageOption = { id: string; version: string; models: string[]; orgName: string; createdAt: string };

const LISTED = 200;

/**
 * The ready packages of the organization `orgId` and of the organizations above it (a vendor's
 * package reaches its customers' accounts), newest first: the choices of the confirm page.
 */
export async function deployablePackages(db: Db, orgId: string): Promise<PackageOption[]> {
  const rows = await all<{ id: string; version: string; models: string; org_name: string; created_at: string }>(
    db,
    `SELECT p.id, p.version, p.models, o.name AS org_name, p.created_at FROM firmware_packages p JOIN organizations o ON o.id = p.org_id
     WHERE p.state = 'ready' AND p.org_id IN (SELECT ancestor_id FROM organization_ancestors WHERE org_id = ?1)
     ORDER BY p.created_at DESC, p.id LIMIT ${LISTED}`,
    orgId,
  );
  return rows.map((row) => {
    let models: string[] = [];
    try {
      const value: unknown = JSON.parse(row.models);
      if (Array.isArray(value)) models = value.map(String);
    } catch {
      // Unreadable: it fits no radio, and says so by listing none.
    }
    return { id: row.id, version: row.version, models, orgName: row.org_name, createdAt: row.created_at };
  });
}
