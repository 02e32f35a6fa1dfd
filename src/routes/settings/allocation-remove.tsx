import { api } from "@/server/api/procedures-route";
import { AppError } from "@/server/errors";
import { usePage } from "@/server/render/page-context";
import { SettingsLayout } from "@/ui/shell/settings-layout";
import { definePage, type PageProps } from "../types";
import { deallocateSeats } from "./seat-actions";
import { DeallocateForm } from "./seat-forms";
import { allocationsHref, orgIdOf } from "./seats-shared";

type Caller = ReturnType<typeof api>;
type Allocation = Awaited<ReturnType<Caller["subscriptions"]["allocation"]>>["allocation"];
type Choice = Pick<Allocation, "id" | "accountName" | "plan" | "quantity">;

/** One allocation to confirm (?allocationId=, with its version), or a choice among an organization's (?orgId=). */
type Data = { orgId: string; chosen: Allocation | null; choices: Choice[] };

/** /settings/allocations/deallocate: takes an account's seats of a subscription back. */
function Deallocate({ data, form }: PageProps<Data>) {
  const { t } = usePage();
  const { chosen, choices, orgId } = data;
  const path = chosen
    ? `/settings/allocations/deallocate?allocationId=${encodeURIComponent(chosen.id)}`
    : `/settings/allocations/deallocate?orgId=${encodeURIComponent(orgId)}`;
  return (
    <SettingsLayout current="allocations" orgId={orgId} title={String(t("routes.deallocateFromAccount"))}>
      <DeallocateForm chosen={chosen} choices={choices} action={path} cancelHref={allocationsHref(orgId)} form={form} />
    </SettingsLayout>
  );
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
  action: (c) => deallocateSeats(c, { redirect: (allocation) => allocationsHref(allocation.accountOrgId) }),
  toaster: true,
});
