import { packageObjectKey } from "@/schema/fleet/firmware-manifest";
import type { D1PreparedStatement } from "../cloudflare";
import { activityStatement } from "./activity-logs";
import { all, type Db, first, newId, now, statement } from "./db";

/**
 * Firmware packages (issue 26, migration 0041): one row per package of an organization, its file
 * in the FIRMWARE bucket under packageObjectKey(id). A package is visible to its organization and
 * to every organization below it (a vendor's package reaches its dealers and customers), changed
 * only from its own organization or one above it. Every change is an activity entry.
 */
export type PackageState = "uploading" | "ready";
/** A stored part; its SHA-256 lets a resumed upload tell which parts of the chosen file are there already. */
export type UploadedPart = { partNumber: number; etag: string; size: number; sha256?: string };

export type FirmwarePackage = {
  id: string;
  orgId: string;
  orgName: string;
  version: string;
  models: string[];
  notes: string;
  state: PackageState;
  objectKey: string;
  uploadId: string | null;
  parts: UploadedPart[];
  size: number;
  sha256: string | null;
  signature: string | null;
  keyId: string | null;
  createdBy: string;
  createdAt: string;
  rowVersion: number;
  /** A deployment installs it, or rolls back to it: it cannot be deleted. */
  inUse: boolean;
};

type Row = {
  id: string;
  org_id: string;
  org_name: string;
  version: string;
  models: string;
  notes: string;
  state: PackageState;
  object_key: string;
  upload_id: string | null;
  parts: string;
  size: number;
  sha256: string | null;
  signature: string | null;
  key_id: string | null;
  created_by: string;
  created_at: string;
  row_version: number;
  in_use: number;
};

const IN_USE = `EXISTS (SELECT 1 FROM deployments d WHERE d.package_id = p.id)
  OR EXISTS (SELECT 1 FROM deployments d WHERE d.previous_package_id = p.id)`;

const columns = `p.id, p.org_id, o.name AS org_name, p.version, p.models, p.notes, p.state, p.object_key, p.upload_id,
  p.parts, p.size, p.sha256, p.signature, p.key_id, p.created_by, p.created_at, p.row_version, (${IN_USE}) AS in_use`;

function toPackage(row: Row): FirmwarePackage {
  return {
    id: row.id,
    orgId: row.org_id,
    orgName: row.org_name,
    version: row.version,
    models: JSON.parse(row.models) as string[],
    notes: row.notes,
    state: row.state,
    objectKey: row.object_key,
    uploadId: row.upload_id,
    parts: (JSON.parse(row.parts) as UploadedPart[]).sort((a, b) => a.partNumber - b.partNumber),
    size: row.size,
    sha256: row.sha256,
    signature: row.signature,
    keyId: row.key_id,
    createdBy: row.created_by,
    createdAt: row.created_at,
    rowVersion: row.row_version,
    inUse: row.in_use === 1,
  };
}

/** The packages an organization sees: its own and those of every organization above it, newest first. */
export async function listVisiblePackages(db: Db, orgId: string, limit = 500): Promise<FirmwarePackage[]> {
  const rows = await all<Row>(
    db,
    `SELECT ${columns}
       FROM organization_ancestors a
       JOIN firmware_packages p ON p.org_id = a.ancestor_id
       JOIN organizations o ON o.id = p.org_id
      WHERE a.org_id = ?
      ORDER BY p.created_at DESC, p.id
      LIMIT ?`,
    orgId,
    limit,
  );
  return rows.map(toPackage);
}

export async function findPackage(db: Db, id: string): Promise<FirmwarePackage | null> {
  const row = await first<Row>(
    db,
    `SELECT ${columns} FROM firmware_packages p JOIN organizations o ON o.id = p.org_id WHERE p.id = ?`,
    id,
  );
  return row ? toPackage(row) : null;
}

export async function versionTaken(db: Db, orgId: string, version: string): Promise<boolean> {
  return (await first(db, "SELECT 1 AS found FROM firmware_packages WHERE org_id = ? AND version = ?", orgId, version)) !== null;
}

/** The deployments that install the package or roll back to it, in the accounts below `viewerOrgId`. */
export async function deploymentsUsingPackage(
  db: Db,
  packageId: string,
  viewerOrgId: string,
  limit = 100,
): Promise<
  { id: string; accountId: string; accountName: string; number: number; state: string; role: "install" | "rollback" }[]
