import { effectiveStatus } from "@/schema/subscriptions";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { definePage, type PageProps, type RouteContext } from "../types";
import { OrganizationPicker, orgIdOf, RowLink, Seats, StatusBadge } from "./seats-shared";

type Caller = ReturnType<typeof api>;
type Data = {
  orgId: string;
  organizations: Awaited<ReturnType<Caller["subscriptions"]["organizations"]>>["items"];
  list: Awaited<ReturnType<Caller["subscriptions"]["allocations"]>>;
};
type Row = Data["list"]["items"][number];

/** /settings/allocations?orgId=: per account of an organization, the seats it holds and the subscription they come from. */
function AllocationsList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { orgId, organizations, list } = data;
  const organizationName = organizations.find((organization) => organization.id === orgId)?.name ?? "";
  const allocate = list.canAllocate ? (
    <ButtonLink href={`/settings/allocations/allocate?orgId=${encodeURIComponent(orgId)}`}>
      {t("subscriptions.allocate")}
    </ButtonLink>
  ) : undefined;
  const about = (row: Row) => `${row.accountName} · ${row.plan}`;
  return (
    <SettingsLayout current="allocations" orgId={orgId} title={String(t("routes.settingsAllocations"))} actions={allocate}>
      <OrganizationPicker organizations={organizations} orgId={orgId} />
      <Table
        caption={String(t("allocations.caption", { organization: organizationName }))}
        rows={list.items}
        rowKey={(row) => row.id}
        empty={
          <EmptyState
            title={String(t("allocations.empty", { organization: organizationName }))}
            description={String(t("allocations.emptyHint"))}
            action={allocate}
          />
        }
        columns={[
          {
            key: "account",
            header: String(t("allocations.fields.account")),
            cell: (row) => <span className="font-medium">{row.accountName}</span>,
          },
          {
            key: "subscription",
            header: String(t("allocations.fields.subscription")),
            cell: (row) => (
              <>
                {row.plan}
                <span className="block text-xs text-slate-600">{row.subscriptionOrgName}</span>
              </>
            ),
          },
          { key: "seats", header: String(t("allocations.fields.seats")), cell: (row) => <Seats value={row.quantity} /> },
          {
            key: "status",
            header: String(t("subscriptions.fields.status")),
            cell: (row) => (
              <StatusBadge status={effectiveStatus({ status: row.subscriptionStatus, endsAt: row.subscriptionEndsAt })} />
            ),
          },
          {
            key: "actions",
            header: String(t("subscriptions.actions")),
            cell: (row) =>
              row.canChange ? (
                <span className="flex flex-wrap gap-x-4">
                  <RowLink
                    href={`/settings/subscriptions/editAllocation/${row.id}?from=allocations`}
                    text={String(t("allocations.edit"))}
                    about={about(row)}
                  />
                  <RowLink
                    href={`/settings/allocations/deallocate?allocationId=${row.id}`}
                    text={String(t("subscriptions.deallocate"))}
                    about={about(row)}
                  />
                </span>
              ) : null,
          },
        ]}
      />
    </SettingsLayout>
  );
}

async function load(c: RouteContext): Promise<Data> {
  const orgId = orgIdOf(c);
  const caller = api(c);
  const [organizations, list] = await Promise.all([
    caller.subscriptions.organizations(),
    caller.subscriptions.allocations({ orgId }),
  ]);
  return { orgId, organizations: organizations.items, list };
}

export const allocationsListPage = definePage<Data>({ load, Component: AllocationsList, toaster: true });
