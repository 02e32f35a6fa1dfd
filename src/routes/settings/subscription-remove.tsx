import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { seatsRefusal, subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["details"]>>;

/** /settings/subscriptions/remove?id=: asks before removing a subscription; one with seats given out cannot go. */
function RemoveSubscription({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { subscription } = data;
  const back = subscriptionsHref(subscription.orgId);
  return (
    <SettingsLayout current="subscriptions" orgId={subscription.orgId} title={String(t("routes.removeSubscription"))}>
      <p className="mb-6 max-w-xl text-slate-800">
        {t("subscriptions.removeQuestion", { plan: subscription.plan, organization: data.organizationName })}
      </p>
      {subscription.allocated > 0 ? (
        <>
          <StatusMessage tone="info">
            {t("subscriptions.removeAllocatedFirst", { allocated: formatNumber(language, subscription.allocated) })}
          </StatusMessage>
          <ButtonLink href={`/settings/subscriptions/deallocate?subscriptionId=${subscription.id}`} variant="white">
            {t("subscriptions.deallocate")}
          </ButtonLink>
        </>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: `/settings/subscriptions/remove?id=${encodeURIComponent(subscription.id)}`,
            submitLabel: String(t("subscriptions.removeConfirm")),
            variant: "danger",
            cancel: { href: back, text: String(t("subscriptions.cancel")) },
            reload: {
              href: `/settings/subscriptions/remove?id=${encodeURIComponent(subscription.id)}`,
              text: String(t("settings.reloadCurrent")),
            },
            errors: translatedErrors(form?.errors, t),
            fields: [{ kind: "hidden", name: "version", value: String(subscription.version) }],
          }}
        />
      )}
    </SettingsLayout>
  );
}

async function remove(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  const caller = api(c);
  try {
    const { subscription } = await caller.subscriptions.details({ id: c.req.query("id") ?? "" });
    await caller.subscriptions.remove({ id: subscription.id, version: Number(values.version) });
    return {
      ok: true,
      redirect: subscriptionsHref(subscription.orgId),
      flash: { type: "success", key: "subscriptions.removed", values: { plan: subscription.plan } },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: [] });
  }
}

export const subscriptionRemovePage = definePage<Data>({
  load: async (c) => {
    const details = await api(c).subscriptions.details({ id: c.req.query("id") ?? "" });
    if (!details.canIssue) throw new AppError("FORBIDDEN");
    return details;
  },
  Component: RemoveSubscription,
  action: remove,
  toaster: true,
});
