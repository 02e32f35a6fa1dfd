import type { SyncCounts } from "@/schema/fleet/sync-state";
import { formatNumber } from "@/schema/format";
import { usePage } from "@/server/render/page-context";

/** An account's radios by drift state (deploy's driftCounts), above its registry. */
export function DriftCountsStrip({ drift }: { drift: SyncCounts }) {
  const { t, language } = usePage();
  return (
    <section aria-labelledby="registry-drift" className="mb-4" data-slot="drift-counts">
      <h2 id="registry-drift" className="sr-only">
        {t("devices.registry.driftTitle")}
      </h2>
      <dl className="flex flex-wrap gap-x-6 gap-y-1 text-sm">
        {(["inSync", "pending", "neverDeployed", "failed", "drifted", "overdue"] as const).map((key) => (
          <div key={key} className="flex gap-1" data-count={key}>
            <dt className="text-slate-600">{t("devices.registry.countLabel", { label: t(`accountHome.drift.${key}`) })}</dt>
            <dd className="font-semibold text-slate-900">
              {formatNumber(language, key === "overdue" ? drift.contact.overdue : drift.sync[key])}
            </dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
