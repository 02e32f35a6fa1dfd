import type { ReactNode } from "react";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { Tabs } from "@/ui/tabs";

export type EditTab = "general" | "network";

export function editHref(accountId: string, tab: EditTab): string {
  return `/accounts/edit/${encodeURIComponent(accountId)}/${tab}`;
}

/**
 * The account settings screen around its tabs (spec §2: General and Network config, each a
 * route). A tab the user may not open is not shown; its route refuses them anyway.
 */
export function EditAccountLayout({
  accountId,
  accountName,
  current,
  children,
}: {
  accountId: string;
  accountName: string;
  current: EditTab;
  children: ReactNode;
}) {
  const { t, user } = usePage();
  const tabs = [
    { tab: "general" as const, label: String(t("accounts.tabs.general")), allowed: user?.permissions["edit-configurations"] },
    { tab: "network" as const, label: String(t("accounts.tabs.network")), allowed: user?.permissions["edit-network-config"] },
  ];
  return (
    <>
      <PageHeader
        title={String(t("routes.accountSettings"))}
        description={
          <a href={`/accounts/${encodeURIComponent(accountId)}`} className="font-medium text-brand-700 hover:underline">
            {accountName}
          </a>
        }
      />
      <Tabs
        label={String(t("accounts.tabs.label"))}
        items={tabs
          .filter((item) => item.allowed)
          .map((item) => ({ href: editHref(accountId, item.tab), label: item.label, current: item.tab === current }))}
      />
      <div className="mt-6">{children}</div>
    </>
  );
}
