import type { Db } from "../data/db";
import { driftOf } from "../data/fleet-drift";
import { findRevision } from "../data/revisions";
import { loadRadio, radioState } from "./radio-state";

export type DriftState = ReturnType<typeof driftOf>;

/**
 * One radio's desired vs reported revision for its page (DESIGN.md §7): the desired side is
 * what the device protocol would hand it now (radioState, the same code as a check-in), the
 * state is deploy's driftOf. Null for a radio in no account (nothing is deployed to it).
 */
export type RadioDrift = {
  desired: { id: string; number: number } | null;
  reported: { id: string; number: number | null } | null;
  state: DriftState;
};

export async function radioDrift(db: Db, uid: string, now = new Date()): Promise<RadioDrift | null> {
  const loaded = await loadRadio(db, uid);
  const radio = loaded.radio;
  if (!radio?.account_id) return null;
  const state = radioState(radio, loaded.deployments, loaded.reports);
  const desired = state.desired;
  const reportedRevision = radio.reported_revision ? await findRevision(db, radio.reported_revision) : null;
  const ours = reportedRevision?.accountId === radio.account_id;
  const report = desired ? loaded.reports.get(desired.id) : undefined;
  return {
    desired: desired ? { id: desired.revisionId, number: desired.revisionNumber } : null,
    reported: radio.reported_revision
      ? { id: radio.reported_revision, number: ours ? (reportedRevision?.number ?? null) : null }
      : null,
    state: driftOf({
      desiredRevisionId: desired?.revisionId ?? null,
      reportedRevisionId: radio.reported_revision,
      accountRevisionIds: new Set(ours && radio.reported_revision ? [radio.reported_revision] : []),
      failed: report?.state === "failed" || report?.state === "rejected",
      lastSeenAt: radio.last_seen_at,
      now,
    }),
  };
}
