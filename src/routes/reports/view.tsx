import { formatNumber, timeZoneLabel } from "@/schema/format";
import { isReportId, type ReportRow, type ReportTable, reportGroupings } from "@/schema/reports";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { translatorFor } from "@/server/i18n/i18n";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { BarChart, type Tone } from "@/ui/charts/bar-chart";
import { EmptyState } from "@/ui/empty-state";
import { Field, SelectField } from "@/ui/field";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { Table } from "@/ui/table";
import { firmwareDeploymentHref } from "../deployments/paths";
import { CountedAt } from "../devices/counted-at";
import { definePage, type PageProps } from "../types";
import { cellText, columnHeader, formatDay } from "./cells";
import { reportCsv } from "./csv";
import { reportHref, reportsHref } from "./paths";

type Report = Awaited<ReturnType<ReturnType<typeof api>["reports"]["get"]>>;
type Data = { account: AccountDetails; report: Report };

/** The chart draws at most this many bars; the table beside it lists every row. */
const MAX_BARS = 40;

// What each series means decides its colour (the patterns tell them apart without it).
const tones: Record<string, Tone> = {
  radios: "neutral",
  seats: "neutral",
  current: "good",
  old: "warn",
  unknown: "muted",
  inSync: "good",
  pending: "neutral",
  failed: "bad",
  drifted: "other",
  neverDeployed: "muted",
  recent: "good",
  overdue: "warn",
  neverSeen: "muted",
  day: "good",
  week: "neutral",
  month: "warn",
  older: "bad",
  never: "muted",
  applied: "good",
  inProgress: "neutral",
  notReported: "muted",
  rejected: "warn",
  succeeded: "good",
  expired: "warn",
  cancelled: "muted",
  waiting: "neutral",
  create: "good",
  update: "neutral",
  delete: "bad",
};

function ReportChart({ report, table }: { report: Report; table: ReportTable }) {
  const { t, language } = usePage();
  const category = table.columns.find((column) => column.key === table.category);
  const series = table.series.map((key) => {
    const column = table.columns.find((c) => c.key === key);
    return { key, label: column ? columnHeader(t, column) : key, tone: tones[key] ?? "neutral" };
  });
  const shown = table.rows.slice(0, MAX_BARS);
  // A category that is not a column of its own (a deployment's phase) names bars by its raw value.
  const bars = shown.map((row) => ({
    label: category ? cellText(t, language, category, row) : String(row[table.category] ?? ""),
    values: table.series.map((key) => Number(row[key] ?? 0)),
  }));
  const categoryTitle = category
    ? columnHeader(t, category)
    : table.columns
        .slice(0, 2)
        .map((column) => columnHeader(t, column))
        .join(" · ");
  const title = String(t(`reports.titles.${report.report}`));
  const description = [
    String(t("reports.chart.description", { by: categoryTitle, unit: String(t(table.unit)) })),
    table.rows.length > MAX_BARS ? String(t("reports.chart.firstBars", { shown: MAX_BARS, total: table.rows.length })) : "",
    String(t("reports.chart.seeTable")),
  ]
    .filter(Boolean)
    .join(" ");
  return (
    <figure className="mb-6 rounded-lg border border-slate-200 bg-white p-4 shadow-sm print:border-0 print:p-0 print:shadow-none">
      <BarChart
        id={`chart-${report.report}`}
        title={title}
        description={description}
        series={series}
        bars={bars}
        axisLabel={String(t(table.unit))}
        categoryLabel={categoryTitle}
        format={(value) => formatNumber(language, value)}
      />
      {table.rows.length > MAX_BARS && (
        <figcaption className="mt-2 text-sm text-slate-700">
          {t("reports.chart.firstBars", { shown: MAX_BARS, total: table.rows.length })}
        </figcaption>
      )}
    </figure>
  );
}

function Controls({ account, report }: Data) {
  const { t } = usePage();
  const groupings: readonly string[] = reportGroupings[report.report];
  const ranged = report.range !== null;
  if (groupings.length < 2 && !ranged) return null;
  return (
    <search className="print:hidden">
      <form method="get" action={reportHref(account._id, report.report)} className="mb-4 flex flex-wrap items-end gap-3">
        {groupings.length > 1 && (
          <SelectField
            label={String(t("reports.groupBy"))}
            name="by"
            defaultValue={report.by}
            options={groupings.map((value) => ({ value, label: String(t(`reports.groupings.${value}`)) }))}
            className="min-w-44"
          />
        )}
        {report.range && (
          <>
            <Field label={String(t("reports.from"))} name="from" type="date" defaultValue={report.range.from} required />
            <Field label={String(t("reports.to"))} name="to" type="date" defaultValue={report.range.to} required />
          </>
        )}
        <Button type="submit" variant="white">
          {t("reports.show")}
        </Button>
      </form>
    </search>
  );
}

