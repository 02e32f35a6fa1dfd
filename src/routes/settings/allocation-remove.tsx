import { Island } from "@/islands/runtime/island";
import type { SettingsField } from "@/islands/settings-form.island";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { StatusMessage } from "@/ui/status-message";
import { type ActionResult, definePage, type PageProps, type RouteContext } from "../types";
import { postedValues, translatedErrors } from "./procedure-refusal";
import { allocationsHref, orgIdOf, seatsRefusal, seatsText } from "./seats-shared";

type Caller = ReturnType<typeof api>;
type Allocation = Awaited<ReturnType<Caller["subscriptions"]["allocation"]>>["allocation"];
type Choice = Pick<Allocation, "id" | "accountName" | "plan" | "quantity">;

/** One allocation to confirm (?allocationId=, with its version), or a choice among an organization's (?orgId=). */
type Data = { orgId: string; chosen: Allocation | null; choices: Choice[] };

/** /settings/allocations/deallocate: takes an account's seats of a subscription back. */
function Deallocate({ data, form }: PageProps<Data>) {
  const { t, language } = usePage();
  const { chosen, choices, orgId } = data;
  const values = form?.values ?? {};
  const path = chosen
    ? `/settings/allocations/deallocate?allocationId=${encodeURIComponent(chosen.id)}`
    : `/settings/allocations/deallocate?orgId=${encodeURIComponent(orgId)}`;
  const label = (allocation: Choice) =>
    String(
      t("allocations.takeBackQuestion", {
        count: allocation.quantity,
        seats: formatNumber(language, allocation.quantity),
        plan: allocation.plan,
        account: allocation.accountName,
      }),
    );
  const fields: SettingsField[] = chosen
    ? [
        { kind: "hidden", name: "allocationId", value: chosen.id },
        { kind: "hidden", name: "version", value: String(chosen.version) },
      ]
    : [
        {
          kind: "select",
          rule: "choice",
          name: "allocationId",
          label: String(t("allocations.fields.allocation")),
          value: values.allocationId ?? "",
          options: [
            { value: "", label: String(t("allocations.chooseAllocation")) },
            ...choices.map((c) => ({ value: c.id, label: label(c) })),
          ],
        },
      ];
  return (
    <SettingsLayout current="allocations" orgId={orgId} title={String(t("routes.deallocateFromAccount"))}>
      {chosen && <p className="mb-6 max-w-xl text-slate-800">{label(chosen)}</p>}
      {!chosen && choices.length === 0 ? (
        <StatusMessage tone="info">{t("allocations.nothingToTakeBack")}</StatusMessage>
      ) : (
        <Island
          name="settings-form"
          props={{
            networkErrorKey: "subscriptions.networkError",
            action: path,
            submitLabel: String(t("subscriptions.deallocateConfirm")),
            variant: "danger",
            cancel: { href: allocationsHref(orgId), text: String(t("subscriptions.cancel")) },
            reload: { href: path, text: String(t("settings.reloadCurrent")) },
            errors: translatedErrors(form?.errors, t),
            fields,
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
    await caller.subscriptions.deallocate({ id: allocation.id, version: values.version ? Number(values.version) : undefined });
    return {
      ok: true,
      redirect: allocationsHref(allocation.accountOrgId),
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

export const allocationRemovePage = definePage<Data>({
  load: async (c) => {
    if (!c.get("user")?.permissions["edit-accounts"]) throw new AppError("FORBIDDEN");
    const caller = api(c);
    const allocationId = c.req.query("allocationId");
    if (allocationId) {
      const { allocation } = await caller.subscriptions.allocation({ id: allocationId });
      return { orgId: allocation.accountOrgId, chosen: allocation, choices: [] };
    }
    const orgId = orgIdOf(c);
    const { items } = await caller.subscriptions.allocations({ orgId });
    return { orgId, chosen: null, choices: items.filter((item) => item.canChange) };
  },
  Component: Deallocate,
  action: deallocate,
  toaster: true,
});
