import { all, type Db, first, newId, now, statement } from "./db";

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

/** True when `orgId` is `rootId` or one of its descendants (one probe of organization_ancestors). */
export async function isWithinOrganization(db: Db, rootId: string, orgId: string): Promise<boolean> {
  const row = await first<{ found: number }>(
    db,
    "SELECT 1 AS found FROM organization_ancestors WHERE org_id = ? AND ancestor_id = ?",
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

/** An organization in the tree view: how deep below the caller's organization, and its parent's name. */
export type OrganizationNode = Organization & { depth: number; parentName: string | null };

type NodeRow = Row & { depth: number; parent_name: string | null };

/**
 * `rootId` and its descendants in tree order (each parent right before its children, siblings
 * by name), with their depth below the root; `search` keeps the matching names only.
 */
export async function listOrganizationNodes(db: Db, rootId: string, search = ""): Promise<OrganizationNode[]> {
  const rows = await all<NodeRow>(
    db,
    // The path sorts a parent before its children: char(31) sorts below every printable character.
    `WITH RECURSIVE tree(id, depth, path) AS (
       SELECT id, 0, lower(name) || char(30) || id FROM organizations WHERE id = ?
       UNION ALL
       SELECT o.id, tree.depth + 1, tree.path || char(31) || lower(o.name) || char(30) || o.id
       FROM organizations o JOIN tree ON o.parent_id = tree.id
     )
     SELECT o.id, o.name, o.kind, o.parent_id, o.created_at, o.updated_at, o.version, tree.depth, p.name AS parent_name
     FROM tree JOIN organizations o ON o.id = tree.id LEFT JOIN organizations p ON p.id = o.parent_id
     WHERE instr(lower(o.name), lower(?)) > 0
     ORDER BY tree.path`,
    rootId,
    search.trim(),
  );
  // The root's parent lies outside the caller's tree: it is not named.
  return rows.map((row) =>
    row.depth === 0
      ? { ...toOrganization(row), parentId: null, depth: 0, parentName: null }
      : { ...toOrganization(row), depth: row.depth, parentName: row.parent_name },
  );
}

/** Whether a sibling (same parent) other than `exceptId` already has this name, ignoring case. */
export async function siblingNameTaken(db: Db, parentId: string | null, name: string, exceptId: string | null = null) {
  const row = await first<{ found: number }>(
    db,
    `SELECT 1 AS found FROM organizations
     WHERE parent_id IS ? AND name = ? COLLATE NOCASE AND id IS NOT ? LIMIT 1`,
    parentId,
    name,
    exceptId,
  );
  return row !== null;
}

/** Renames an organization, only at the version the edit was made on (0 changes when stale). */
export function renameOrganizationStatement(db: Db, input: { id: string; version: number; name: string }) {
  return statement(
    db,
    "UPDATE organizations SET name = ?, updated_at = ?, version = version + 1 WHERE id = ? AND version = ?",
    input.name,
    now(),
    input.id,
    input.version,
  );
}
