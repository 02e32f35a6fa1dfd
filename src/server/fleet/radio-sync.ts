import { type ContactState, contactOf, type SyncState, syncOf } from "@/schema/fleet/sync-state";
import type { Db } from "../data/db";
import { findRevision } from "../data/revisions";
import { loadRadio, type RadioState, radioState } from "./radio-state";

/**
 * One radio's desired vs reported revision and its sync and contact state (DESIGN.md §7): the
 * desired side is what the device protocol would hand it now (radioState, the same code as a
 * check-in); the states are schema/fleet/sync-state.ts, as every count uses them.
 */
export type RadioSync = {
  desired: { id: string; number: number; deploymentId: string; deploymentNumber: number } | null;
  reported: { id: string; number: number | null } | null;
  sync: SyncState;
  contact: ContactState;
};

/** The sync state of a radio as loaded, given whether its reported revision is its account's. */
export function syncOfRadio(state: RadioState, reportedIsOurs: boolean): SyncState {
  const desired = state.desired;
  const report = desired ? state.reports.get(desired.id) : undefined;
  return syncOf({
    desiredRevisionId: desired?.revisionId ?? null,
    desiredFailed: report?.state === "failed" || report?.state === "rejected",
    reportedRevisionId: state.radio.reported_revision,
    reportedIsOurs,
  });
}

/** Null for a radio in no account (nothing is deployed to it). */
export async function radioSync(db: Db, uid: string, now = new Date()): Promise<RadioSync | null> {
  const loaded = await loadRadio(db, uid);
  const radio = loaded.radio;
  if (!radio?.account_id) return null;
  const state = radioState(radio, loaded.deployments, loaded.reports);
  const desired = state.desired;
  const reportedRevision = radio.reported_revision ? await findRevision(db, radio.reported_revision) : null;
  const ours = reportedRevision?.accountId === radio.account_id;
  return {
    desired: desired
      ? { id: desired.revisionId, number: desired.revisionNumber, deploymentId: desired.id, deploymentNumber: desired.number }
      : null,
    reported: radio.reported_revision
      ? { id: radio.reported_revision, number: ours ? (reportedRevision?.number ?? null) : null }
      : null,
    sync: syncOfRadio(state, ours),
    contact: contactOf(radio.last_contact_at, now),
  };
}
