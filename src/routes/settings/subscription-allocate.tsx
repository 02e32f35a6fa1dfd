import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { seatCount, seatsRefusal, seatsText, subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["accountChoices"]>> & { accountId: string };

const FIELDS = ["accountId", "quantity"] as const;

/** /settings/subscriptions/allocate?subscriptionId=: gives seats of a subscription to an account of its organization's tree. */
function AllocateFromSubscription({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { subscription, accounts } = data;
  const values = form?.values ?? {};
  const path = `/settings/subscriptions/allocate?subscriptionId=${encodeURIComponent(subscription.id)}`;
  return (
    <SettingsLayout current="subscriptions" orgId={subscription.orgId} title={String(t("routes.allocateSeats"))}>
      <p className="mb-6 text-slate-800">
        {t("subscriptions.freeSeats", {
          count: subscription.quantity,
          plan: subscription.plan,
          free: formatNumber(language, subscription.free),
          total: formatNumber(language, subscription.quantity),
        })}
      </p>
      {subscription.effectiveStatus !== "active" ? (
        <StatusMessage tone="info">{t("subscriptions.errors.notActive")}</StatusMessage>
      ) : accounts.length === 0 ? (
        <StatusMessage tone="info">{t("subscriptions.noAccounts")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: path,
            submitLabel: String(t("subscriptions.allocate")),
            cancel: { href: subscriptionsHref(subscription.orgId), text: String(t("subscriptions.cancel")) },
            errors: translatedErrors(form?.errors, t),
            fields: [
              {
                kind: "select",
                rule: "choice",
                name: "accountId",
                label: String(t("allocations.fields.account")),
                hint: String(t("subscriptions.accountHint")),
                value: values.accountId ?? data.accountId,
                options: [
                  { value: "", label: String(t("allocations.chooseAccount")) },
                  ...accounts.map((account) => ({ value: account.id, label: account.name })),
                ],
              },
              {
                kind: "number",
                name: "quantity",
                label: String(t("allocations.fields.seats")),
                hint: String(t("subscriptions.seatsHint", { free: formatNumber(language, subscription.free) })),
                value: values.quantity ?? "",
                rule: "seats",
              },
            ],
          }}
        />
      )}
    </SettingsLayout>
  );
}

async function allocate(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const allocation = await api(c).subscriptions.allocate({
      subscriptionId: c.req.query("subscriptionId") ?? "",
      accountId: values.accountId ?? "",
      quantity: seatCount(values.quantity),
    });
    return {
      ok: true,
      redirect: subscriptionsHref(allocation.subscriptionOrgId),
      flash: {
        type: "success",
        key: "subscriptions.allocated",
        values: {
          count: seatCount(values.quantity),
          seats: seatsText(c, seatCount(values.quantity)),
          account: allocation.accountName,
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: FIELDS });
  }
}

export const subscriptionAllocatePage = definePage<Data>({
  load: async (c) => {
    const choices = await api(c).subscriptions.accountChoices({ subscriptionId: c.req.query("subscriptionId") ?? "" });
    return { ...choices, accountId: c.req.query("accountId") ?? "" };
  },
  Component: AllocateFromSubscription,
  action: allocate,
  toaster: true,
});
