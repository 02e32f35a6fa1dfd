import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { definePage, type PageProps } from "../types";
import { allocateSeats } from "./seat-actions";
import { accountField, SeatsForm, seatsField } from "./seat-forms";
import { subscriptionsHref } from "./seats-shared";

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
        <SeatsForm
          action={path}
          submitLabel={String(t("subscriptions.allocate"))}
          cancelHref={subscriptionsHref(subscription.orgId)}
          form={form}
          fields={[
            accountField(t, accounts, values.accountId ?? data.accountId, String(t("subscriptions.accountHint"))),
            seatsField(
              t,
              values.quantity ?? "",
              String(t("subscriptions.seatsHint", { free: formatNumber(language, subscription.free) })),
            ),
          ]}
        />
      )}
    </SettingsLayout>
  );
}

export const subscriptionAllocatePage = definePage<Data>({
  load: async (c) => {
    const choices = await api(c).subscriptions.accountChoices({ subscriptionId: c.req.query("subscriptionId") ?? "" });
    return { ...choices, accountId: c.req.query("accountId") ?? "" };
  },
  Component: AllocateFromSubscription,
  action: (c) =>
    allocateSeats(c, {
      fixed: { subscriptionId: c.req.query("subscriptionId") ?? "" },
      fields: FIELDS,
      redirect: (allocation) => subscriptionsHref(allocation.subscriptionOrgId),
    }),
  toaster: true,
});
