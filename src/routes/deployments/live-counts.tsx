import { type ShownState, shownStates } from "@/schema/fleet/states";
import type { DeploymentCounts } from "@/server/data/deployments";
import { usePage } from "@/server/render/page-context";
import { LivePart } from "@/ui/live-part";
import { PlainScript } from "@/ui/plain-script";

type LiveCountsProps = {
  deploymentId: string;
  counts: DeploymentCounts;
  state: string;
  phaseIndex: number;
  /** Keep asking while the deployment can still change. */
  live: boolean;
};

/**
 * The per-state counts of a deployment, overall and per phase, rendered on the server (the
 * page's Refresh link updates them without JavaScript). While the deployment is active the page
 * links a plain script (src/enhance/live-counts.ts, no React) that asks again every two seconds,
 * writes the numbers into the cells named `data-count="total|<phase>:<state>"`, and on a change
 * of state or phase refreshes the page's live parts (badge, banner, buttons, this table's
 * headings, the state line). A finished deployment loads no script at all.
 */
export function LiveCounts({ deploymentId, counts, state, phaseIndex, live }: LiveCountsProps) {
  const { t, language, assets } = usePage();
  const n = (value: number | undefined) => (value ?? 0).toLocaleString(language);
  const phases = counts.phases.map((phase, i) => ({ ...phase, index: i }));
  const count = (where: string, s: ShownState, value: number | undefined) => (
    <td
      key={where}
      className="px-3 py-1.5 text-right tabular-nums"
      data-count={`${where}:${s}`}
      data-testid={where === "total" ? `count-${s}` : undefined}
    >
      {n(value)}
    </td>
  );
  return (
    <div data-live-counts={live ? deploymentId : undefined} data-state={state} data-phase={phaseIndex}>
      <p
        className="mb-2 text-sm text-slate-700"
        aria-live="polite"
        data-testid="deployment-live-state"
        data-live-text="deployment-live-state"
      >
        {t("deployments.liveState", { state: t(`deployments.states.${state}`), phase: phaseIndex + 1 })}
      </p>
      <LivePart name="deployment-counts" block>
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
                  <th key={phase.index} scope="col" className="px-3 py-2 text-right font-semibold">
                    {t("deployments.phaseTargeted", { phase: phase.index + 1, targeted: n(phase.targeted) })}
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
                  {count("total", s, counts.total[s])}
                  {phases.map((phase) => count(String(phase.index), s, phase.counts[s]))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      </LivePart>
      {live && <PlainScript script={assets.plainScripts.liveCounts} />}
    </div>
  );
}
