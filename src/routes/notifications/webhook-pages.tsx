import { formatUtcMinute } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { Delivery, Webhook } from "@/server/data/notifications";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { Table } from "@/ui/table";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { deleteWebhookHref, webhooksHref } from "./paths";

/**
 * One webhook's screens under its organization (issue 25): its delivery log, and the delete
 * confirmation. The webhook must belong to the organization in the path; another tenant's (or
 * another organization's) webhook is not found, like a missing one.
 */

type Listed = Omit<Webhook, "secret">;

async function webhookOfPath(c: RouteContext): Promise<{ orgId: string; webhook: Listed; deliveries: Delivery[] }> {
  const orgId = c.req.param("orgId") ?? "";
  const found = await api(c).notifications.deliveries({ id: (c.req.param("webhookId") ?? "").slice(0, 64) });
  if (found.webhook.orgId !== orgId) throw new AppError("NOT_FOUND");
  return { orgId, ...found };
}

type DeliveriesData = { orgId: string; webhook: Listed; deliveries: Delivery[] };

function DeliveriesPage({ data }: PageProps<DeliveriesData>) {
  const { t, language } = usePage();
  const { webhook, deliveries } = data;
  return (
    <SettingsLayout
      current="organizations"
      title={String(t("routes.webhookDeliveries"))}
      actions={
        <ButtonLink href={webhooksHref(data.orgId)} variant="white" size="sm">
          {t("notifications.webhooks.back")}
        </ButtonLink>
      }
    >
      <p className="mb-4 text-sm break-all text-slate-700">{t("notifications.webhooks.deliveriesLead", { url: webhook.url })}</p>
      <Table
        caption={String(t("routes.webhookDeliveries"))}
        rows={deliveries}
        rowKey={(d) => d.id}
        empty={<p className="text-sm text-slate-700">{t("notifications.webhooks.noDeliveries")}</p>}
        columns={[
          {
            key: "event",
            header: String(t("notifications.webhooks.columns.event")),
            cell: (d) => String(t(`notifications.choices.${d.event}`)),
          },
          {
            key: "status",
            header: String(t("notifications.webhooks.columns.status")),
            cell: (d) => <span data-delivery-status={d.status}>{t(`notifications.webhooks.statuses.${d.status}`)}</span>,
          },
          { key: "attempts", header: String(t("notifications.webhooks.columns.attempts")), cell: (d) => d.attempts },
          { key: "lastStatus", header: String(t("notifications.webhooks.columns.lastStatus")), cell: (d) => d.lastStatus ?? "—" },
          {
            key: "lastError",
            header: String(t("notifications.webhooks.columns.lastError")),
            cell: (d) => <span className="break-all">{d.lastError ?? "—"}</span>,
          },
          {
            key: "time",
            header: String(t("notifications.webhooks.columns.time")),
            cell: (d) => formatUtcMinute(language, d.updatedAt),
          },
        ]}
      />
    </SettingsLayout>
  );
}

/** …/webhooks/{orgId}/deliveries/{webhookId}: the latest deliveries, status, attempts, last HTTP status and error. */
export const webhookDeliveriesPage = definePage<DeliveriesData>({
  load: webhookOfPath,
  Component: DeliveriesPage,
});

function DeleteWebhook({ data }: PageProps<DeliveriesData>) {
  const { t } = usePage();
  return (
    <SettingsLayout current="organizations" title={String(t("routes.deleteWebhook"))}>
      <form method="post" action={deleteWebhookHref(data.orgId, data.webhook.id)} className="flex max-w-xl flex-col gap-4">
        <p className="text-sm break-all text-slate-900">{t("notifications.webhooks.deleteLead", { url: data.webhook.url })}</p>
        <div className="flex flex-wrap gap-2">
          <Button type="submit" variant="danger">
            {t("notifications.webhooks.deleteConfirm")}
          </Button>
          <ButtonLink href={webhooksHref(data.orgId)} variant="white">
            {t("notifications.webhooks.cancel")}
          </ButtonLink>
        </div>
      </form>
    </SettingsLayout>
  );
}

async function remove(c: RouteContext): Promise<ActionResult> {
  const { orgId, webhook } = await webhookOfPath(c);
  await api(c).notifications.deleteWebhook({ id: webhook.id });
  return { ok: true, redirect: webhooksHref(orgId), flash: { type: "success", key: "notifications.webhooks.deleted" } };
}

/** …/webhooks/{orgId}/delete/{webhookId}: asks before deleting (a plain form; no JavaScript needed). */
export const deleteWebhookPage = definePage<DeliveriesData>({
  load: webhookOfPath,
  Component: DeleteWebhook,
  action: remove,
});
