import { formatDateTime } from "@/schema/format";
import { usePage } from "@/server/render/page-context";

/**
 * When a large account's sync × contact counts were counted (its snapshot, data/sync-snapshots.ts),
 * said beside them; nothing for an account counted as the page is made.
 */
export function CountedAt({ asOf, timeZone, className = "" }: { asOf?: string | null; timeZone: string; className?: string }) {
  const { t, language } = usePage();
  if (!asOf) return null;
  return (
    <p className={`text-sm text-slate-600 ${className}`} data-slot="counted-at">
      {t("fleetStates.countedAt", { time: formatDateTime(language, asOf, timeZone) })}
    </p>
  );
}
