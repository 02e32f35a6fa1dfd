import type { z } from "zod";
import { isFinal } from "@/schema/fleet/desired-deployment";
import { firmwareRank, firmwareReportBody, type StoredFirmwareReport, storedReport } from "@/schema/fleet/firmware-report";
import type { D1PreparedStatement } from "../cloudflare";
import { type Db, first, statement } from "../data/db";
import { type Deployment, retryReportStatement, upsertFirmwareReportStatement } from "../data/deployments";
import type { Env } from "../env";
import { failure, json } from "./check-in";
import type { RadioState } from "./radio-state";
import { admitReport, afterReportStored } from "./report-steps";

/**
 * A radio's report on a firmware deployment (docs/device-protocol.md "Reports"): stages move
 * forward only, by stage and download progress; the same report twice, or one behind, answers
 * `changed: false`; another final state after a final one is a conflict. `updated` records the
 * package's version as the radio's firmware at once; a failure is retried as the plan says and
 * otherwise counts against the thresholds, like any deployment's.
 */
export async function reportFirmware(
  { db, env }: { db: Db; env: Env },
  state: RadioState,
  deployment: Deployment,
  body: unknown,
  invalid: (error: z.ZodError) => Response,
): Promise<Response> {
  const parsed = firmwareReportBody.safeParse(body);
  if (!parsed.success) return invalid(parsed.error);
  const report = storedReport(parsed.data);
  const previous = state.reports.get(deployment.id);
  const repeated = previous ? answerToRepeat(deployment.id, previous, report) : null;
  if (repeated) return repeated;
  const admitted = admitReport(state, deployment, report.state === "failed", new Date());
  if (!admitted.ok) return admitted.response;
  const { phase, retry, at } = admitted;
  const fields = {
    deploymentId: deployment.id,
    uid: state.radio.uid,
    phase,
    code: parsed.data.code ?? "",
    detail: parsed.data.detail ?? "",
    at,
  };
  const writes: D1PreparedStatement[] = [
    retry
      ? retryReportStatement(db, { ...fields, retryAt: retry.retryAt.toISOString(), attempts: previous?.attempts ?? 0 })
      : upsertFirmwareReportStatement(db, { ...fields, ...report }),
  ];
  if (report.stage === "updated" && deployment.package) {
    writes.push(runsVersionStatement(db, state.radio.uid, deployment.id, deployment.package.version));
  }
  const [written] = await db.batch(writes);
  if (!written?.meta.changes) {
    // Another report of this radio got there first: answer as if this one came second.
    const stored = await storedReportOf(db, deployment.id, state.radio.uid);
    return (stored && answerToRepeat(deployment.id, stored, report)) ?? unchanged(deployment.id, stored);
  }
  return afterReportStored({ db, env }, state, deployment, { said: parsed.data.state, state: report.state, phase, retry });
}

function unchanged(deploymentId: string, stored: StoredFirmwareReport | null): Response {
  return json({ deploymentId, state: stored ? (stored.stage ?? stored.state) : "pending", changed: false });
}

/** Null: the report moves the radio forward. */
function answerToRepeat(deploymentId: string, previous: StoredFirmwareReport, report: StoredFirmwareReport): Response | null {
  if (isFinal(previous.state)) {
    const same = previous.state === report.state && previous.stage === report.stage;
    if (same || !isFinal(report.state)) return unchanged(deploymentId, previous);
    return failure({ status: 409, code: "CONFLICT", message: `Already reported ${previous.stage ?? previous.state}.` });
  }
  return firmwareRank(previous) >= firmwareRank(report) ? unchanged(deploymentId, previous) : null;
}

async function storedReportOf(db: Db, deploymentId: string, uid: string): Promise<StoredFirmwareReport | null> {
  return first<StoredFirmwareReport>(
    db,
    "SELECT state, stage, progress FROM deployment_devices WHERE deployment_id = ? AND uid = ?",
    deploymentId,
    uid,
  );
}

/** The radio runs the package now (its `updated` report was stored): its firmware, and so its history, move at once. */
function runsVersionStatement(db: Db, uid: string, deploymentId: string, version: string): D1PreparedStatement {
  return statement(
    db,
    `UPDATE devices SET firmware = ?1 WHERE uid = ?2 AND firmware IS NOT ?1
       AND EXISTS (SELECT 1 FROM deployment_devices WHERE deployment_id = ?3 AND uid = ?2 AND stage = 'updated')`,
    version,
    uid,
    deploymentId,
  );
}
