import type { DeploymentTarget } from "@/schema/fleet/deployment-target";
import { all, type Db, first } from "./db";
import { targetMatchSql } from "./deployment-target-sql";

/**
 * What a firmware deployment needs to know of packages (issue 26): a package an account may
 * install (ready, its organization's or one above it), the target narrowed to the models it
 * fits, and before confirming how the target's radios fit it and what they run now.
 */
export type DeployablePackage = { id: string; orgId: string; version: string; models: string[] };

type PackageRow = { id: string; org_id: string; version: string; models: string };

function toPackage(row: PackageRow): DeployablePackage {
  let models: string[] = [];
  try {
    const value: unknown = JSON.parse(row.models);
    if (Array.isArray(value)) models = value.map(String);
  } catch {
    // Unreadable: it fits no radio.
  }
  return { id: row.id, orgId: row.org_id, version: row.version, models };
}

/** A ready package of the organization `orgId` or one above it; null for anything else (another tenant's is not found). */
export async function deployablePackage(db: Db, orgId: string, packageId: string): Promise<DeployablePackage | null> {
  const row = await first<PackageRow>(
    db,
    `SELECT id, org_id, version, models FROM firmware_packages
     WHERE id = ?2 AND state = 'ready' AND org_id IN (SELECT ancestor_id FROM organization_ancestors WHERE org_id = ?1)`,
    orgId,
    packageId,
  );
  return row ? toPackage(row) : null;
}

/** The package the account's newest firmware deployment that went out installs (what a new one rolls back to by default). */
export async function installedPackageId(db: Db, accountId: string): Promise<string | null> {
  const row = await first<{ package_id: string }>(
    db,
    `SELECT package_id FROM deployments WHERE account_id = ? AND kind = 'firmware' AND state IN ('running', 'paused', 'finished')
     ORDER BY number DESC LIMIT 1`,
    accountId,
  );
  return row?.package_id ?? null;
}

/** The target narrowed to the models a package fits (ANDed with a fit it already has). */
export function withModelFit(target: DeploymentTarget | null, models: readonly string[]): DeploymentTarget {
  const fit = target?.models ? target.models.filter((model) => models.includes(model)) : [...models];
  return target ? { ...target, models: fit } : { kind: "filter", models: fit };
}

export type FirmwareFit = {
  /** Active radios the target holds (before the model fit). */
  inTarget: number;
  /** Of them, the radios whose model the package fits: the deployment's radios. */
  fits: number;
  /** Of those, the radios that already run the package's version (they report already in sync). */
  alreadyOnVersion: number;
  /** Radios left out, by model. */
  wrongModel: { model: string; count: number }[];
  /** What the fitting radios run now (most first), with a package of that version if one is deployable: roll back's choices. */
  running: { version: string; count: number; packageId: string | null }[];
};

const FIT_GROUPS = 500;

/** How a target's radios fit a package, in one grouped read (the confirm page's preview). */
export async function firmwareFit(
  db: Db,
  accountId: string,
  orgId: string,
  target: DeploymentTarget | null,
  pkg: DeployablePackage,
): Promise<FirmwareFit> {
  const groups = await all<{ model: string; firmware: string; n: number }>(
    db,
    `SELECT d.model, d.firmware, count(*) AS n FROM devices d
     WHERE d.account_id = ? AND d.status = 'active' AND ${targetMatchSql("d", target)}
     GROUP BY d.model, d.firmware ORDER BY n DESC LIMIT ${FIT_GROUPS}`,
    accountId,
  );
  const fit: FirmwareFit = { inTarget: 0, fits: 0, alreadyOnVersion: 0, wrongModel: [], running: [] };
  const wrong = new Map<string, number>();
  const running = new Map<string, number>();
  for (const group of groups) {
    fit.inTarget += group.n;
    if (!pkg.models.includes(group.model)) {
      wrong.set(group.model, (wrong.get(group.model) ?? 0) + group.n);
      continue;
    }
    fit.fits += group.n;
    if (group.firmware === pkg.version) fit.alreadyOnVersion += group.n;
    else running.set(group.firmware, (running.get(group.firmware) ?? 0) + group.n);
  }
  fit.wrongModel = [...wrong].map(([model, count]) => ({ model, count })).sort((a, b) => b.count - a.count);
  const versions = [...running.keys()].filter(Boolean);
  const packages = versions.length
    ? await all<{ id: string; version: string }>(
        db,
        `SELECT id, version FROM firmware_packages WHERE state = 'ready' AND version IN (${versions.map(() => "?").join(", ")})
           AND org_id IN (SELECT ancestor_id FROM organization_ancestors WHERE org_id = ?)
         ORDER BY created_at DESC`,
        ...versions,
        orgId,
      )
    : [];
  fit.running = [...running]
    .map(([version, count]) => ({ version, count, packageId: packages.find((p) => p.version === version)?.id ?? null }))
    .sort((a, b) => b.count - a.count);
  return fit;
}
