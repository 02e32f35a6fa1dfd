/**
 * The fleet events people and webhooks can be told about (issue 25). fleetEvent() in
 * fleet-event.ts sends them; the engine calls it where each happens:
 * - deployment.awaiting-approval: a deployment waits for a second person (approval, wired by its owner).
 * - deployment.paused: the deployment paused itself (reason: error-threshold or success-threshold).
 * - deployment.threshold-failed: a phase crossed its error threshold.
 * - deployment.finished: the last phase succeeded.
 * - deployment.rolled-back: a rollback deployment was confirmed (rollbackOf set).
 * - command-batch.ended-with-failures: a bulk command batch ended with failed or expired radios
 *   (src/server/fleet/batch-end.ts: once per batch, from the expiry sweep or the last report).
 * - webhook.test: the "send a test event" button; webhooks only, never mail.
 */
export const fleetEventNames = [
  "deployment.awaiting-approval",
  "deployment.paused",
  "deployment.threshold-failed",
  "deployment.finished",
  "deployment.rolled-back",
  "command-batch.ended-with-failures",
] as const;

export type FleetEventName = (typeof fleetEventNames)[number];
export type EventName = FleetEventName | "webhook.test";

export type FleetEvent = {
  type: EventName;
  orgId: string;
  accountId: string;
  /** What the event is about: a deployment or a batch id, its label ("#12"), and details. */
  subjectId: string;
  label: string;
  details?: Record<string, string | number | null>;
};

export function isFleetEventName(value: string): value is FleetEventName {
  return (fleetEventNames as readonly string[]).includes(value);
}
