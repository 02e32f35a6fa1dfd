import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { definePage, type PageProps } from "../types";
import { deallocateSeats } from "./seat-actions";
import { SeatsForm } from "./seat-forms";
import { subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["details"]>> & { allocationId: string };

/** /settings/subscriptions/deallocate?subscriptionId=[&allocationId=]: takes an account's seats of a subscription back. */
function DeallocateFromSubscription({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { subscription, allocations } = data;
  const values = form?.values ?? {};
  const path = `/settings/subscriptions/deallocate?subscriptionId=${encodeURIComponent(subscription.id)}`;
  return (
    <SettingsLayout current="subscriptions" orgId={subscription.orgId} title={String(t("routes.deallocateSeats"))}>
      <p className="mb-6 max-w-xl text-slate-800">{t("subscriptions.deallocateLead", { plan: subscription.plan })}</p>
      {allocations.length === 0 ? (
        <StatusMessage tone="info">{t("subscriptions.noAllocations")}</StatusMessage>
      ) : (
        <SeatsForm
          action={path}
          submitLabel={String(t("subscriptions.deallocateConfirm"))}
          variant="danger"
          cancelHref={subscriptionsHref(subscription.orgId)}
          form={form}
          fields={[
            {
              kind: "select",
              rule: "choice",
              name: "allocationId",
              label: String(t("allocations.fields.account")),
              value: values.allocationId ?? data.allocationId,
              options: [
                { value: "", label: String(t("allocations.chooseAccount")) },
                ...allocations.map((allocation) => ({
                  value: allocation.id,
                  label: String(
                    t("allocations.accountSeats", {
                      count: allocation.quantity,
                      account: allocation.accountName,
                      seats: formatNumber(language, allocation.quantity),
                    }),
                  ),
                })),
              ],
            },
          ]}
        />
      )}
    </SettingsLayout>
  );
}

export const subscriptionDeallocatePage = definePage<Data>({
  load: async (c) => {
    const details = await api(c).subscriptions.details({ id: c.req.query("subscriptionId") ?? "" });
    if (!details.canAllocate) throw new AppError("FORBIDDEN");
    return { ...details, allocationId: c.req.query("allocationId") ?? "" };
  },
  Component: DeallocateFromSubscription,
  action: (c) => deallocateSeats(c, { redirect: (allocation) => subscriptionsHref(allocation.subscriptionOrgId) }),
  toaster: true,
});
