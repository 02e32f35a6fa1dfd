import { definePage, type PageProps, tabTitle } from "@/routes/types";
import type { NetworkAtLevel } from "@/server/api/network-levels";
import { api } from "@/server/api/procedures-route";
import type { AccountDetails } from "@/server/current-account";
import type { Site } from "@/server/data/sites";
import { SiteLayout } from "../layouts";
import { siteOf } from "../load";
import { LevelNetwork, saveLevelNetwork } from "../network-tab";
import { siteHref } from "../paths";

type Data = { account: AccountDetails; site: Site; network: NetworkAtLevel };

function SiteNetwork({ data, form }: PageProps<Data>) {
  const { account, site, network } = data;
  return (
    <SiteLayout account={account} site={site} current="network">
      <LevelNetwork here="site" href={siteHref(account._id, site._id, "network")} network={network} form={form} />
    </SiteLayout>
  );
}

/** /accounts/:accountId/sites/:siteId/network (edit-network-config): what the site inherits, overrides and ends up with. */
export const siteNetworkPage = definePage<Data>({
  title: ({ site }, t) => tabTitle(t, site.name, "sites.tabs.network", "routes.site"),
  load: async (c) => {
    const { account, site } = await siteOf(c);
    const network = await api(c).sites.networkConfig({ accountId: account._id, id: site._id });
    return { account, site, network };
  },
  Component: SiteNetwork,
  action: (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const id = c.req.param("siteId") ?? "";
    return saveLevelNetwork(c, siteHref(accountId, id, "network"), (version, config) =>
      api(c).sites.updateNetworkConfig({ accountId, id, version, config }),
    );
  },
  toaster: true,
});
