import { TRPCError } from "@trpc/server";
import type { ReportId } from "@/schema/reports";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Archive } from "@/server/data/archives";
import { usePage } from "@/server/render/page-context";
import { ArchiveList } from "@/ui/archives/archive-list";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { definePage, type PageProps } from "../types";
import { reportHref } from "./paths";

type Data = {
  account: AccountDetails;
  reports: { id: ReportId; available: boolean }[];
  /** Commands and deployment outcomes past the account's retention, moved to R2 (issue 24). */
  archives: Archive[];
};

function ReportsList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, reports } = data;
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.reports"))} description={t("reports.lead")} />
      <ul className="grid gap-4 sm:grid-cols-2" aria-label={String(t("routes.reports"))}>
        {reports.map((report) => (
          <li key={report.id} className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
            <h2 className="text-base font-semibold">
              <a className="text-brand-700 hover:underline" href={reportHref(account._id, report.id)}>
                {t(`reports.titles.${report.id}`)}
              </a>
            </h2>
            <p className="mt-1 text-sm text-slate-700">{t(`reports.descriptions.${report.id}`)}</p>
            {!report.available && (
              <p className="mt-2">
                <span className="inline-block rounded bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                  {t("reports.needsUpgrade")}
                </span>{" "}
                <span className="text-sm text-slate-700">{t("reports.needsUpgradeHint")}</span>
              </p>
            )}
          </li>
        ))}
      </ul>
      <ArchiveList accountId={account._id} archives={data.archives} retentionMonths={account.retentionMonths} />
    </AccountLayout>
  );
}

/** /accounts/{accountId}/reports: the eight reports; those the account's level lacks say so. */
export const reportsListPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, list, archives] = await Promise.all([
      accountDetails(c, accountId),
      api(c).reports.list({ accountId }),
      // Someone without the account's reports flag sees the list (each report says so), not the archives.
      api(c)
        .archives.reports({ accountId })
        .catch((error: unknown) => {
          if (error instanceof TRPCError && error.code === "FORBIDDEN") return [];
          throw error;
        }),
    ]);
    return { account, reports: list.reports, archives };
  },
  Component: ReportsList,
});
