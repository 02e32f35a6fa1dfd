import type { ReactNode } from "react";
import { definePage, type PageProps } from "@/routes/types";
import { fcPriorities, fcStatuses } from "@/schema/fc-cases";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Dashboard } from "@/server/data/fc-sessions";
import { usePage } from "@/server/render/page-context";
import { buttonClass } from "@/ui/button";
import { FcFrame, PriorityBadge, StatusBadge, When } from "./frame";
import { fcAddSessionHref, fcSessionHref, fcSessionsHref } from "./paths";

type Data = { account: AccountDetails; board: Dashboard };

/** Sessions opened and closed per day as an SVG bar chart: drawn on the server, no script. */
function PerDayChart({ days }: { days: Dashboard["perDay"] }) {
  const { t } = usePage();
  const max = Math.max(1, ...days.flatMap((d) => [d.opened, d.closed]));
  const w = 24;
  const h = 120;
  const width = days.length * w;
  const summary = String(
    t("fc.dashboard.chartSummary", {
      opened: days.reduce((n, d) => n + d.opened, 0),
      closed: days.reduce((n, d) => n + d.closed, 0),
      days: days.length,
    }),
  );
  return (
    <figure className="rounded-lg border border-slate-200 bg-white p-4">
      <svg role="img" aria-label={summary} viewBox={`0 0 ${width} ${h + 20}`} className="h-40 w-full" preserveAspectRatio="none">
        {days.map((d, i) => {
          const opened = (d.opened / max) * h;
          const closed = (d.closed / max) * h;
          return (
            <g key={d.day}>
              <title>{String(t("fc.dashboard.dayBar", { day: d.day, opened: d.opened, closed: d.closed }))}</title>
              <rect x={i * w + 3} y={h - opened} width={8} height={opened} className="fill-brand-600" />
              <rect x={i * w + 12} y={h - closed} width={8} height={closed} className="fill-slate-400" />
              {i % 2 === 0 ? (
                <text x={i * w + 2} y={h + 14} fontSize="8" className="fill-slate-600">
                  {d.day.slice(5)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      <figcaption className="mt-2 flex gap-4 text-sm text-slate-700">
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 bg-brand-600" />
          {t("fc.dashboard.opened")}
        </span>
        <span>
          <span aria-hidden="true" className="mr-1 inline-block h-3 w-3 bg-slate-400" />
          {t("fc.dashboard.closed")}
        </span>
        <span>{summary}</span>
      </figcaption>
    </figure>
  );
}

function Counts({ title, rows }: { title: string; rows: { key: string; label: ReactNode; count: number; href?: string }[] }) {
  const { t } = usePage();
  return (
    <section className="rounded-lg border border-slate-200 bg-white p-4">
      <h2 className="mb-2 font-semibold text-slate-900">{title}</h2>
      {rows.length === 0 ? (
        <p className="text-sm text-slate-600">{t("fc.dashboard.none")}</p>
      ) : (
        <dl className="grid grid-cols-[1fr_max-content] gap-1 text-sm">
          {rows.map((r) => (
            <div key={r.key} className="contents">
              <dt>
                {r.href ? (
                  <a href={r.href} className="text-brand-700 hover:underline">
                    {r.label}
                  </a>
                ) : (
                  r.label
                )}
              </dt>
              <dd className="text-right font-semibold tabular-nums">{r.count}</dd>
            </div>
          ))}
        </dl>
      )}
    </section>
  );
}

function FcDashboard({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, board } = data;
  const countOf = (list: { key: string | null; count: number }[], key: string) => list.find((r) => r.key === key)?.count ?? 0;
  return (
    <FcFrame
      account={account}
      tab="fc-dashboard"
      title={String(t("routes.fcDashboard"))}
      actions={
        <a href={fcAddSessionHref(account._id)} className={buttonClass("primary")}>
          {t("fc.sessions.add")}
        </a>
      }
    >
      <div className="grid gap-4 md:grid-cols-3">
        <Counts
          title={String(t("fc.dashboard.byStatus"))}
          rows={fcStatuses
            .filter((s) => s !== "closed")
            .map((s) => ({
              key: s,
              label: <StatusBadge status={s} />,
              count: countOf(board.byStatus, s),
              href: fcSessionsHref(account._id, `?status=${s}`),
            }))}
        />
        <Counts
          title={String(t("fc.dashboard.byPriority"))}
          rows={fcPriorities.map((p) => ({ key: p, label: <PriorityBadge priority={p} />, count: countOf(board.byPriority, p) }))}
        />
        <Counts
          title={String(t("fc.dashboard.byAssignee"))}
          rows={board.byAssignee.map((a) => ({
            key: a.key ?? "none",
            label: a.name ?? String(t("fc.sessions.unassigned")),
            count: a.count,
          }))}
        />
      </div>
      <section>
        <h2 className="mb-2 font-semibold text-slate-900">{t("fc.dashboard.perDay")}</h2>
        <PerDayChart days={board.perDay} />
      </section>
      <div className="grid gap-4 md:grid-cols-2">
        <section className="rounded-lg border border-slate-200 bg-white p-4" data-oldest-open>
          <h2 className="mb-2 font-semibold text-slate-900">{t("fc.dashboard.oldestOpen")}</h2>
          {board.oldestOpen.length === 0 ? (
            <p className="text-sm text-slate-600">{t("fc.dashboard.none")}</p>
          ) : (
            <ul className="flex flex-col gap-2 text-sm">
              {board.oldestOpen.map((s) => (
                <li key={s.id} className="flex flex-wrap items-center gap-2">
                  <a href={fcSessionHref(account._id, s.id)} className="font-medium text-brand-700 hover:underline">
                    {s.subject}
                  </a>
                  <StatusBadge status={s.status} />
                  <span className="text-slate-600">
                    <When at={s.createdAt} timeZone={account.timezone} />
                  </span>
                </li>
              ))}
            </ul>
          )}
        </section>
        <Counts
          title={String(t("fc.dashboard.repeatedRadios"))}
          rows={board.repeatedRadios.map((r) => ({ key: r.uid, label: r.name ? `${r.uid} · ${r.name}` : r.uid, count: r.count }))}
        />
      </div>
    </FcFrame>
  );
}

/** /accounts/:accountId/fc-cases/fc-dashboard (view-fc-sessions). */
export const fcDashboardPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, board] = await Promise.all([accountDetails(c, accountId), api(c).fcCases.dashboard({ accountId })]);
    return { account, board };
  },
  Component: FcDashboard,
});
