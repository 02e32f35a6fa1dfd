import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { definePage, type PageProps } from "../types";
import { saveAllocationSeats } from "./seat-actions";
import { AllocationEditForm } from "./seat-forms";
import { allocationsHref, subscriptionsHref } from "./seats-shared";

type Data = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["allocation"]>> & { fromAllocations: boolean };

/** Where the edit came from (the Allocations tab says so with ?from=allocations) is where it returns. */
function backHref(data: { allocation: Data["allocation"] }, fromAllocations: boolean): string {
  return fromAllocations ? allocationsHref(data.allocation.accountOrgId) : subscriptionsHref(data.allocation.subscriptionOrgId);
}

/** /settings/subscriptions/editAllocation/{allocationId}: sets how many seats of a subscription an account holds. */
function EditAllocation({ data, params, form }: PageProps<Data>) {
  const { t } = usePage();
  const { allocation, subscription } = data;
  const path = `/settings/subscriptions/editAllocation/${params.allocationId ?? ""}${data.fromAllocations ? "?from=allocations" : ""}`;
  return (
    <SettingsLayout
      current={data.fromAllocations ? "allocations" : "subscriptions"}
      orgId={data.fromAllocations ? allocation.accountOrgId : allocation.subscriptionOrgId}
      title={String(t("routes.editAllocation"))}
    >
      <AllocationEditForm
        allocation={allocation}
        free={subscription.free}
        action={path}
        cancelHref={backHref(data, data.fromAllocations)}
        form={form}
      />
    </SettingsLayout>
  );
}

export const allocationEditPage = definePage<Data>({
  load: async (c) => {
    const found = await api(c).subscriptions.allocation({ id: c.req.param("allocationId") ?? "" });
    if (!found.canAllocate) throw new AppError("FORBIDDEN");
    return { ...found, fromAllocations: c.req.query("from") === "allocations" };
  },
  Component: EditAllocation,
  action: (c) =>
    saveAllocationSeats(c, { redirect: (allocation) => backHref({ allocation }, c.req.query("from") === "allocations") }),
  toaster: true,
});
