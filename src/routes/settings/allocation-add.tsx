import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { allocationsHref, orgIdOf, seatCount, seatsRefusal, seatsText } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["allocationChoices"]>> & {
  orgId: string;
  accountId: string;
};

const FIELDS = ["accountId", "subscriptionId", "quantity"] as const;

/** /settings/allocations/allocate?orgId=[&accountId=]: gives an account seats of a subscription of its organization or above. */
function AllocateToAccount({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const values = form?.values ?? {};
  const path = `/settings/allocations/allocate?orgId=${encodeURIComponent(data.orgId)}`;
  const ready = data.accounts.length > 0 && data.subscriptions.length > 0;
  return (
    <SettingsLayout current="allocations" orgId={data.orgId} title={String(t("routes.allocateToAccount"))}>
      {!ready ? (
        <StatusMessage tone="info">
          {t(data.accounts.length === 0 ? "subscriptions.noAccounts" : "allocations.noSubscriptions")}
        </StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: path,
            submitLabel: String(t("subscriptions.allocate")),
            cancel: { href: allocationsHref(data.orgId), text: String(t("subscriptions.cancel")) },
            errors: translatedErrors(form?.errors, t),
            fields: [
              {
                kind: "select",
                rule: "choice",
                name: "accountId",
                label: String(t("allocations.fields.account")),
                value: values.accountId ?? data.accountId,
                options: [
                  { value: "", label: String(t("allocations.chooseAccount")) },
                  ...data.accounts.map((account) => ({ value: account.id, label: account.name })),
                ],
              },
              {
                kind: "select",
                rule: "choice",
                name: "subscriptionId",
                label: String(t("allocations.fields.subscription")),
                value: values.subscriptionId ?? (data.subscriptions.length === 1 ? (data.subscriptions[0]?.id ?? "") : ""),
                options: [
                  { value: "", label: String(t("allocations.chooseSubscription")) },
                  ...data.subscriptions.map((subscription) => ({
                    value: subscription.id,
                    label: String(
                      t("allocations.subscriptionOption", {
                        plan: subscription.plan,
                        organization: subscription.organizationName,
                        free: formatNumber(language, subscription.free),
                      }),
                    ),
                  })),
                ],
              },
              {
                kind: "number",
                name: "quantity",
                label: String(t("allocations.fields.seats")),
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
      subscriptionId: values.subscriptionId ?? "",
      accountId: values.accountId ?? "",
      quantity: seatCount(values.quantity),
    });
    return {
      ok: true,
      redirect: allocationsHref(allocation.accountOrgId),
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

export const allocationAddPage = definePage<Data>({
  load: async (c) => {
    const orgId = orgIdOf(c);
    const choices = await api(c).subscriptions.allocationChoices({ orgId });
    return { ...choices, orgId, accountId: c.req.query("accountId") ?? "" };
  },
  Component: AllocateToAccount,
  action: allocate,
  toaster: true,
});
