import type { DeploymentState, ReportState } from "@/schema/fleet/deployment-plan";
import type { FirmwareStage } from "@/schema/fleet/firmware-manifest";
import { all, type Db } from "./db";

/** A deployment a radio went through and what it reported on it (its deployment_devices row). */
export type RadioDeployment = {
  deploymentId: string;
  number: number;
  revisionNumber: number;
  deploymentState: DeploymentState;
  phase: number;
  state: ReportState;
  code: string;
  detail: string;
  reportedAt: string;
  /** A firmware deployment (issue 26): the version it installs, and the stage the radio reported. */
  kind: "config" | "firmware";
  packageVersion: string | null;
  stage: FirmwareStage | null;
};

/**
 * The deployments of `accountId` a radio reported on, newest first, a keyset page at a time
 * (`before`: the number of the last one shown). Only the account's own deployments: a radio
 * moved between accounts never shows another account's history here.
 */
export async function radioDeployments(
  db: Db,
  uid: string,
  accountId: string,
  { before = null, limit = 10 }: { before?: number | null; limit?: number } = {},
): Promise<{ items: RadioDeployment[]; next: number | null }> {
  const rows = await all<RadioDeployment>(
    db,
    `SELECT dp.id AS deploymentId, dp.number AS number, r.number AS revisionNumber, dp.state AS deploymentState,
       x.phase AS phase, x.state AS state, x.code AS code, x.detail AS detail, x.updated_at AS reportedAt,
       dp.kind AS kind, fp.version AS packageVersion, x.stage AS stage
     FROM deployment_devices x JOIN deployments dp ON dp.id = x.deployment_id JOIN revisions r ON r.id = dp.revision_id
       LEFT JOIN firmware_packages fp ON fp.id = dp.package_id
     WHERE x.uid = ?1 AND dp.account_id = ?2 AND (?3 IS NULL OR dp.number < ?3)
     ORDER BY dp.number DESC LIMIT ?4`,
    uid,
    accountId,
    before,
    limit + 1,
  );
  const items = rows.slice(0, limit);
  return { items, next: rows.length > limit ? (items[items.length - 1]?.number ?? null) : null };
}
