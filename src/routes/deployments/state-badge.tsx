import type { DeploymentState } from "@/schema/fleet/deployment-plan";
import { usePage } from "@/server/render/page-context";

const tones: Record<DeploymentState, string> = {
  scheduled: "bg-slate-100 text-slate-800",
  running: "bg-blue-100 text-blue-900",
  paused: "bg-amber-100 text-amber-900",
  finished: "bg-green-100 text-green-900",
  cancelled: "bg-slate-200 text-slate-800",
  superseded: "bg-slate-100 text-slate-700",
};

export function StateBadge({ state }: { state: DeploymentState }) {
  const { t } = usePage();
  return (
    <span className={`inline-block rounded px-2 py-0.5 text-xs font-semibold ${tones[state]}`}>
      {t(`deployments.states.${state}`)}
    </span>
  );
}

/** A deployment waiting for a second person's approval (it is scheduled, but nothing starts it). */
export function AwaitingApprovalBadge() {
  const { t } = usePage();
  return (
    <span className="inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
      {t("deployments.approval.badge")}
    </span>
  );
}
