import type { ReactNode } from "react";
import { formatNumber } from "@/schema/format";
import { subscriptionStatuses } from "@/schema/subscriptions";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues } from "./procedure-refusal";
import { SeatsForm } from "./seat-forms";
import { Period, RowLink, Seats, StatusBadge, seatCount, seatsRefusal, subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["details"]>>;

const FIELDS = ["plan", "quantity", "startsAt", "endsAt", "status", "reference"] as const;

function Summary({ data }: { data: Data }) {
  const { t } = usePage();
  const { subscription } = data;
  const item = (label: string, value: ReactNode) => (
    <div>
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="font-medium text-slate-900">{value}</dd>
    </div>
  );
  return (
    <dl className="mb-8 grid gap-4 rounded-lg border border-slate-200 bg-white p-4 shadow-sm sm:grid-cols-3 lg:grid-cols-6">
      {item(String(t("subscriptions.organization")), data.organizationName)}
      {item(String(t("subscriptions.fields.quantity")), <Seats value={subscription.quantity} />)}
      {item(String(t("subscriptions.fields.allocated")), <Seats value={subscription.allocated} />)}
      {item(String(t("subscriptions.fields.free")), <Seats value={subscription.free} />)}
      {item(String(t("subscriptions.fields.period")), <Period startsAt={subscription.startsAt} endsAt={subscription.endsAt} />)}
      {item(String(t("subscriptions.fields.status")), <StatusBadge status={subscription.effectiveStatus} />)}
    </dl>
  );
}

function EditForm({ data, path, form }: { data: Data; path: string; form: PageProps<Data>["form"] }) {
  const { t, language } = usePage();
  const { subscription } = data;
  const values = form?.values ?? {};
  return (
    <SeatsForm
      action={path}
      submitLabel={String(t("subscriptions.save"))}
      cancelHref={subscriptionsHref(subscription.orgId)}
      form={form}
      reload
      fields={[
        // The version this edit was made on; a stale save answers CONFLICT (DESIGN.md §5).
        { kind: "hidden", name: "version", value: values.version ?? String(subscription.version) },
        {
          kind: "text",
          name: "plan",
          label: String(t("subscriptions.fields.plan")),
          value: values.plan ?? subscription.plan,
          rule: "plan",
        },
        {
          kind: "number",
          name: "quantity",
          label: String(t("subscriptions.fields.quantity")),
          hint: String(t("subscriptions.quantityFloor", { allocated: formatNumber(language, subscription.allocated) })),
          value: values.quantity ?? String(subscription.quantity),
          rule: "seats",
        },
        {
          kind: "date",
          name: "startsAt",
          label: String(t("subscriptions.fields.startsAt")),
          value: values.startsAt ?? subscription.startsAt,
          rule: "start",
        },
        {
          kind: "date",
          name: "endsAt",
          label: String(t("subscriptions.fields.endsAt")),
          hint: String(t("subscriptions.endsAtHint")),
          value: values.endsAt ?? subscription.endsAt ?? "",
          rule: "end",
        },
        {
          kind: "select",
          rule: "choice",
          name: "status",
          label: String(t("subscriptions.fields.status")),
          hint: String(t("subscriptions.statusHint")),
          value: values.status ?? subscription.status,
          options: subscriptionStatuses.map((status) => ({
            value: status,
            label: String(t(`subscriptions.statuses.${status}`)),
          })),
        },
        {
          kind: "text",
          name: "reference",
          label: String(t("subscriptions.fields.reference")),
          hint: String(t("subscriptions.referenceHint")),
          value: values.reference ?? subscription.reference,
          rule: "reference",
        },
      ]}
    />
  );
}

function Allocations({ data }: { data: Data }) {
  const { t } = usePage();
  const { subscription, allocations, canAllocate } = data;
  const allocate =
    canAllocate && subscription.effectiveStatus === "active" && subscription.free > 0 ? (
      <ButtonLink href={`/settings/subscriptions/allocate?subscriptionId=${subscription.id}`} variant="secondary">
        {t("subscriptions.allocate")}
      </ButtonLink>
    ) : null;
  return (
    <section aria-labelledby="allocations-heading" className="mt-10">
      <div className="mb-4 flex flex-wrap items-center justify-between gap-2">
        <h2 id="allocations-heading" className="text-lg font-semibold text-slate-900">
          {t("subscriptions.allocationsHeading")}
        </h2>
        {allocate}
      </div>
      <Table
        caption={String(t("subscriptions.allocationsCaption", { plan: subscription.plan }))}
        rows={allocations}
        rowKey={(row) => row.id}
        empty={<EmptyState title={String(t("subscriptions.noAllocations"))} />}
        columns={[
          { key: "account", header: String(t("allocations.fields.account")), cell: (row) => row.accountName },
          { key: "seats", header: String(t("allocations.fields.seats")), cell: (row) => <Seats value={row.quantity} /> },
          ...(canAllocate
            ? [
                {
                  key: "actions",
                  header: String(t("subscriptions.actions")),
                  cell: (row: Data["allocations"][number]) => (
                    <span className="flex flex-wrap gap-x-4">
                      <RowLink
                        href={`/settings/subscriptions/editAllocation/${row.id}`}
                        text={String(t("allocations.edit"))}
                        about={row.accountName}
                      />
                      <RowLink
                        href={`/settings/subscriptions/deallocate?subscriptionId=${subscription.id}&allocationId=${row.id}`}
                        text={String(t("subscriptions.deallocate"))}
                        about={row.accountName}
                      />
                    </span>
                  ),
                },
              ]
            : []),
        ]}
      />
    </section>
  );
}

/** /settings/subscriptions/edit/{subscriptionId}: the subscription (editable by its issuer) and the accounts holding its seats. */
function EditSubscription({ data, params, form }: PageProps<Data>) {
  const { t } = usePage();
  const path = `/settings/subscriptions/edit/${params.subscriptionId ?? ""}`;
  return (
    <SettingsLayout current="subscriptions" orgId={data.subscription.orgId} title={data.subscription.plan}>
      <Summary data={data} />
      {data.canIssue ? (
        <section aria-labelledby="edit-heading">
          <h2 id="edit-heading" className="mb-4 text-lg font-semibold text-slate-900">
            {t("routes.editSubscription")}
          </h2>
          <EditForm data={data} path={path} form={form} />
        </section>
      ) : (
        <p className="text-sm text-slate-700">{t("subscriptions.issuedAbove")}</p>
      )}
      <Allocations data={data} />
    </SettingsLayout>
  );
}

async function save(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const saved = await api(c).subscriptions.update({
      id: c.req.param("subscriptionId") ?? "",
      version: Number(values.version),
      plan: values.plan ?? "",
      quantity: seatCount(values.quantity),
      startsAt: values.startsAt ?? "",
      endsAt: values.endsAt?.trim() ? values.endsAt.trim() : null,
      status: values.status as (typeof subscriptionStatuses)[number],
      reference: values.reference ?? "",
    });
    return {
      ok: true,
      redirect: subscriptionsHref(saved.orgId),
      flash: { type: "success", key: "subscriptions.saved", values: { plan: saved.plan } },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: FIELDS });
  }
}

export const subscriptionEditPage = definePage<Data>({
  load: (c) => api(c).subscriptions.details({ id: c.req.param("subscriptionId") ?? "" }),
  Component: EditSubscription,
  action: save,
  toaster: true,
});
