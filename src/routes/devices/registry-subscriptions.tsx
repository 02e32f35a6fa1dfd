import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { definePage, type PageProps } from "../types";
import { RegistryTabs } from "./frame";
import { registrySeatsHref } from "./registry-seats";

type ForAccount = Awaited<ReturnType<ReturnType<typeof api>["subscriptions"]["forAccount"]>>;
type Data = { account: AccountDetails; allocations: ForAccount; seats: { allocated: number; inUse: number; free: number } };

/**
 * /accounts/{id}/registry/subscriptions (view-subscriptions-in-accounts): the seats allocated
 * to the account, how many its radios use, and (for those who manage seats) allocate, take
 * back and edit them on the registry's own screens (registry-seats.tsx), in the account's frame.
 */
function RegistrySubscriptions({ data }: PageProps<Data>) {
  const { t, user } = usePage();
  const { account, allocations, seats } = data;
  const manage = user?.permissions["view-subscriptions-in-organizations"] && user.permissions["edit-accounts"];
  return (
    <AccountLayout account={account}>
      <RegistryTabs accountId={account._id} current="subscriptions" />
      <div className="mt-4">
        <PageHeader
          title={String(t("devices.registry.subscriptionsTitle"))}
          description={t("devices.registry.seats", seats)}
          actions={
            manage ? (
              <ButtonLink href={registrySeatsHref(account._id, "/allocate")}>{t("devices.registry.allocate")}</ButtonLink>
            ) : undefined
          }
        />
        {allocations.items.length === 0 ? (
          <p className="text-sm text-slate-600">{t("devices.registry.noAllocations")}</p>
        ) : (
          <ul className="divide-y divide-slate-100 rounded-lg border border-slate-200 bg-white text-sm">
            {allocations.items.map((item) => (
              <li key={item.id} className="flex flex-wrap items-center justify-between gap-2 px-4 py-2">
                <span>
                  {t("devices.registry.allocation", {
                    plan: item.plan,
                    organization: item.organizationName,
                    count: item.quantity,
                    quantity: item.quantity,
                  })}
                </span>
                {manage ? (
                  <span className="flex gap-4">
                    <a
                      href={registrySeatsHref(account._id, `/editAllocation/${encodeURIComponent(item.id)}`)}
                      className="font-medium text-brand-700 hover:underline"
                    >
                      {t("devices.registry.editAllocation")}
                      <span className="sr-only"> {item.plan}</span>
                    </a>
                    <a
                      href={registrySeatsHref(account._id, `/deallocate?allocationId=${encodeURIComponent(item.id)}`)}
                      className="font-medium text-red-700 hover:underline"
                    >
                      {t("subscriptions.deallocate")}
                      <span className="sr-only"> {item.plan}</span>
                    </a>
                  </span>
                ) : null}
              </li>
            ))}
          </ul>
        )}
      </div>
    </AccountLayout>
  );
}

export const registrySubscriptionsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const caller = api(c);
    const [account, allocations, seats] = await Promise.all([
      accountDetails(c, accountId),
      caller.subscriptions.forAccount({ accountId }),
      caller.devices.seats({ accountId }),
    ]);
    return { account, allocations, seats };
  },
  Component: RegistrySubscriptions,
});

/** /accounts/{id}/registry: the first tab the user may open. */
export const registryRedirectPage = definePage({
  load: async (c) => {
    const accountId = encodeURIComponent(c.req.param("accountId") ?? "");
    const can = c.get("user")?.permissions ?? {};
    const tab = can["view-devices-in-accounts"] ? "devices" : "subscriptions";
    return c.redirect(`/accounts/${accountId}/registry/${tab}`, 302);
  },
  Component: () => null,
});
