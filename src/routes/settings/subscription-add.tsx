import { Island } from "@/islands/runtime/island";
import { today } from "@/schema/subscriptions";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import {
  organizationOptions,
  orgIdOf,
  type PickerOrganization,
  seatCount,
  seatsRefusal,
  subscriptionsHref,
} from "./seats-shared";

type Data = { orgId: string; issuable: PickerOrganization[] };

const PATH = "/settings/subscriptions/add";
const FIELDS = ["orgId", "plan", "quantity", "startsAt", "endsAt", "reference"] as const;

/** /settings/subscriptions/add?orgId=: issues seats to an organization below the caller's own. */
function AddSubscription({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const values = form?.values ?? {};
  return (
    <SettingsLayout current="subscriptions" orgId={data.orgId} title={String(t("routes.addSubscription"))}>
      {data.issuable.length === 0 ? (
        <StatusMessage tone="info">{t("subscriptions.noIssuable")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: PATH,
            submitLabel: String(t("subscriptions.add")),
            cancel: { href: subscriptionsHref(data.orgId), text: String(t("subscriptions.cancel")) },
            errors: translatedErrors(form?.errors, t),
            fields: [
              {
                kind: "select",
                rule: "choice",
                name: "orgId",
                label: String(t("subscriptions.organization")),
                value: values.orgId ?? data.orgId,
                options: organizationOptions(data.issuable),
              },
              {
                kind: "text",
                name: "plan",
                label: String(t("subscriptions.fields.plan")),
                value: values.plan ?? "",
                rule: "plan",
              },
              {
                kind: "number",
                name: "quantity",
                label: String(t("subscriptions.fields.quantity")),
                hint: String(t("subscriptions.quantityHint")),
                value: values.quantity ?? "",
                rule: "seats",
              },
              {
                kind: "date",
                name: "startsAt",
                label: String(t("subscriptions.fields.startsAt")),
                value: values.startsAt ?? today(),
                rule: "start",
              },
              {
                kind: "date",
                name: "endsAt",
                label: String(t("subscriptions.fields.endsAt")),
                hint: String(t("subscriptions.endsAtHint")),
                value: values.endsAt ?? "",
                rule: "end",
              },
              {
                kind: "text",
                name: "reference",
                label: String(t("subscriptions.fields.reference")),
                hint: String(t("subscriptions.referenceHint")),
                value: values.reference ?? "",
                rule: "reference",
              },
            ],
          }}
        />
      )}
    </SettingsLayout>
  );
}

async function add(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const added = await api(c).subscriptions.add({
      orgId: values.orgId ?? "",
      plan: values.plan ?? "",
      quantity: seatCount(values.quantity),
      startsAt: values.startsAt ?? "",
      endsAt: values.endsAt?.trim() ? values.endsAt.trim() : null,
      reference: values.reference ?? "",
    });
    return {
      ok: true,
      redirect: subscriptionsHref(added.orgId),
      flash: { type: "success", key: "subscriptions.added", values: { plan: added.plan } },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: FIELDS });
  }
}

export const subscriptionAddPage = definePage<Data>({
  load: async (c) => {
    if (!c.get("user")?.permissions["edit-accounts"]) throw new AppError("FORBIDDEN");
    const { items } = await api(c).subscriptions.organizations();
    const issuable = items.filter((organization) => organization.canIssue);
    const wanted = orgIdOf(c);
    const orgId = issuable.find((organization) => organization.id === wanted)?.id ?? issuable[0]?.id ?? wanted;
    return { orgId, issuable };
  },
  Component: AddSubscription,
  action: add,
  toaster: true,
});
