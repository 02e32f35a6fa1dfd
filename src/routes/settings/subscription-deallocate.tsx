import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { seatsRefusal, seatsText, subscriptionsHref } from "./seats-shared";

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
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: path,
            submitLabel: String(t("subscriptions.deallocateConfirm")),
            variant: "danger",
            cancel: { href: subscriptionsHref(subscription.orgId), text: String(t("subscriptions.cancel")) },
            errors: translatedErrors(form?.errors, t),
            fields: [
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
            ],
          }}
        />
      )}
    </SettingsLayout>
  );
}

async function deallocate(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const caller = api(c);
  try {
    if (!values.allocationId)
      return { ok: false, status: 400, form: { values, errors: { allocationId: "validation.ChooseOne" } } };
    const { allocation } = await caller.subscriptions.allocation({ id: values.allocationId });
    await caller.subscriptions.deallocate({ id: allocation.id });
    return {
      ok: true,
      redirect: subscriptionsHref(allocation.subscriptionOrgId),
      flash: {
        type: "success",
        key: "subscriptions.deallocated",
        values: {
          count: allocation.quantity,
          seats: seatsText(c, allocation.quantity),
          account: allocation.accountName,
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: ["allocationId"], notFoundOnForm: true });
  }
}

export const subscriptionDeallocatePage = definePage<Data>({
  load: async (c) => {
    const details = await api(c).subscriptions.details({ id: c.req.query("subscriptionId") ?? "" });
    if (!details.canAllocate) throw new AppError("FORBIDDEN");
    return { ...details, allocationId: c.req.query("allocationId") ?? "" };
  },
  Component: DeallocateFromSubscription,
  action: deallocate,
  toaster: true,
});
