import type { ReactNode } from "react";
import type { AccountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { Tabs } from "@/ui/tabs";
import { registryHref } from "./paths";

/** The registry's tabs (spec §2, §6): Devices, Subscriptions and Firmware (issue 26), each for its flag. */
export function RegistryTabs({ accountId, current }: { accountId: string; current: "devices" | "subscriptions" | "firmware" }) {
  const { t, user } = usePage();
  const can = (flag: "view-devices-in-accounts" | "view-subscriptions-in-accounts" | "manage-devices") =>
    user?.permissions[flag] === true;
  const items = [
    ...(can("view-devices-in-accounts")
      ? [
          {
            href: registryHref(accountId, "devices"),
            label: String(t("devices.registry.devicesTab")),
            current: current === "devices",
          },
        ]
      : []),
    ...(can("view-subscriptions-in-accounts")
      ? [
          {
            href: registryHref(accountId, "subscriptions"),
            label: String(t("devices.registry.subscriptionsTab")),
            current: current === "subscriptions",
          },
        ]
      : []),
    ...(can("manage-devices")
      ? [
          {
            href: registryHref(accountId, "firmware"),
            label: String(t("devices.registry.firmwareTab")),
            current: current === "firmware",
          },
        ]
      : []),
  ];
  return <Tabs label={String(t("accountShell.nav.registry"))} items={items} />;
}

/**
 * A device screen in its frame: the organization's inventory (a plain page), or an account's
 * registry (the account layout and the registry tabs).
 */
export function DeviceFrame({
  account,
  title,
  description,
  actions,
  children,
  tab = "devices",
}: {
  account: AccountDetails | null;
  tab?: "devices" | "firmware";
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const header = <PageHeader title={title} description={description} actions={actions} />;
  if (!account) {
    return (
      <>
        {header}
        {children}
      </>
    );
  }
  return (
    <AccountLayout account={account}>
      <RegistryTabs accountId={account._id} current={tab} />
      <div className="mt-4">
        {header}
        {children}
      </div>
    </AccountLayout>
  );
}
