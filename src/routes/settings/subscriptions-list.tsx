import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Pager } from "@/ui/pager";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { definePage, type PageProps, type RouteContext } from "../types";
import { OrganizationPicker, orgIdOf, Period, RowLink, Seats, StatusBadge, subscriptionsHref } from "./seats-shared";

type Caller = ReturnType<typeof api>;
type Data = {
  orgId: string;
  organizations: Awaited<ReturnType<Caller["subscriptions"]["organizations"]>>["items"];
  list: Awaited<ReturnType<Caller["subscriptions"]["list"]>>;
};
type Row = Data["list"]["items"][number];

/** /settings/subscriptions?orgId=: an organization's subscriptions, their seats and what one may do with them. */
function SubscriptionsList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { orgId, organizations, list } = data;
  const organizationName = organizations.find((organization) => organization.id === orgId)?.name ?? "";
  const addHref = `/settings/subscriptions/add?orgId=${encodeURIComponent(orgId)}`;
  const add = list.canIssue ? <ButtonLink href={addHref}>{t("subscriptions.add")}</ButtonLink> : undefined;

  const actions = (row: Row) => (
    <ul className="flex flex-wrap gap-x-4 gap-y-1">
      {list.canAllocate && row.effectiveStatus === "active" && row.free > 0 && (
        <li>
          <RowLink
            href={`/settings/subscriptions/allocate?subscriptionId=${row.id}`}
            text={String(t("subscriptions.allocate"))}
            about={row.plan}
          />
        </li>
      )}
      {list.canAllocate && row.allocated > 0 && (
        <li>
          <RowLink
            href={`/settings/subscriptions/deallocate?subscriptionId=${row.id}`}
            text={String(t("subscriptions.deallocate"))}
            about={row.plan}
          />
        </li>
      )}
      <li>
        <RowLink
          href={`/settings/subscriptions/edit/${row.id}`}
          text={String(t(list.canIssue ? "subscriptions.edit" : "subscriptions.view"))}
          about={row.plan}
        />
      </li>
      {list.canIssue && (
        <li>
          <RowLink
            href={`/settings/subscriptions/remove?id=${row.id}`}
            text={String(t("subscriptions.remove"))}
            about={row.plan}
          />
        </li>
      )}
    </ul>
  );

  return (
    <SettingsLayout current="subscriptions" orgId={orgId} title={String(t("routes.settingsSubscriptions"))} actions={add}>
      <OrganizationPicker organizations={organizations} orgId={orgId} />
      {list.total.count > 0 && (
        <p role="status" className="mb-2 text-sm text-slate-700">
          {t("subscriptions.list.count", {
            count: list.total.count,
            total: `${formatNumber(language, list.total.count)}${list.total.more ? "+" : ""}`,
          })}
        </p>
      )}
      <Table
        caption={String(t("subscriptions.caption", { organization: organizationName }))}
        rows={list.items}
        rowKey={(row) => row.id}
        empty={
          <EmptyState
            title={String(t("subscriptions.empty", { organization: organizationName }))}
            description={String(t(list.canIssue ? "subscriptions.emptyIssue" : "subscriptions.emptyAsk"))}
            action={add}
          />
        }
        columns={[
          {
            key: "plan",
            header: String(t("subscriptions.fields.plan")),
            cell: (row) => (
              <>
                <span className="font-medium text-slate-900">{row.plan}</span>
                {row.reference && <span className="block text-xs text-slate-600">{row.reference}</span>}
              </>
            ),
          },
          { key: "quantity", header: String(t("subscriptions.fields.quantity")), cell: (row) => <Seats value={row.quantity} /> },
          {
            key: "allocated",
            header: String(t("subscriptions.fields.allocated")),
            cell: (row) => <Seats value={row.allocated} />,
          },
          { key: "free", header: String(t("subscriptions.fields.free")), cell: (row) => <Seats value={row.free} /> },
          {
            key: "period",
            header: String(t("subscriptions.fields.period")),
            cell: (row) => <Period startsAt={row.startsAt} endsAt={row.endsAt} />,
          },
          {
            key: "status",
            header: String(t("subscriptions.fields.status")),
            cell: (row) => <StatusBadge status={row.effectiveStatus} />,
          },
          { key: "actions", header: String(t("subscriptions.actions")), cell: actions },
        ]}
      />
      {(list.next || list.previous) && (
        <Pager
          label={String(t("subscriptions.list.pages"))}
          previous={{
            href: list.previous ? pageHref(orgId, "before", list.previous) : null,
            label: String(t("subscriptions.list.previous")),
          }}
          next={{ href: list.next ? pageHref(orgId, "after", list.next) : null, label: String(t("subscriptions.list.next")) }}
        />
      )}
    </SettingsLayout>
  );
}

/** Another page of the same organization's list: the cursor lives in the URL, so it works without JavaScript. */
const pageHref = (orgId: string, direction: "after" | "before", cursor: string) =>
  `${subscriptionsHref(orgId)}&${direction}=${encodeURIComponent(cursor)}`;

async function load(c: RouteContext): Promise<Data> {
  const orgId = orgIdOf(c);
  const caller = api(c);
  // Keyset pages (DESIGN.md §8); a cursor that is not ours answers 400 from the procedure.
  const after = c.req.query("after") || undefined;
  const before = c.req.query("before") || undefined;
  const [organizations, list] = await Promise.all([
    caller.subscriptions.organizations(),
    caller.subscriptions.list({ orgId, after, before }),
  ]);
  return { orgId, organizations: organizations.items, list };
}

export const subscriptionsListPage = definePage<Data>({ load, Component: SubscriptionsList, toaster: true });
