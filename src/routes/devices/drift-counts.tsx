import { contactStates, type SyncCounts, syncStates } from "@/schema/fleet/sync-state";
import { formatNumber } from "@/schema/format";
import type { FirmwareDrift } from "@/server/data/firmware-drift";
import { usePage } from "@/server/render/page-context";
import { deploymentHref } from "../deployments/paths";
import { CountedAt } from "./counted-at";
import { radiosInStateHref, registryHref } from "./paths";

/**
 * Desired vs running firmware (issue 26): of the radios the newest firmware deployment holds,
 * those that run its version (linking the inventory filtered to it) and those on another one
 * (linking the deployment, whose radios list says where each one is).
 */
function FirmwareDriftCounts({ accountId, drift }: { accountId: string; drift: FirmwareDrift }) {
  const { t, language } = usePage();
  const deployment = drift.deployment;
  if (!deployment) return null;
  const inventory = `${registryHref(accountId, "devices")}?${new URLSearchParams({ firmware: deployment.version })}`;
  return (
    <dl className="mt-1 flex flex-wrap gap-x-6 gap-y-1 text-sm" data-slot="firmware-drift">
      <div className="flex gap-1">
        <dt className="text-slate-600">{t("devices.registry.firmwareDesired")}</dt>
        <dd className="font-semibold">
          <a href={deploymentHref(accountId, deployment.id)} className="text-brand-700 hover:underline">
            {t("devices.registry.firmwareDeployment", { version: deployment.version, number: deployment.number })}
          </a>
        </dd>
      </div>
      <div className="flex gap-1" data-count="firmware-runs">
        <dt className="text-slate-600">{t("devices.registry.firmwareRuns", { version: deployment.version })}</dt>
        <dd className="font-semibold">
          <a href={inventory} className="text-brand-700 hover:underline">
            {formatNumber(language, drift.runs)}
          </a>
        </dd>
      </div>
      <div className="flex gap-1" data-count="firmware-differs">
        <dt className="text-slate-600">{t("devices.registry.firmwareDiffers")}</dt>
        <dd className="font-semibold">
          <a href={deploymentHref(accountId, deployment.id)} className="text-brand-700 hover:underline">
            {formatNumber(language, drift.differs)}
          </a>
        </dd>
      </div>
    </dl>
  );
}

/**
 * An account's radios by sync state and by contact (the account home's numbers), above its
 * registry: each count links to the list filtered to those radios.
 */
export function DriftCountsStrip({
  accountId,
  drift,
  firmware = null,
  timeZone,
}: {
  accountId: string;
  drift: SyncCounts;
  firmware?: FirmwareDrift | null;
  timeZone: string;
}) {
  const { t, language } = usePage();
  const counts = [
    ...syncStates.map((state) => ({
      key: state,
      label: t(`fleetStates.sync.${state}`),
      value: drift.sync[state],
      href: radiosInStateHref(accountId, { sync: state }),
    })),
    ...contactStates.map((state) => ({
      key: state,
      label: t(`fleetStates.contact.${state}`),
      value: drift.contact[state],
      href: radiosInStateHref(accountId, { contact: state }),
    })),
  ];
  return (
    <section aria-labelledby="registry-drift" className="mb-4" data-slot="drift-counts">
      <h2 id="registry-drift" className="sr-only">
        {t("devices.registry.driftTitle")}
      </h2>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {counts.map((count, index) => (
          <div
            key={count.key}
            className={`flex gap-1 ${index === syncStates.length ? "sm:border-l sm:pl-6" : ""}`}
            data-count={count.key}
          >
            <dt className="text-slate-600">{t("devices.registry.countLabel", { label: count.label })}</dt>
            <dd className="font-semibold">
              <a href={count.href} className="text-brand-700 hover:underline">
                {formatNumber(language, count.value)}
              </a>
            </dd>
          </div>
        ))}
      </dl>
      {firmware ? <FirmwareDriftCounts accountId={accountId} drift={firmware} /> : null}
      <CountedAt asOf={drift.asOf} timeZone={timeZone} className="mt-1" />
    </section>
  );
}
