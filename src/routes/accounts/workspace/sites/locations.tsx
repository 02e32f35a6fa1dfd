import { definePage, type PageProps, tabTitle } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import type { AccountDetails } from "@/server/current-account";
import type { Location } from "@/server/data/locations";
import type { Site } from "@/server/data/sites";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import type { Column } from "@/ui/table";
import { SiteLayout } from "../layouts";
import { cursorInput, lostCursor, PAGE_SIZE, parseWorkspaceQuery, queryHref } from "../list-query";
import { ListBody, type ListPage, listPageOf, nameColumn, updatedColumn } from "../list-view";
import { siteOf } from "../load";
import { addLocationHref, siteHref, siteLocationHref } from "../paths";

type Data = ListPage<Location> & {
  account: AccountDetails;
  site: Site;
};

function SiteLocations({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, site, query, total } = data;
  const base = siteHref(account._id, site._id, "locations");
  const addButton = <ButtonLink href={addLocationHref(account._id, site._id)}>{t("sites.locations.add")}</ButtonLink>;
  const columns: Column<Location>[] = [
    nameColumn(String(t("locations.fields.name")), base, query, (location) =>
      siteLocationHref(account._id, site._id, location._id),
    ),
    { key: "description", header: String(t("locations.fields.description")), cell: (location) => location.description },
    updatedColumn(String(t("workspace.list.updated")), base, query, account.timezone),
  ];
  const nothingYet = total.count === 0 && query.q === "";
  return (
    <SiteLayout account={account} site={site} current="locations">
      <div className="mb-4 flex flex-wrap items-start justify-between gap-4">
        <p className="max-w-2xl text-sm text-slate-700">{t("sites.locations.lead")}</p>
        {!nothingYet && addButton}
      </div>
      <ListBody
        nothingYet={nothingYet}
        empty={{
          title: String(t("sites.locations.emptyTitle")),
          description: String(t("sites.locations.emptyAdd")),
          action: addButton,
        }}
        base={base}
        page={data}
        columns={columns}
        caption={String(t("sites.tabs.locations"))}
        keys="locations.list"
      />
    </SiteLayout>
  );
}

/** /accounts/:accountId/sites/:siteId/locations (edit-configurations): the site's locations. */
export const siteLocationsPage = definePage<Data>({
  title: ({ site }, t) => tabTitle(t, site.name, "sites.tabs.locations", "routes.site"),
  load: async (c) => {
    const { account, site } = await siteOf(c);
    const query = parseWorkspaceQuery(new URL(c.req.url));
    const result = await api(c).locations.list({
      accountId: account._id,
      siteId: site._id,
      search: query.q,
      sort: query.sort,
      ...cursorInput(query),
      pageSize: PAGE_SIZE,
    });
    if (lostCursor(query, result)) {
      return c.redirect(queryHref(siteHref(account._id, site._id, "locations"), query), 302);
    }
    return { account, site, ...listPageOf(query, result) };
  },
  Component: SiteLocations,
});
