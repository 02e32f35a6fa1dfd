import type { DeploymentState, ReportState } from "@/schema/fleet/deployment-plan";
import type { FirmwareStage } from "@/schema/fleet/firmware-manifest";
import type { Db } from "@/server/data/db";
import { loadRadio, radioState } from "@/server/fleet/radio-state";

/**
 * The firmware a radio should run (issue 26): the firmware deployment it follows, as a check-in
 * decides it (radioState: the newest firmware deployment that holds it), its package, and what
 * the radio reported on it so far (stage and download progress).
 */
export type DesiredFirmware = {
  deploymentId: string;
  number: number;
  deploymentState: DeploymentState;
  packageId: string;
  version: string;
  report: { state: ReportState; stage: FirmwareStage | null; progress: number | null; code: string } | null;
};

/** Null: a radio in no account, or one no firmware deployment holds. */
export async function desiredFirmware(db: Db, uid: string): Promise<DesiredFirmware | null> {
  const loaded = await loadRadio(db, uid, { withCommands: false });
  if (!loaded.radio?.account_id) return null;
  const followed = radioState(loaded.radio, loaded.deployments, loaded.reports).firmware;
  if (!followed?.package) return null;
  const report = loaded.reports.get(followed.id);
  return {
    deploymentId: followed.id,
    number: followed.number,
    deploymentState: followed.state,
    packageId: followed.package.id,
    version: followed.package.version,
    report: report ? { state: report.state, stage: report.stage, progress: report.progress, code: report.code } : null,
  };
}
