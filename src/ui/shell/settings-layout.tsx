import type { ReactNode } from "react";
import type { PermissionMap } from "@/schema/permissions";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "../page-header";
import { Tabs } from "../tabs";

export type SettingsTab = "organizations" | "users" | "api-tokens" | "subscriptions" | "allocations";

/**
 * The settings area's tabs (spec §2, §6): Organizations for every signed-in user, Users and API tokens
 * with edit-users, Subscriptions and Allocations with view-subscriptions-in-organizations; those two
 * carry the orgId query parameter. A pure function, so pages and tests agree on it.
 */
export function settingsTabs(permissions: PermissionMap, orgId: string | null): { id: SettingsTab; href: string }[] {
  const query = orgId ? `?orgId=${encodeURIComponent(orgId)}` : "";
  const tabs: { id: SettingsTab; href: string; open: boolean }[] = [
    { id: "organizations", href: "/settings/organizations", open: true },
    { id: "users", href: "/settings/users", open: permissions["edit-users"] === true },
    { id: "api-tokens", href: "/settings/api-tokens", open: permissions["edit-users"] === true },
    {
      id: "subscriptions",
      href: `/settings/subscriptions${query}`,
      open: permissions["view-subscriptions-in-organizations"] === true,
    },
    {
      id: "allocations",
      href: `/settings/allocations${query}`,
      open: permissions["view-subscriptions-in-organizations"] === true,
    },
  ];
  return tabs.filter((tab) => tab.open).map(({ id, href }) => ({ id, href }));
}

type Props = {
  current: SettingsTab;
  /** The organization the Subscriptions and Allocations tabs look at (?orgId=). */
  orgId?: string | null;
  /** The page's own title (translated) and its actions, under the tabs. */
  title: string;
  actions?: ReactNode;
  children: ReactNode;
};

/** Wraps every settings page: the area's heading, its tabs, then the page. */
export function SettingsLayout({ current, orgId = null, title, actions, children }: Props) {
  const { t, user } = usePage();
  const tabs = settingsTabs(user?.permissions ?? {}, orgId);
  return (
    <>
      <p className="mb-2 text-sm font-medium text-slate-600">{t("settings.area")}</p>
      <Tabs
        label={String(t("settings.tabsLabel"))}
        items={tabs.map((tab) => ({ href: tab.href, label: String(t(`settings.tabs.${tab.id}`)), current: tab.id === current }))}
      />
      <div className="mt-6">
        <PageHeader title={title} actions={actions} />
        {children}
      </div>
    </>
  );
}
