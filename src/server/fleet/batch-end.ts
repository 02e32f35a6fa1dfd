import { activityStatement } from "../data/activity-logs";
import { batchCounts, findBatch } from "../data/command-batches";
import { all, type Db, statement } from "../data/db";
import type { Env } from "../env";
import { fleetEvent } from "../notifications/fleet-event";

/**
 * A bulk command batch ends when its last command becomes final (issue 25). The batch row's
 * ended_at (migration 0036) is set by one conditional UPDATE, so of the sweep and the report
 * that race for the same batch exactly one wins, and only the winner raises
 * command-batch.ended-with-failures, when some radios failed or their command expired.
 */

/** Who ends a batch: nobody in particular (the deployment engine's SYSTEM_ACTOR, spelled alike). */
const SYSTEM = { id: "system", email: "system" };

const WAITING = "SELECT 1 FROM commands c WHERE c.batch_id = command_batches.id AND c.state IN ('queued', 'sent', 'delivered')";

/** Marks the batch ended if none of its commands is still waiting; answers whether this call did. */
async function markEnded(db: Db, batchId: string, at: string): Promise<boolean> {
  const result = await statement(
    db,
    `UPDATE command_batches SET ended_at = ? WHERE id = ? AND ended_at IS NULL AND NOT EXISTS (${WAITING})`,
    at,
    batchId,
  ).run();
  return (result.meta.changes ?? 0) > 0;
}

/** Ends one batch if its last command just became final, and tells who asked when it ended with failures. */
export async function endBatchIfDone(env: Env, batchId: string, at = new Date()): Promise<boolean> {
  if (!(await markEnded(env.DB, batchId, at.toISOString()))) return false;
  const [batch, counts] = await Promise.all([findBatch(env.DB, batchId), batchCounts(env.DB, batchId)]);
  if (!batch) return true;
  // The system ended it: an activity entry under the batch says how it ended.
  await activityStatement(env.DB, {
    orgId: batch.orgId,
    accountId: batch.accountId,
    actor: SYSTEM,
    action: "update",
    entityType: "command-batch",
    entityId: batch.id,
    entityLabel: `${batch.type} × batch`,
    diff: {
      ended: { after: at.toISOString() },
      succeeded: { after: counts.succeeded },
      failed: { after: counts.failed },
      expired: { after: counts.expired },
      cancelled: { after: counts.cancelled },
    },
    deployable: false,
  }).run();
  if (counts.failed + counts.expired === 0) return true;
  await fleetEvent(env, {
    type: "command-batch.ended-with-failures",
    orgId: batch.orgId,
    // An organization-inventory batch has no account: no one's account preferences apply, webhooks still hear it.
    accountId: batch.accountId ?? "",
    subjectId: batch.id,
    label: batch.type,
    details: {
      commandType: batch.type,
      total: counts.total,
      succeeded: counts.succeeded,
      failed: counts.failed,
      expired: counts.expired,
    },
  });
  return true;
}

/** The sweep's part: every running batch with nothing left waiting ends now (the partial index keeps this small). */
export async function endFinishedBatches(env: Env, at = new Date()): Promise<number> {
  const rows = await all<{ id: string }>(
    env.DB,
    `SELECT id FROM command_batches WHERE ended_at IS NULL AND NOT EXISTS (${WAITING}) LIMIT 200`,
  );
  let ended = 0;
  for (const { id } of rows) if (await endBatchIfDone(env, id, at)) ended += 1;
  return ended;
}
