import type { TargetRadio } from "@/schema/fleet/deployment-target";
import { attributesKey, fingerprint } from "@/schema/fleet/desired-config";
import { desiredDeployment } from "@/schema/fleet/desired-deployment";
import type { MatchableDevice } from "@/schema/rules";
import { byQueueOrder, type Command, toCommands } from "../data/commands";
import type { Db } from "../data/db";
import { type Deployment, type DeploymentRow, type DeviceReport, toDeployment, toReports } from "../data/deployments";
import { type RadioRow, type RadioStateRow, radioStateStatement } from "../data/device-checkins";

/**
 * A radio as the device protocol sees it: its row, its account's recent deployments and its
 * own reports, read in one statement; then which deployment it follows, with which
 * attributes (DESIGN.md §7: the deployed ones until a deployment newer than their change).
 */
export type RadioState = {
  radio: RadioRow;
  deployments: Deployment[];
  reports: Map<string, DeviceReport>;
  desired: Deployment | null;
  /** The firmware deployment it follows (issue 26): the newest firmware deployment that holds it. */
  firmware: Deployment | null;
  attributes: MatchableDevice;
  /** The attributes changed and the desired deployment is newer: the radio takes them now. */
  takesNewAttributes: boolean;
  etag: string;
  /** The radio's waiting commands, in queue order (issue 13), read in the same round trip. */
  commands: Command[];
};

export function tagsOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

function rowsOf<Row>(json: string | null): Row[] {
  if (!json) return [];
  const value: unknown = JSON.parse(json);
  return Array.isArray(value) ? (value as Row[]) : [];
}

export async function loadRadio(
  db: Db,
  uid: string,
  { withCommands = true }: { withCommands?: boolean } = {},
): Promise<{
  radio: RadioRow | null;
  deployments: Deployment[];
  reports: Map<string, DeviceReport>;
  commands: Command[];
  /** The account's fleet version as of this read (0: no account or no row yet). */
  fleetVersion: number;
  /** The radio-change log's latest seq as of this read: any later change of the radio has a higher one. */
  changeSeq: number;
}> {
  // One statement (the config call, the 304 hot path, leaves out the command queue).
  const row = await radioStateStatement(db, uid, withCommands).first<RadioStateRow>();
  if (!row) return { radio: null, deployments: [], reports: new Map(), commands: [], fleetVersion: 0, changeSeq: 0 };
  const { deployments_json, reports_json, commands_json, fleet_version, change_seq, ...radio } = row;
  return {
    radio,
    fleetVersion: fleet_version ?? 0,
    changeSeq: change_seq ?? 0,
    // An aggregate promises no order: newest first, as desiredDeployment expects.
    deployments: rowsOf<DeploymentRow>(deployments_json)
      .map(toDeployment)
      .sort((a, b) => b.number - a.number),
    reports: toReports(rowsOf(reports_json)),
    // Past their expiry they are no longer the radio's to run (the sweep marks them).
    commands: toCommands(rowsOf(commands_json))
      .filter((command) => command.state === "queued" || command.state === "sent")
      .sort(byQueueOrder),
  };
}

/** The radio as deployment targets judge it: its row as it is now (not its deployed attributes). */
export function targetRadioOf(radio: RadioRow): TargetRadio {
  return {
    bucket: radio.rollout_bucket,
    siteId: radio.site_id,
    locationId: radio.location_id,
    model: radio.model,
    firmware: radio.firmware,
    tags: tagsOf(radio.tags),
  };
}

export function radioState(
  radio: RadioRow,
  deployments: Deployment[],
  reports: Map<string, DeviceReport>,
  commands: Command[] = [],
): RadioState {
  const candidates = radio.account_id ? deployments.filter((d) => d.accountId === radio.account_id) : [];
  // Two tracks: configuration and firmware, each the newest of its kind that holds the radio.
  const followed = (kind: Deployment["kind"]) =>
    desiredDeployment(
      candidates.filter((d) => d.kind === kind).map((d) => ({ ...d, shares: d.plan.phases.map((p) => p.share) })),
      targetRadioOf(radio),
      reports,
    );
  const desired = followed("config");
  const firmware = followed("firmware");
  const current: MatchableDevice = {
    uid: radio.uid,
    siteId: radio.site_id,
    locationId: radio.location_id,
    model: radio.model,
    tags: tagsOf(radio.tags),
  };
  const changedAt = radio.attributes_changed_at;
  const newer = !changedAt || (desired !== null && desired.createdAt > changedAt);
  const attributes: MatchableDevice =
    newer || radio.deployed_model === null
      ? current
      : {
          uid: radio.uid,
          siteId: radio.deployed_site_id,
          locationId: radio.deployed_location_id,
          model: radio.deployed_model,
          tags: tagsOf(radio.deployed_tags),
        };
  const etag = desired
    ? `"${desired.revisionNumber}-${fingerprint(`${desired.revisionId}|${attributesKey(attributes)}`)}"`
    : '"none"';
  return {
    radio,
    deployments,
    reports,
    desired: desired ?? null,
    firmware: firmware ?? null,
    attributes,
    takesNewAttributes: Boolean(changedAt) && newer && desired !== null,
    etag,
    commands,
  };
}
