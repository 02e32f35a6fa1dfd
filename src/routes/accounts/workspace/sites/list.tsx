import { definePage, type PageProps } from "@/routes/types";
import { timeZoneLabel } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Site } from "@/server/data/sites";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import type { Column } from "@/ui/table";
import { cursorInput, lostCursor, PAGE_SIZE, parseWorkspaceQuery, queryHref } from "../list-query";
import { ListBody, type ListPage, listPageOf, nameColumn, updatedColumn } from "../list-view";
import { addSiteHref, siteHref, sitesHref } from "../paths";

type Data = ListPage<Site> & {
  account: AccountDetails;
};

function SitesList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, query, total } = data;
  const base = sitesHref(account._id);
  const addButton = <ButtonLink href={addSiteHref(account._id)}>{t("sites.list.add")}</ButtonLink>;
  const columns: Column<Site>[] = [
    nameColumn(String(t("sites.fields.name")), base, query, (site) => siteHref(account._id, site._id)),
    { key: "address", header: String(t("sites.fields.address")), cell: (site) => site.address },
    {
      key: "timezone",
      header: String(t("sites.fields.timezone")),
      cell: (site) =>
        site.timezone
          ? timeZoneLabel(language, site.timezone)
          : t("sites.list.accountTimezone", { timezone: timeZoneLabel(language, account.timezone) }),
    },
    { key: "locations", header: String(t("sites.list.locations")), cell: (site) => site.locationCount },
    updatedColumn(String(t("workspace.list.updated")), base, query, account.timezone),
  ];
  const nothingYet = total.count === 0 && query.q === "";
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.sites"))}
        description={t("sites.list.lead")}
        actions={nothingYet ? undefined : addButton}
      />
      <ListBody
        nothingYet={nothingYet}
        empty={{ title: String(t("sites.list.emptyTitle")), description: String(t("sites.list.emptyAdd")), action: addButton }}
        base={base}
        page={data}
        columns={columns}
        caption={String(t("routes.sites"))}
        keys="sites.list"
      />
    </AccountLayout>
  );
}

/** /accounts/:accountId/sites (edit-configurations): the account's sites, searched, sorted and paged through the URL. */
export const sitesListPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const query = parseWorkspaceQuery(new URL(c.req.url));
    const [account, result] = await Promise.all([
      accountDetails(c, accountId),
      api(c).sites.list({ accountId, search: query.q, sort: query.sort, ...cursorInput(query), pageSize: PAGE_SIZE }),
    ]);
    // A cursor whose rows were deleted meanwhile: start again from the first page.
    if (lostCursor(query, result)) {
      return c.redirect(queryHref(sitesHref(accountId), query), 302);
    }
    return { account, ...listPageOf(query, result) };
  },
  Component: SitesList,
});
