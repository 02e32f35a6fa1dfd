import { definePage, type PageProps, tabTitle } from "@/routes/types";
import type { NetworkAtLevel } from "@/server/api/network-levels";
import { api } from "@/server/api/procedures-route";
import type { AccountDetails } from "@/server/current-account";
import type { Location } from "@/server/data/locations";
import type { Site } from "@/server/data/sites";
import { SiteLocationLayout } from "../layouts";
import { siteLocationOf } from "../load";
import { LevelNetwork, saveLevelNetwork } from "../network-tab";
import { siteHref, siteLocationHref } from "../paths";
import { LocationEditor, type SiteOption, saveOrDeleteLocation } from "./location-form";

type GeneralData = { account: AccountDetails; site: Site; location: Location; sites: SiteOption[] };

function General({ data, form }: PageProps<GeneralData>) {
  const { account, site, location, sites } = data;
  return (
    <SiteLocationLayout account={account} site={site} location={location} current="general">
      <LocationEditor
        action={siteLocationHref(account._id, site._id, location._id, "general")}
        location={location}
        sites={sites}
        form={form}
      />
    </SiteLocationLayout>
  );
}

/** /accounts/:accountId/sites/:siteId/locations/:locationId/general (edit-configurations). */
export const siteLocationGeneralPage = definePage<GeneralData>({
  title: ({ location }, t) => tabTitle(t, location.name, "locations.tabs.general", "routes.location"),
  load: async (c) => {
    const { account, site, location } = await siteLocationOf(c);
    const sites = await api(c).locations.siteOptions({ accountId: account._id });
    return { account, site, location, sites };
  },
  Component: General,
  // A location moved to another site is shown under that site from now on.
  action: (c) =>
    saveOrDeleteLocation(c, {
      saved: (location) => siteLocationHref(location.accountId, location.siteId, location._id, "general"),
      deleted: (location) => siteHref(c.req.param("accountId") ?? "", location.siteId, "locations"),
    }),
  toaster: true,
});

type NetworkData = { account: AccountDetails; site: Site; location: Location; network: NetworkAtLevel };

function Network({ data, form }: PageProps<NetworkData>) {
  const { account, site, location, network } = data;
  return (
    <SiteLocationLayout account={account} site={site} location={location} current="network">
      <LevelNetwork
        here="location"
        href={siteLocationHref(account._id, site._id, location._id, "network")}
        network={network}
        form={form}
      />
    </SiteLocationLayout>
  );
}

/** /accounts/:accountId/sites/:siteId/locations/:locationId/network (edit-network-config): inherited account → site, overridden here. */
export const siteLocationNetworkPage = definePage<NetworkData>({
  title: ({ location }, t) => tabTitle(t, location.name, "locations.tabs.network", "routes.location"),
  load: async (c) => {
    const { account, site, location } = await siteLocationOf(c);
    const network = await api(c).locations.networkConfig({ accountId: account._id, id: location._id });
    return { account, site, location, network };
  },
  Component: Network,
  action: async (c) => {
    const { account, site, location } = await siteLocationOf(c);
    return saveLevelNetwork(c, siteLocationHref(account._id, site._id, location._id, "network"), (version, config) =>
      api(c).locations.updateNetworkConfig({ accountId: account._id, id: location._id, version, config }),
    );
  },
  toaster: true,
});
