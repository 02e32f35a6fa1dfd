import type { Deployment } from "../data/deployments";
import type { Env } from "../env";
import type { FleetEventName } from "./events";
import { fleetEvent } from "./fleet-event";

/** A deployment's event, as the engine raises it in one line (never throws: see fleetEvent). */
export function deploymentEvent(
  env: Env,
  d: Pick<Deployment, "id" | "orgId" | "accountId" | "number" | "phaseIndex">,
  type: FleetEventName,
  details: Record<string, string | number | null> = {},
): Promise<void> {
  return fleetEvent(env, {
    type,
    orgId: d.orgId,
    accountId: d.accountId,
    subjectId: d.id,
    label: `#${d.number}`,
    details: { phase: d.phaseIndex + 1, ...details },
  });
}
