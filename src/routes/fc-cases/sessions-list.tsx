import { definePage, type PageProps, type RouteContext } from "@/routes/types";
import { type FcStatus, fcStatuses } from "@/schema/fc-cases";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { FcSession } from "@/server/data/fc-sessions";
import type { Page } from "@/server/data/keyset";
import { usePage } from "@/server/render/page-context";
import { buttonClass } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Field, SelectField } from "@/ui/field";
import { Pager } from "@/ui/pager";
import { Table } from "@/ui/table";
import { FcFrame, PriorityBadge, StatusBadge, When } from "./frame";
import { fcAddSessionHref, fcSessionHref, fcSessionsCsvHref, fcSessionsHref } from "./paths";

export type SessionQuery = { status?: FcStatus; search: string; customerId?: string };

/** The list's filters from the URL; an unknown status is no filter. */
export function sessionQuery(c: RouteContext): SessionQuery {
  const status = c.req.query("status") ?? "";
  return {
    search: (c.req.query("search") ?? "").slice(0, 200),
    ...((fcStatuses as readonly string[]).includes(status) ? { status: status as FcStatus } : {}),
  };
}

export function queryString(q: SessionQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (q.status) params.set("status", q.status);
  if (q.search) params.set("search", q.search);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const text = params.toString();
  return text ? `?${text}` : "";
}

type Data = { account: AccountDetails; query: SessionQuery; page: Page<FcSession> };

/** The sessions table (also the customer's page shows it). */
export function SessionsTable({ accountId, timeZone, items }: { accountId: string; timeZone: string; items: FcSession[] }) {
  const { t } = usePage();
  return (
    <Table
      caption={String(t("fc.sessions.caption"))}
      rows={items}
      rowKey={(s) => s.id}
      empty={<EmptyState title={String(t("fc.sessions.empty"))} />}
      columns={[
        {
          key: "subject",
          header: String(t("fc.fields.subject")),
          cell: (s) => (
            <a href={fcSessionHref(accountId, s.id)} className="font-medium text-brand-700 hover:underline">
              {s.subject}
            </a>
          ),
        },
        { key: "status", header: String(t("fc.fields.status")), cell: (s) => <StatusBadge status={s.status} /> },
        { key: "priority", header: String(t("fc.fields.priority")), cell: (s) => <PriorityBadge priority={s.priority} /> },
        { key: "customer", header: String(t("fc.fields.customer")), cell: (s) => s.customerName ?? "—" },
        {
          key: "assignee",
          header: String(t("fc.fields.assignee")),
          cell: (s) => s.assigneeName ?? String(t("fc.sessions.unassigned")),
        },
        { key: "opened", header: String(t("fc.fields.opened")), cell: (s) => <When at={s.createdAt} timeZone={timeZone} /> },
      ]}
    />
  );
}

function SessionsList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, query, page } = data;
  return (
    <FcFrame
      account={account}
      tab="list-fc-sessions"
      title={String(t("routes.fcSessions"))}
      actions={
        <>
          <a href={fcSessionsCsvHref(account._id, queryString(query))} className={buttonClass("white")}>
            {t("fc.sessions.exportCsv")}
          </a>
          <a href={fcAddSessionHref(account._id)} className={buttonClass("primary")}>
            {t("fc.sessions.add")}
          </a>
        </>
      }
    >
      <form method="get" action={fcSessionsHref(account._id)} className="flex flex-wrap items-end gap-3">
        <Field label={String(t("fc.sessions.search"))} name="search" type="search" defaultValue={query.search} maxLength={200} />
        <SelectField
          label={String(t("fc.fields.status"))}
          name="status"
          defaultValue={query.status ?? ""}
          options={[
            { value: "", label: String(t("fc.sessions.anyStatus")) },
            ...fcStatuses.map((s) => ({ value: s, label: String(t(`fc.status.${s}`)) })),
          ]}
        />
        <button type="submit" className={buttonClass("secondary")}>
          {t("fc.sessions.filter")}
        </button>
      </form>
      <SessionsTable accountId={account._id} timeZone={account.timezone} items={page.items} />
      <Pager
        label={String(t("fc.sessions.pages"))}
        previous={{
          href: page.previous ? fcSessionsHref(account._id, queryString(query, { before: page.previous })) : null,
          label: String(t("workspace.list.previous")),
        }}
        next={{
          href: page.next ? fcSessionsHref(account._id, queryString(query, { after: page.next })) : null,
          label: String(t("workspace.list.next")),
        }}
      />
    </FcFrame>
  );
}

/** /accounts/:accountId/fc-cases/list-fc-sessions (view-fc-sessions): keyset pages, search, status. */
export const fcSessionsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const query = sessionQuery(c);
    const [account, page] = await Promise.all([
      accountDetails(c, accountId),
      api(c).fcCases.listSessions({
        accountId,
        ...query,
        after: c.req.query("after")?.slice(0, 1000),
        before: c.req.query("before")?.slice(0, 1000),
      }),
    ]);
    return { account, query, page };
  },
  Component: SessionsList,
});
