import { useEffect, useState } from "react";
import { type ShownState, shownStates } from "@/schema/fleet/states";
import { refreshLiveParts } from "./runtime/live-parts";
import { type Messages, translate } from "./runtime/messages";

type Counts = {
  total: Partial<Record<ShownState, number>>;
  phases: { targeted: number; counts: Partial<Record<ShownState, number>> }[];
};

export type DeploymentCountsProps = {
  messages: Messages;
  deploymentId: string;
  counts: Counts;
  state: string;
  phaseIndex: number;
  /** Keep asking while the deployment can still change. */
  live: boolean;
};

const POLL_MS = 2000;

/**
 * The per-state counts of a deployment, overall and per phase. Rendered on the server (the
 * page's Refresh link updates it without JavaScript); in the browser it asks again every two
 * seconds while the deployment is active, and says when the state changed. A change of state or
 * phase (an automatic pause, an advance) also refreshes the page's badge, banner and buttons.
 */
export default function DeploymentCounts({
  messages,
  deploymentId,
  counts: initial,
  state: initialState,
  phaseIndex: initialPhase,
  live,
}: DeploymentCountsProps) {
  const [counts, setCounts] = useState(initial);
  const [state, setState] = useState(initialState);
  const [phaseIndex, setPhaseIndex] = useState(initialPhase);
  const [seen, setSeen] = useState(`${initialState}|${initialPhase}`);
  const t = (key: string, values?: Record<string, string | number>) => translate(messages, key, values);
  useEffect(() => {
    const now = `${state}|${phaseIndex}`;
    if (now === seen) return;
    setSeen(now);
    void refreshLiveParts().catch(() => undefined);
  }, [state, phaseIndex, seen]);
  const polling = live && ["scheduled", "running", "paused"].includes(state);
  useEffect(() => {
    if (!polling) return;
    let stopped = false;
    const tick = async () => {
      try {
        const input = encodeURIComponent(JSON.stringify({ id: deploymentId }));
        const response = await fetch(`/api/deployments.get?input=${input}`, { headers: { Accept: "application/json" } });
        if (response.ok) {
          const body = (await response.json()) as {
            result?: { data: { deployment: { state: string; phaseIndex: number }; counts: Counts } };
          };
          const data = body.result?.data;
          if (data && !stopped) {
            setCounts(data.counts);
            setState(data.deployment.state);
            setPhaseIndex(data.deployment.phaseIndex);
          }
        }
      } catch {
        // The next tick tries again.
      }
      if (!stopped) timer = setTimeout(tick, POLL_MS);
    };
    let timer = setTimeout(tick, POLL_MS);
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [deploymentId, polling]);
  const n = (value: number | undefined) => (value ?? 0).toLocaleString();
  const phases = counts.phases.map((phase, i) => ({ ...phase, number: i + 1 }));
  return (
    <div>
      <p className="mb-2 text-sm text-slate-700" aria-live="polite" data-testid="deployment-live-state">
        {t("deployments.liveState", { state: t(`deployments.states.${state}`), phase: phaseIndex + 1 })}
      </p>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("deployments.countsCaption")}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                {t("deployments.radioState")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("deployments.overall")}
              </th>
              {phases.map((phase) => (
                <th key={phase.number} scope="col" className="px-3 py-2 text-right font-semibold">
                  {t("deployments.phaseTargeted", { phase: phase.number, targeted: n(phase.targeted) })}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shownStates.map((s) => (
              <tr key={s} data-state={s}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {t(`deployments.radioStates.${s}`)}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums" data-testid={`count-${s}`}>
                  {n(counts.total[s])}
                </td>
                {phases.map((phase) => (
                  <td key={phase.number} className="px-3 py-1.5 text-right tabular-nums">
                    {n(phase.counts[s])}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export const deploymentCountsMessageKeys = [
  "deployments.liveState",
  "deployments.countsCaption",
  "deployments.radioState",
  "deployments.overall",
  "deployments.phaseTargeted",
  ...["scheduled", "running", "paused", "finished", "cancelled", "superseded"].map((s) => `deployments.states.${s}`),
  ...shownStates.map((s) => `deployments.radioStates.${s}`),
];