> {
  const rows = await all<{ id: string; account_id: string; account_name: string; number: number; state: string; role: string }>(
    db,
    `SELECT d.id, d.account_id, acc.name AS account_name, d.number, d.state,
            CASE WHEN d.package_id = ? THEN 'install' ELSE 'rollback' END AS role
       FROM deployments d
       JOIN accounts acc ON acc.id = d.account_id
       JOIN organization_ancestors a ON a.org_id = d.org_id AND a.ancestor_id = ?
      WHERE d.package_id = ? OR d.previous_package_id = ?
      ORDER BY d.created_at DESC
      LIMIT ?`,
    packageId,
    viewerOrgId,
    packageId,
    packageId,
    limit,
  );
  return rows.map((row) => ({
    id: row.id,
    accountId: row.account_id,
    accountName: row.account_name,
    number: row.number,
    state: row.state,
    role: row.role === "install" ? "install" : "rollback",
  }));
}

type Actor = { id: string; email: string };

export function createPackageStatements(
  db: Db,
  actor: Actor,
  input: {
    orgId: string;
    accountId: string | null;
    version: string;
    models: string[];
    notes: string;
    uploadId: string;
    id?: string;
  },
): { id: string; statements: D1PreparedStatement[] } {
  const id = input.id ?? newId("fw");
  const at = now();
  return {
    id,
    statements: [
      statement(
        db,
        `INSERT INTO firmware_packages (id, org_id, version, models, notes, state, object_key, upload_id, created_by, created_at, updated_at)
         VALUES (?, ?, ?, ?, ?, 'uploading', ?, ?, ?, ?, ?)`,
        id,
        input.orgId,
        input.version,
        JSON.stringify(input.models),
        input.notes,
        packageObjectKey(id),
        input.uploadId,
        actor.id,
        at,
        at,
      ),
      activityStatement(db, {
        orgId: input.orgId,
        accountId: input.accountId,
        actor,
        action: "create",
        entityType: "firmwarePackage",
        entityId: id,
        entityLabel: input.version,
        diff: { version: { after: input.version }, models: { after: input.models }, notes: { after: input.notes } },
        deployable: false,
      }),
    ],
  };
}

/**
 * Records one received part (replacing an earlier upload of the same number) in one statement,
 * so parts arriving side by side never overwrite each other's entries. Only while uploading.
 */
export function recordPartStatement(db: Db, id: string, part: UploadedPart): D1PreparedStatement {
  return statement(
    db,
    `UPDATE firmware_packages
        SET parts = (SELECT json_group_array(json(value)) FROM (
               SELECT value FROM json_each(firmware_packages.parts) WHERE json_extract(value, '$.partNumber') <> ?
               UNION ALL SELECT ?)),
            updated_at = ?
      WHERE id = ? AND state = 'uploading'`,
    part.partNumber,
    JSON.stringify(part),
    now(),
    id,
  );
}

/** Uploading → ready with what the server measured and signed; only once (a second completion changes nothing). */
export function completePackageStatements(
  db: Db,
  actor: Actor,
  accountId: string | null,
  pkg: FirmwarePackage,
  measured: { size: number; sha256: string; signature: string; keyId: string },
): D1PreparedStatement[] {
  return [
    statement(
      db,
      `UPDATE firmware_packages SET state = 'ready', upload_id = NULL, size = ?, sha256 = ?, signature = ?, key_id = ?,
              updated_at = ?, row_version = row_version + 1
        WHERE id = ? AND state = 'uploading'`,
      measured.size,
      measured.sha256,
      measured.signature,
      measured.keyId,
      now(),
      pkg.id,
    ),
    activityStatement(db, {
      orgId: pkg.orgId,
      // The account whose frame it was done in (its log shows it), else the organization's alone.
      accountId,
      actor,
      action: "update",
      entityType: "firmwarePackage",
      entityId: pkg.id,
      entityLabel: pkg.version,
      diff: {
        state: { before: "uploading", after: "ready" },
        size: { after: measured.size },
        sha256: { after: measured.sha256 },
        keyId: { after: measured.keyId },
      },
      deployable: false,
    }),
  ];
}

/** Deletes the package unless a deployment uses it (checked in the same statement: no race with a confirm). */
export function deletePackageStatements(
  db: Db,
  actor: Actor,
  accountId: string | null,
  pkg: FirmwarePackage,
): D1PreparedStatement[] {
  return [
    statement(
      db,
      `DELETE FROM firmware_packages AS p WHERE p.id = ?
         AND NOT EXISTS (SELECT 1 FROM deployments d WHERE d.package_id = p.id OR d.previous_package_id = p.id)`,
      pkg.id,
    ),
    activityStatement(db, {
      orgId: pkg.orgId,
      // The account whose frame it was done in (its log shows it), else the organization's alone.
      accountId,
      actor,
      action: "delete",
      entityType: "firmwarePackage",
      entityId: pkg.id,
      entityLabel: pkg.version,
      diff: { version: { before: pkg.version }, state: { before: pkg.state } },
      deployable: false,
    }),
  ];
}
