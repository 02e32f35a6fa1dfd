import type { FirmwareStage } from "@/schema/fleet/firmware-manifest";
import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";

/** The stages a radio goes through, in order, then where one failed (a failure at a stage, or the old firmware booted). */
export const shownStages: readonly FirmwareStage[] = [
  "downloading",
  "downloaded",
  "verified",
  "installing",
  "rebooting",
  "updated",
  "download",
  "verify",
  "install",
  "reboot",
  "booted-old",
];

const failureStages: ReadonlySet<FirmwareStage> = new Set(["download", "verify", "install", "reboot", "booted-old"]);

/**
 * "(on average 40 %)" beside the radios downloading; the live script (src/enhance/live-counts.ts)
 * writes the figure into its own span and hides the whole while none is downloading.
 */
function AverageProgress({ average }: { average: number | null }) {
  const { t, language } = usePage();
  const MARK = "\u0000";
  const [before = "", after = ""] = String(t("firmwareDeployment.averageProgress", { percent: MARK })).split(MARK);
  return (
    <span data-average-progress="" hidden={average === null}>
      {" "}
      {before}
      <span data-average-percent="">
        {formatNumber(language, (average ?? 0) / 100, { style: "percent", maximumFractionDigits: 0 })}
      </span>
      {after}
    </span>
  );
}

/**
 * A firmware deployment's radios by the stage they last reported (downloading with the average
 * progress of those downloading), and the failures by the stage they failed at; refreshed with
 * the page (its Refresh link), like the counts above it.
 */
export function FirmwareStages({
  stages,
  averageProgress,
}: {
  stages: Partial<Record<FirmwareStage, number>>;
  /** Of the radios downloading, the average progress in percent (null: none is downloading). */
  averageProgress: number | null;
}) {
  const { t, language } = usePage();
  return (
    <section aria-labelledby="stages-heading" data-slot="firmware-stages">
      <h2 id="stages-heading" className="mb-2 text-lg font-semibold">
        {t("firmwareDeployment.stagesHeading")}
      </h2>
      <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("firmwareDeployment.stagesHeading")}</caption>
          <thead className="bg-slate-50">
            <tr>
              <th scope="col" className="px-3 py-2 text-left font-semibold">
                {t("firmwareDeployment.stage")}
              </th>
              <th scope="col" className="px-3 py-2 text-right font-semibold">
                {t("firmwareDeployment.radios")}
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {shownStages.map((stage) => (
              <tr key={stage} data-stage={stage} className={failureStages.has(stage) ? "text-red-800" : undefined}>
                <th scope="row" className="px-3 py-1.5 text-left font-normal">
                  {t(`firmwareDeployment.stages.${stage}`)}
                  {stage === "downloading" ? <AverageProgress average={averageProgress} /> : null}
                </th>
                <td className="px-3 py-1.5 text-right tabular-nums" data-stage-count={stage}>
                  {formatNumber(language, stages[stage] ?? 0)}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