function csvQuery(report: Report): string {
  const query = new URLSearchParams({ by: report.by });
  if (report.range) {
    query.set("from", report.range.from);
    query.set("to", report.range.to);
  }
  query.set("format", "csv");
  return `?${query}`;
}

/**
 * The firmware report's own column, for people who may create deployments: each version's
 * radios as the target of a firmware deployment (not in the CSV: it is an action, not a figure).
 */
function updateColumn(accountId: string, report: Report, label: string, canDeploy: boolean) {
  if (report.report !== "firmware" || !canDeploy) return [];
  return [
    {
      key: "update",
      header: label,
      cell: ({ row }: { row: ReportRow }) =>
        typeof row.version === "string" && row.version !== "" ? (
          <a
            href={firmwareDeploymentHref(accountId, { firmware: row.version })}
            className="font-medium text-brand-700 hover:underline"
            data-update-firmware={row.version}
          >
            {label}
            <span className="sr-only"> ({row.version})</span>
          </a>
        ) : (
          "—"
        ),
    },
  ];
}

function ReportView({ data }: PageProps<Data>) {
  const { t, language, user } = usePage();
  const { account, report } = data;
  const { table } = report;
  const title = String(t(`reports.titles.${report.report}`));
  const canDeploy = user?.permissions["create-deployments"] === true;
  return (
    <AccountLayout account={account}>
      <p className="mb-2 text-sm print:hidden">
        <a className="font-medium text-brand-700 hover:underline" href={reportsHref(account._id)}>
          {t("reports.allReports")}
        </a>
      </p>
      <PageHeader
        title={title}
        description={t(`reports.descriptions.${report.report}`)}
        actions={
          <ButtonLink
            href={reportHref(account._id, report.report, csvQuery(report))}
            variant="white"
            size="sm"
            download
            className="print:hidden"
          >
            {t("reports.downloadCsv")}
          </ButtonLink>
        }
      />
      <Controls account={account} report={report} />
      <p className="mb-4 text-sm text-slate-700">
        {report.range
          ? t("reports.rangeShown", {
              from: formatDay(language, report.range.from),
              to: formatDay(language, report.range.to),
              zone: timeZoneLabel(language, report.timeZone),
            })
          : t("reports.asOfNow", { zone: timeZoneLabel(language, report.timeZone) })}
      </p>
      <CountedAt asOf={table.asOf} timeZone={report.timeZone} className="mb-4" />
      <dl className="mb-6 flex flex-wrap gap-x-8 gap-y-2">
        {table.summary.map((item) => (
          <div key={item.label}>
            <dt className="text-sm text-slate-700">{t(item.label)}</dt>
            <dd className="text-2xl font-semibold text-slate-900">{formatNumber(language, item.value)}</dd>
          </div>
        ))}
      </dl>
      {table.rows.length > 0 && <ReportChart report={report} table={table} />}
      <Table<{ row: ReportRow; index: number }>
        caption={title}
        rows={table.rows.map((row, index) => ({ row, index }))}
        rowKey={({ index }) => String(index)}
        empty={<EmptyState title={String(t("reports.emptyTitle"))} description={String(t("reports.empty"))} />}
        columns={[
          ...table.columns.map((column) => ({
            key: column.key,
            header: columnHeader(t, column),
            cell: ({ row }: { row: ReportRow }) => (
              <span className={column.kind === "text" || column.kind === "day" ? "" : "tabular-nums"}>
                {cellText(t, language, column, row)}
              </span>
            ),
          })),
          ...updateColumn(account._id, report, String(t("reports.updateTheseRadios")), canDeploy),
        ]}
      />
    </AccountLayout>
  );
}

/**
 * /accounts/{accountId}/reports/{reportId}: one report as a chart, its figures and its table;
 * ?by= groups it, ?from=&to= (days in the account's time zone) bound the reports about events,
 * and ?format=csv downloads exactly the table shown.
 */
export const reportPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const reportId = c.req.param("reportId") ?? "";
    const query = (name: string) => c.req.query(name) || undefined;
    const [account, report] = await Promise.all([
      accountDetails(c, accountId),
      api(c).reports.get({ accountId, report: reportId, by: query("by"), from: query("from"), to: query("to") }),
    ]);
    if (c.req.query("format") === "csv" && isReportId(report.report)) {
      const t = translatorFor(c.get("language"), c.get("settings").brandNamespace);
      const dates = report.range ? `-${report.range.from}-${report.range.to}` : "";
      return reportCsv(t, report.table, `${report.report}-${report.by}${dates}.csv`);
    }
    return { account, report };
  },
  Component: ReportView,
  title: (data, t) => `${String(t(`reports.titles.${data.report.report}`))} · ${String(t("routes.reports"))}`,
});
