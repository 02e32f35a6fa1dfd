import { contactStates, type SyncCounts, syncStates } from "@/schema/fleet/sync-state";
import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";
import { CountedAt } from "./counted-at";
import { radiosInStateHref } from "./paths";

/**
 * An account's radios by sync state and by contact (the account home's numbers), above its
 * registry: each count links to the list filtered to those radios.
 */
export function DriftCountsStrip({ accountId, drift, timeZone }: { accountId: string; drift: SyncCounts; timeZone: string }) {
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
      <CountedAt asOf={drift.asOf} timeZone={timeZone} className="mt-1" />
    </section>
  );
}
