import type { Archive } from "@/server/data/archives";
import { usePage } from "@/server/render/page-context";

export const archiveHref = (accountId: string, archiveId: string) =>
  `/accounts/${encodeURIComponent(accountId)}/archives/${encodeURIComponent(archiveId)}`;

/**
 * The archived periods of a page's data (rows older than the account's retention, moved to
 * R2): one download link per archive, newest month first. Plain links: works without JavaScript.
 */
export function ArchiveList({
  accountId,
  archives,
  retentionMonths,
}: {
  accountId: string;
  archives: Archive[];
  retentionMonths: number;
}) {
  const { t, language } = usePage();
  if (archives.length === 0) return null;
  const month = new Intl.DateTimeFormat(language, { year: "numeric", month: "long", timeZone: "UTC" });
  const number = new Intl.NumberFormat(language);
  return (
    <section aria-labelledby="archives-heading" className="mt-8">
      <h2 id="archives-heading" className="text-lg font-semibold">
        {t("archives.heading")}
      </h2>
      <p className="mt-1 mb-3 text-sm text-slate-700">{t("archives.lead", { count: retentionMonths })}</p>
      <ul className="space-y-2">
        {archives.map((archive) => {
          const period = month.format(new Date(`${archive.month}-01T00:00:00Z`));
          const kind = String(t(`archives.kinds.${archive.kind}`));
          return (
            <li key={archive.id} className="flex flex-wrap items-baseline gap-x-3 text-sm">
              <a
                href={archiveHref(accountId, archive.id)}
                className="font-medium text-brand-700 hover:underline"
                download
                aria-label={String(t("archives.downloadLabel", { kind, period }))}
              >
                {t("archives.download", { kind, period })}
              </a>
              <span className="text-slate-600">
                {t("archives.size", {
                  count: archive.rows,
                  rows: number.format(archive.rows),
                  kilobytes: number.format(Math.max(1, Math.round(archive.bytes / 1024))),
                })}
              </span>
            </li>
          );
        })}
      </ul>
    </section>
  );
}
