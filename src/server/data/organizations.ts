import { all, type Db, first, newId, statement } from "./db";

export type OrganizationKind = "vendor" | "dealer" | "customer";

export type Organization = {
  id: string;
  name: string;
  kind: OrganizationKind;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
  version: number;
};

type Row = {
  id: string;
  name: string;
  kind: OrganizationKind;
  parent_id: string | null;
  created_at: string;
  updated_at: string;
  version: number;
};

const columns = "id, name, kind, parent_id, created_at, updated_at, version";

function toOrganization(row: Row): Organization {
  return {
    id: row.id,
    name: row.name,
    kind: row.kind,
    parentId: row.parent_id,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    version: row.version,
  };
}

export async function findOrganization(db: Db, id: string): Promise<Organization | null> {
  const row = await first<Row>(db, `SELECT ${columns} FROM organizations WHERE id = ?`, id);
  return row ? toOrganization(row) : null;
}

/**
 * An organization and all its descendants: the organizations a member of `rootId` may act in
 * (DESIGN.md §3). One recursive query, not one per level.
 */
export async function listOrganizationTree(db: Db, rootId: string): Promise<Organization[]> {
  const rows = await all<Row>(
    db,
    `WITH RECURSIVE tree(id) AS (
       SELECT id FROM organizations WHERE id = ?
       UNION ALL
       SELECT o.id FROM organizations o JOIN tree ON o.parent_id = tree.id
     )
     SELECT ${columns} FROM organizations WHERE id IN (SELECT id FROM tree) ORDER BY name COLLATE NOCASE`,
    rootId,
  );
  return rows.map(toOrganization);
}

/** True when `orgId` is `rootId` or one of its descendants. */
export async function isWithinOrganization(db: Db, rootId: string, orgId: string): Promise<boolean> {
  const row = await first<{ found: number }>(
    db,
    `WITH RECURSIVE ancestry(id, parent_id) AS (
       SELECT id, parent_id FROM organizations WHERE id = ?
       UNION ALL
       SELECT o.id, o.parent_id FROM organizations o JOIN ancestry a ON o.id = a.parent_id
     )
     SELECT 1 AS found FROM ancestry WHERE id = ? LIMIT 1`,
    orgId,
    rootId,
  );
  return row !== null;
}

export function insertOrganization(db: Db, input: { name: string; kind: OrganizationKind; parentId: string | null }) {
  const id = newId("org");
  return {
    id,
    statement: statement(
      db,
      "INSERT INTO organizations (id, name, kind, parent_id) VALUES (?, ?, ?, ?)",
      id,
      input.name,
      input.kind,
      input.parentId,
    ),
  };
}
