import type { ReactNode } from "react";
import type { PermissionMap } from "@/schema/permissions";
import type { AccountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { Tabs } from "@/ui/tabs";
import { type SiteLocationTab, type SiteTab, siteHref, siteLocationHref, sitesHref } from "./paths";

/** The tabs a user may open (spec §6): General and Locations need edit-configurations, Network edit-network-config. */
export function allowedSiteTabs(permissions: PermissionMap): SiteTab[] {
  const tabs: SiteTab[] = [];
  if (permissions["edit-configurations"]) tabs.push("general", "locations");
  if (permissions["edit-network-config"]) tabs.push("network");
  return tabs;
}

export function allowedSiteLocationTabs(permissions: PermissionMap): SiteLocationTab[] {
  return allowedSiteTabs(permissions).filter((tab): tab is SiteLocationTab => tab !== "locations");
}

function BackLink({ href, children }: { href: string; children: ReactNode }) {
  return (
    <a href={href} className="font-medium text-brand-700 hover:underline">
      {children}
    </a>
  );
}

/** A site's screen around its tabs (spec §2: general, locations, network, each a route). */
export function SiteLayout({
  account,
  site,
  current,
  children,
}: {
  account: AccountDetails;
  site: { _id: string; name: string; address: string };
  current: SiteTab | null;
  children: ReactNode;
}) {
  const { t, user } = usePage();
  const tabs = allowedSiteTabs(user?.permissions ?? {}).map((tab) => ({
    href: siteHref(account._id, site._id, tab),
    label: String(t(`sites.tabs.${tab}`)),
    current: tab === current,
  }));
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={site.name}
        description={
          <>
            <BackLink href={sitesHref(account._id)}>{t("routes.sites")}</BackLink>
            {site.address ? ` · ${site.address}` : ""}
          </>
        }
      />
      <Tabs label={String(t("sites.tabs.label"))} items={tabs} />
      <div className="mt-6">{children}</div>
    </AccountLayout>
  );
}

/** A location seen from its site (spec §2: /sites/{siteId}/locations/{locationId}, tabs general and network). */
export function SiteLocationLayout({
  account,
  site,
  location,
  current,
  children,
}: {
  account: AccountDetails;
  site: { _id: string; name: string };
  location: { _id: string; name: string };
  current: SiteLocationTab;
  children: ReactNode;
}) {
  const { t, user } = usePage();
  const tabs = allowedSiteLocationTabs(user?.permissions ?? {}).map((tab) => ({
    href: siteLocationHref(account._id, site._id, location._id, tab),
    label: String(t(`locations.tabs.${tab}`)),
    current: tab === current,
  }));
  const siteLink = user?.permissions["edit-configurations"]
    ? siteHref(account._id, site._id, "locations")
    : siteHref(account._id, site._id);
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={location.name}
        description={
          <>
            {t("locations.inSite")} <BackLink href={siteLink}>{site.name}</BackLink>
          </>
        }
      />
      <Tabs label={String(t("locations.tabs.label"))} items={tabs} />
      <div className="mt-6">{children}</div>
    </AccountLayout>
  );
}
