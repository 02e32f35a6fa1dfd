import { definePage, type PageProps } from "@/routes/types";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Location } from "@/server/data/locations";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { SelectField } from "@/ui/field";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import type { Column } from "@/ui/table";
import { cursorInput, lostCursor, PAGE_SIZE, parseWorkspaceQuery, queryHref } from "../list-query";
import { ListBody, type ListPage, listPageOf, nameColumn, updatedColumn } from "../list-view";
import { addLocationHref, addSiteHref, editLocationHref, locationsHref, siteHref } from "../paths";
import type { SiteOption } from "./location-form";

type Data = ListPage<Location> & {
  account: AccountDetails;
  sites: SiteOption[];
};

function LocationsList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, query, sites, total } = data;
  const base = locationsHref(account._id);
  const addButton =
    sites.length > 0 ? (
      <ButtonLink href={addLocationHref(account._id)}>{t("locations.list.add")}</ButtonLink>
    ) : (
      <ButtonLink href={addSiteHref(account._id)}>{t("sites.list.add")}</ButtonLink>
    );
  const columns: Column<Location>[] = [
    nameColumn(String(t("locations.fields.name")), base, query, (location) => editLocationHref(account._id, location._id)),
    {
      key: "site",
      header: String(t("locations.fields.site")),
      cell: (location) => (
        <a href={siteHref(account._id, location.siteId)} className="text-brand-700 hover:underline">
          {location.siteName}
        </a>
      ),
    },
    { key: "description", header: String(t("locations.fields.description")), cell: (location) => location.description },
    updatedColumn(String(t("workspace.list.updated")), base, query, account.timezone),
  ];
  const nothingYet = total.count === 0 && query.q === "" && query.site === "";
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.locations"))}
        description={t("locations.list.lead")}
        actions={nothingYet ? undefined : addButton}
      />
      <ListBody
        nothingYet={nothingYet}
        empty={{
          title: String(t("locations.list.emptyTitle")),
          description: String(t(sites.length > 0 ? "locations.list.emptyAdd" : "locations.list.needSite")),
          action: addButton,
        }}
        base={base}
        page={data}
        columns={columns}
        caption={String(t("routes.locations"))}
        keys="locations.list"
        filters={
          sites.length > 1 && (
            <SelectField
              label={String(t("locations.fields.site"))}
              name="site"
              defaultValue={query.site}
              options={[{ value: "", label: String(t("locations.list.allSites")) }, ...sites]}
              className="min-w-56"
            />
          )
        }
      />
    </AccountLayout>
  );
}

/** /accounts/:accountId/locations (edit-configurations): every location of the account with its site, filtered by site. */
export const locationsListPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const query = parseWorkspaceQuery(new URL(c.req.url));
    const caller = api(c);
    const [account, sites, result] = await Promise.all([
      accountDetails(c, accountId),
      caller.locations.siteOptions({ accountId }),
      caller.locations.list({
        accountId,
        siteId: query.site || undefined,
        search: query.q,
        sort: query.sort,
        ...cursorInput(query),
        pageSize: PAGE_SIZE,
      }),
    ]);
    if (lostCursor(query, result)) {
      return c.redirect(queryHref(locationsHref(accountId), query), 302);
    }
    return { account, sites, ...listPageOf(query, result) };
  },
  Component: LocationsList,
});
