import type { DeploymentState } from "@/schema/fleet/deployment-plan";
import { type DeploymentTarget, parseDeploymentTarget } from "@/schema/fleet/deployment-target";
import { BUCKETS, bucketRange } from "@/schema/fleet/rollout";
import { type Db, first } from "./db";
import { targetMatchSql } from "./deployment-target-sql";

/**
 * Firmware drift (issue 26): desired vs running firmware for the account's newest firmware
 * deployment that has radios (running, paused or finished). The radios it holds are those its
 * target holds, of a model its package fits, in the buckets its opened phases (and pace) reached:
 * all of them once finished. `runs` of them run the package's version, `differs` another one.
 */
export type FirmwareDrift = {
  deployment: { id: string; number: number; state: DeploymentState; packageId: string; version: string } | null;
  runs: number;
  differs: number;
};

type NewestRow = {
  id: string;
  number: number;
  state: DeploymentState;
  target: string | null;
  plan: string;
  phase_index: number;
  paced_to: number | null;
  package_id: string;
  version: string;
  models: string;
};

/** The buckets [0, to) the deployment's opened phases reached (a paused one keeps what it opened). */
function openedBuckets(row: NewestRow): number {
  if (row.state === "finished") return BUCKETS;
  let shares: number[] = [100];
  try {
    const phases = (JSON.parse(row.plan) as { phases?: { share?: number }[] }).phases ?? [];
    shares = phases.map((phase) => Number(phase.share ?? 100));
  } catch {
    // An unreadable plan holds every radio, as the engine's fallback plan does.
  }
  return Math.min(bucketRange(shares, row.phase_index).to, row.paced_to ?? BUCKETS);
}

/** A target the roll-up can count: conditions on its columns only (no tags, not a retry's). */
function countableFromRollup(target: DeploymentTarget | null): boolean {
  return target === null || (target.kind === "filter" && !(target.tags && target.tags.length > 0));
}

export async function firmwareDrift(db: Db, accountId: string): Promise<FirmwareDrift> {
  // One probe of deployments_account_kind (account, kind, number: migration 0041).
  const row = await first<NewestRow>(
    db,
    `SELECT d.id, d.number, d.state, d.target, d.plan, d.phase_index, d.paced_to, p.id AS package_id, p.version, p.models
     FROM deployments d JOIN firmware_packages p ON p.id = d.package_id
     WHERE d.account_id = ?1 AND d.kind = 'firmware' AND d.state IN ('running', 'paused', 'finished')
     ORDER BY d.number DESC LIMIT 1`,
    accountId,
  );
  if (!row) return { deployment: null, runs: 0, differs: 0 };
  const target = parseDeploymentTarget(row.target);
  const openedTo = openedBuckets(row);
  // Every bucket opened and a target of columns only: the roll-up of active radios by site,
  // location, model and firmware (report_device_counts) answers in as many rows as combinations.
  // Otherwise one pass over the account's radios on the index that holds site, firmware, model
  // and bucket (its tags, if the target names any, looked up per radio).
  const counted =
    openedTo >= BUCKETS && countableFromRollup(target)
      ? await first<{ held: number | null; runs: number | null }>(
          db,
          `SELECT sum(r.radios) AS held, sum(CASE WHEN r.firmware = ?2 THEN r.radios ELSE 0 END) AS runs
           FROM report_device_counts r
           WHERE r.account_id = ?1 AND r.model IN (SELECT value FROM json_each(?3)) AND ${targetMatchSql("r", target)}`,
          accountId,
          row.version,
          row.models,
        )
      : await first<{ held: number | null; runs: number | null }>(
          db,
          `SELECT count(*) AS held, sum(v.firmware = ?2) AS runs
           FROM devices v INDEXED BY devices_account_site_firmware
           WHERE v.account_id = ?1 AND v.status = 'active' AND v.rollout_bucket < ?4
             AND v.model IN (SELECT value FROM json_each(?3)) AND ${targetMatchSql("v", target)}`,
          accountId,
          row.version,
          row.models,
          openedTo,
        );
  const held = counted?.held ?? 0;
  const runs = counted?.runs ?? 0;
  return {
    deployment: { id: row.id, number: row.number, state: row.state, packageId: row.package_id, version: row.version },
    runs,
    differs: held - runs,
  };
}
