import { attributesKey, fingerprint } from "@/schema/fleet/desired-config";
import { desiredDeployment } from "@/schema/fleet/desired-deployment";
import type { MatchableDevice } from "@/schema/rules";
import { type Command, toCommands, waitingCommandsStatement } from "../data/commands";
import type { Db } from "../data/db";
import {
  type Deployment,
  type DeviceReport,
  recentDeploymentsStatement,
  reportsOfDeviceStatement,
  toDeployment,
  toReports,
} from "../data/deployments";
import type { RadioRow } from "../data/device-checkins";
import { radioStatement } from "../data/device-checkins";

/**
 * A radio as the device protocol sees it: its row, its account's recent deployments and its
 * own reports, read in one round trip; then which deployment it follows, with which
 * attributes (DESIGN.md §7: the deployed ones until a deployment newer than their change).
 */
export type RadioState = {
  radio: RadioRow;
  deployments: Deployment[];
  reports: Map<string, DeviceReport>;
  desired: Deployment | null;
  attributes: MatchableDevice;
  /** The attributes changed and the desired deployment is newer: the radio takes them now. */
  takesNewAttributes: boolean;
  etag: string;
  /** The radio's waiting commands, in queue order (issue 13), read in the same round trip. */
  commands: Command[];
};

function tagsOf(json: string): string[] {
  try {
    const value: unknown = JSON.parse(json);
    return Array.isArray(value) ? value.filter((tag): tag is string => typeof tag === "string") : [];
  } catch {
    return [];
  }
}

export async function loadRadio(
  db: Db,
  uid: string,
  { withCommands = true }: { withCommands?: boolean } = {},
): Promise<{ radio: RadioRow | null; deployments: Deployment[]; reports: Map<string, DeviceReport>; commands: Command[] }> {
  // The config call (the 304 hot path) has no use for the command queue: one statement fewer.
  const [radio, deployments, reports, commands] = await db.batch([
    radioStatement(db, uid),
    recentDeploymentsStatement(db, uid),
    reportsOfDeviceStatement(db, uid),
    ...(withCommands ? [waitingCommandsStatement(db, uid)] : []),
  ]);
  return {
    radio: ((radio?.results ?? [])[0] as RadioRow | undefined) ?? null,
    deployments: ((deployments?.results ?? []) as Parameters<typeof toDeployment>[0][]).map(toDeployment),
    reports: toReports((reports?.results ?? []) as Parameters<typeof toReports>[0]),
    // Past their expiry they are no longer the radio's to run (the sweep marks them).
    commands: toCommands(commands?.results ?? []).filter((command) => command.state === "queued" || command.state === "sent"),
  };
}

export function radioState(
  radio: RadioRow,
  deployments: Deployment[],
  reports: Map<string, DeviceReport>,
  commands: Command[] = [],
): RadioState {
  const candidates = radio.account_id ? deployments.filter((d) => d.accountId === radio.account_id) : [];
  const desired = desiredDeployment(
    candidates.map((d) => ({ ...d, shares: d.plan.phases.map((p) => p.share) })),
    radio.rollout_bucket,
    reports,
  );
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
    attributes,
    takesNewAttributes: Boolean(changedAt) && newer && desired !== null,
    etag,
    commands,
  };
}
