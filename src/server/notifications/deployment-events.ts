import type { Deployment } from "../data/deployments";
import type { Env } from "../env";
import type { FleetEventName } from "./events";
import { fleetEvent } from "./fleet-event";

/** A deployment's event, as the engine raises it in one line (never throws: see fleetEvent). */
export function deploymentEvent(
  env: Env,
  d: Pick<Deployment, "id" | "orgId" | "accountId" | "number" | "phaseIndex"> & Partial<Pick<Deployment, "kind" | "package">>,
  type: FleetEventName,
  details: Record<string, string | number | null> = {},
): Promise<void> {
  // A firmware deployment's events say so, and which version (a receiver tells the two apart).
  const firmware: Record<string, string | null> =
    d.kind === "firmware" ? { kind: "firmware", firmware: d.package?.version ?? null } : {};
  return fleetEvent(env, {
    type,
    orgId: d.orgId,
    accountId: d.accountId,
    subjectId: d.id,
    label: `#${d.number}`,
    details: { phase: d.phaseIndex + 1, ...firmware, ...details },
  });
}
