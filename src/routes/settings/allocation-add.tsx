import { api } from "@/server/api/procedures-route";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { definePage, type PageProps } from "../types";
import { allocateSeats } from "./seat-actions";
import { accountField, SeatsForm, seatsField, subscriptionField } from "./seat-forms";
import { allocationsHref, orgIdOf } from "./seats-shared";

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
        <SeatsForm
          action={path}
          submitLabel={String(t("subscriptions.allocate"))}
          cancelHref={allocationsHref(data.orgId)}
          form={form}
          fields={[
            accountField(t, data.accounts, values.accountId ?? data.accountId),
            subscriptionField(t, language, data.subscriptions, values.subscriptionId),
            seatsField(t, values.quantity ?? ""),
          ]}
        />
      )}
    </SettingsLayout>
  );
}

export const allocationAddPage = definePage<Data>({
  load: async (c) => {
    const orgId = orgIdOf(c);
    const choices = await api(c).subscriptions.allocationChoices({ orgId });
    return { ...choices, orgId, accountId: c.req.query("accountId") ?? "" };
  },
  Component: AllocateToAccount,
  action: (c) =>
    allocateSeats(c, { fixed: {}, fields: FIELDS, redirect: (allocation) => allocationsHref(allocation.accountOrgId) }),
  toaster: true,
});
