import { type Db, first } from "./db";

/**
 * Of a firmware deployment's radios downloading, the average progress they reported (null: none
 * is downloading). Reads only the deployment's radios in progress (deployment_devices_state).
 */
export async function averageDownloadProgress(db: Db, deploymentId: string): Promise<number | null> {
  const row = await first<{ average: number | null }>(
    db,
    `SELECT avg(ifnull(progress, 0)) AS average FROM deployment_devices
     WHERE deployment_id = ? AND state = 'applying' AND stage = 'downloading'`,
    deploymentId,
  );
  return row?.average === null || row?.average === undefined ? null : Math.round(row.average);
}
