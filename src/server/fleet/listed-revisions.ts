import type { ReportState } from "@/schema/fleet/deployment-plan";
import { desiredDeployment } from "@/schema/fleet/desired-deployment";
import { all, type Db } from "../data/db";
import type { Deployment } from "../data/deployments";
import { tagsOf } from "./radio-state";

/** What a listed radio should run and what it reports, as revision numbers of its account (null: none, or not its account's). */
export type ListedRevisions = { desired: number | null; reported: number | null };

/**
 * Desired vs reported revision for a page of radios in one read: the desired one is the same
 * choice a check-in makes (desiredDeployment over the account's deployments newest first, the
 * radio's bucket and its own reports); the reported one is numbered only when it is a revision of
 * the radio's account. `deployments` are the listed account's (empty: none known, nothing desired).
 */
export async function listedRevisions(
  db: Db,
  uids: readonly string[],
  deployments: readonly Deployment[],
): Promise<Map<string, ListedRevisions>> {
  if (uids.length === 0) return new Map();
  // The reports on these deployments and on those a "retry the failed" target names.
  const ids = deployments.flatMap((d) => (d.target?.kind === "failedOf" ? [d.id, d.target.deploymentId] : [d.id]));
  const rows = await all<{
    uid: string;
    bucket: number;
    reported: number | null;
    reports: string;
    site_id: string | null;
    location_id: string | null;
    model: string;
    firmware: string;
    tags: string;
  }>(
    db,
    `SELECT d.uid, d.rollout_bucket AS bucket, rv.number AS reported, d.site_id, d.location_id, d.model, d.firmware, d.tags,
       (SELECT json_group_array(json_object('id', x.deployment_id, 'state', x.state)) FROM deployment_devices x
        WHERE x.uid = d.uid AND x.deployment_id IN (SELECT value FROM json_each(?2))) AS reports
     FROM devices d LEFT JOIN revisions rv ON rv.id = d.reported_revision AND rv.account_id = d.account_id
     WHERE d.uid IN (SELECT value FROM json_each(?1))`,
    JSON.stringify(uids),
    JSON.stringify(ids),
  );
  const candidates = deployments.map((d) => ({ ...d, shares: d.plan.phases.map((p) => p.share) }));
  return new Map(
    rows.map((row) => {
      const reports = new Map(
        (JSON.parse(row.reports) as { id: string; state: ReportState }[]).map((r) => [r.id, { state: r.state }]),
      );
      const radio = {
        bucket: row.bucket,
        siteId: row.site_id,
        locationId: row.location_id,
        model: row.model,
        firmware: row.firmware,
        tags: tagsOf(row.tags),
      };
      const desired = candidates.length > 0 ? desiredDeployment(candidates, radio, reports) : null;
      return [row.uid, { desired: desired?.revisionNumber ?? null, reported: row.reported }];
    }),
  );
}
