import { formatDateTime } from "@/schema/format";
import type { FirmwareChange } from "@/server/data/firmware-history";
import type { DesiredFirmware } from "@/server/devices/desired-firmware";
import { usePage } from "@/server/render/page-context";
import { deploymentHref } from "../deployments/paths";

export type FirmwareHistoryPage = { items: FirmwareChange[]; next: string | null };

/**
 * What the radio should run: the firmware deployment that holds it (a link), its version, and
 * where the radio is on it (its stage, the download's progress), or that it has not reported yet.
 */
function DesiredFirmwareLine({ accountId, desired, running }: { accountId: string; desired: DesiredFirmware; running: string }) {
  const { t, language } = usePage();
  const report = desired.report;
  const where = report?.stage
    ? `${t(`firmwareDeployment.stages.${report.stage}`)}${
        report.stage === "downloading" && report.progress !== null
          ? ` (${new Intl.NumberFormat(language, { style: "percent" }).format(report.progress / 100)})`
          : ""
      }`
    : report
      ? t(`deployments.radioStates.${report.state}`)
      : t("devices.firmware.notReported");
  return (
    <p className="mb-2 text-sm text-slate-900" data-slot="desired-firmware" data-in-sync={desired.version === running}>
      {t("devices.firmware.desired", { version: desired.version })}{" "}
      <a href={deploymentHref(accountId, desired.deploymentId)} className="font-medium text-brand-700 hover:underline">
        {t("deployments.numbered", { number: desired.number })}
      </a>
      <span className="mx-1">·</span>
      {t("devices.firmware.stage", { stage: where })}
    </p>
  );
}

/**
 * A radio's firmware: the version it runs now and each change it reported, newest first
 * (device_firmware_history), paged by the time of the last change shown (?firmwareBefore=).
 */
export function FirmwareSection({
  firmware,
  desired,
  accountId,
  history,
  pagedFrom,
  here,
  timeZone,
}: {
  firmware: string;
  desired: DesiredFirmware | null;
  /** The radio's account (its deployments live there); null: in no account. */
  accountId: string | null;
  history: FirmwareHistoryPage;
  /** The page shown starts below this time (null: the newest). */
  pagedFrom: string | null;
  here: string;
  timeZone: string;
}) {
  const { t, language } = usePage();
  const none = String(t("devices.firmware.noneReported"));
  return (
    <section className="mt-6" aria-labelledby="radio-firmware" data-slot="radio-firmware">
      <h2 id="radio-firmware" className="mb-2 text-lg font-semibold text-slate-900">
        {t("devices.firmware.title")}
      </h2>
      <p className="mb-2 text-sm text-slate-900" data-slot="running-firmware">
        {t("devices.firmware.runs", { version: firmware || none })}
      </p>
      {desired && accountId ? (
        <DesiredFirmwareLine accountId={accountId} desired={desired} running={firmware} />
      ) : (
        <p className="mb-2 text-sm text-slate-600">{t("devices.firmware.desiredNone")}</p>
      )}
      {history.items.length === 0 ? (
        <p className="text-sm text-slate-600">{t("devices.firmware.historyNone")}</p>
      ) : (
        <div className="overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
          <table className="min-w-full divide-y divide-slate-200 text-sm" data-slot="firmware-history">
            <caption className="sr-only">{t("devices.firmware.history")}</caption>
            <thead className="bg-slate-50">
              <tr>
                {[t("devices.firmware.when"), t("devices.firmware.from"), t("devices.firmware.to")].map((label) => (
                  <th key={String(label)} scope="col" className="px-4 py-3 text-left font-semibold text-slate-700">
                    {label}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {history.items.map((change) => (
                <tr key={`${change.at}-${change.firmware}`}>
                  <td className="px-4 py-2">
                    <time dateTime={change.at}>{formatDateTime(language, change.at, timeZone)}</time>
                  </td>
                  <td className="px-4 py-2">{change.previous || none}</td>
                  <td className="px-4 py-2 font-medium">{change.firmware}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
      <nav aria-label={String(t("devices.firmware.history"))} className="mt-2 flex gap-3 text-sm">
        {pagedFrom ? (
          <a href={here} className="font-medium text-brand-700 hover:underline">
            {t("devices.firmware.newest")}
          </a>
        ) : null}
        {history.next ? (
          <a
            href={`${here}?${new URLSearchParams({ firmwareBefore: history.next })}`}
            rel="next"
            className="font-medium text-brand-700 hover:underline"
          >
            {t("devices.firmware.older")}
          </a>
        ) : null}
      </nav>
    </section>
  );
}
