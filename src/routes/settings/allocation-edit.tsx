import { Island } from "@/islands/runtime/island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { allocationsHref, seatCount, seatsRefusal, seatsText, subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["allocation"]>> & { fromAllocations: boolean };

/** Where the edit came from (the Allocations tab says so with ?from=allocations) is where it returns. */
function backHref(data: { allocation: Data["allocation"] }, fromAllocations: boolean): string {
  return fromAllocations ? allocationsHref(data.allocation.accountOrgId) : subscriptionsHref(data.allocation.subscriptionOrgId);
}

/** /settings/subscriptions/editAllocation/{allocationId}: sets how many seats of a subscription an account holds. */
function EditAllocation({ data, params, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { allocation, subscription } = data;
  const values = form?.values ?? {};
  const path = `/settings/subscriptions/editAllocation/${params.allocationId ?? ""}${data.fromAllocations ? "?from=allocations" : ""}`;
  return (
    <SettingsLayout
      current={data.fromAllocations ? "allocations" : "subscriptions"}
      orgId={data.fromAllocations ? allocation.accountOrgId : allocation.subscriptionOrgId}
      title={String(t("routes.editAllocation"))}
    >
      <p className="mb-6 max-w-xl text-slate-800">
        {t("allocations.holds", {
          count: allocation.quantity,
          account: allocation.accountName,
          seats: formatNumber(language, allocation.quantity),
          plan: allocation.plan,
        })}{" "}
        {t("allocations.moreFree", { count: Math.max(subscription.free, 0), free: formatNumber(language, subscription.free) })}
      </p>
      <Island
        name="settings-form"
        props={{
          networkErrorKey: "subscriptions.networkError",
          action: path,
          submitLabel: String(t("subscriptions.save")),
          cancel: { href: backHref(data, data.fromAllocations), text: String(t("subscriptions.cancel")) },
          reload: { href: path, text: String(t("settings.reloadCurrent")) },
          errors: translatedErrors(form?.errors, t),
          fields: [
            { kind: "hidden", name: "version", value: values.version ?? String(allocation.version) },
            {
              kind: "number",
              name: "quantity",
              label: String(t("allocations.fields.seats")),
              hint: String(
                t("allocations.seatsUpTo", {
                  count: allocation.quantity + Math.max(subscription.free, 0),
                  max: formatNumber(language, allocation.quantity + Math.max(subscription.free, 0)),
                }),
              ),
              value: values.quantity ?? String(allocation.quantity),
              rule: "seats",
            },
          ],
        }}
      />
    </SettingsLayout>
  );
}

async function save(c: RouteContext): Promise<ActionResult> {
  const values = await postedValues(c);
  try {
    const allocation = await api(c).subscriptions.updateAllocation({
      id: c.req.param("allocationId") ?? "",
      version: Number(values.version),
      quantity: seatCount(values.quantity),
    });
    return {
      ok: true,
      redirect: backHref({ allocation }, c.req.query("from") === "allocations"),
      flash: {
        type: "success",
        key: "allocations.saved",
        values: {
          count: allocation.quantity,
          account: allocation.accountName,
          seats: seatsText(c, allocation.quantity),
          plan: allocation.plan,
        },
      },
    };
  } catch (error) {
    return seatsRefusal(error, values, { fields: ["quantity"], notFoundOnForm: true });
  }
}

export const allocationEditPage = definePage<Data>({
  load: async (c) => {
    const found = await api(c).subscriptions.allocation({ id: c.req.param("allocationId") ?? "" });
    if (!found.canAllocate) throw new AppError("FORBIDDEN");
    return { ...found, fromAllocations: c.req.query("from") === "allocations" };
  },
  Component: EditAllocation,
  action: save,
  toaster: true,
});
