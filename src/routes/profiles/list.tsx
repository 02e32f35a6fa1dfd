import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { Total } from "@/server/data/keyset";
import type { ProfileSummary } from "@/server/data/profiles";
import { usePage } from "@/server/render/page-context";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { definePage, type PageProps } from "../types";
import { ListCount, ListPager, SearchForm, TypeTabs } from "./list-parts";
import {
  accountProfilesHref,
  cursorInput,
  lostCursor,
  PAGE_SIZE,
  type ProfilesQuery,
  parseProfilesQuery,
  profilesListHref,
  sortLink,
} from "./paths";
import { ProfilesTable } from "./profiles-table";

type Data = {
  account: AccountDetails;
  query: ProfilesQuery;
  items: ProfileSummary[];
  total: Total;
  next: string | null;
  previous: string | null;
};

function ProfilesList({ data }: PageProps<Data>) {
  const { t } = usePage();
  const { account, query, items, total } = data;
  const base = accountProfilesHref(account._id);
  const addHref = `${base}/add${query.type ? `?type=${query.type}` : ""}`;
  const add = <ButtonLink href={addHref}>{t("profiles.list.add")}</ButtonLink>;
  const nothingYet = total.count === 0 && !query.q;
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.profiles"))} description={t("profiles.list.lead")} actions={add} />
      <TypeTabs current={query.type} withAll hrefOf={(type) => profilesListHref(base, query, { type })} />
      {nothingYet ? (
        <EmptyState
          title={String(t(query.type ? `profiles.list.emptyOfType.${query.type}` : "profiles.list.empty"))}
          description={String(t("profiles.list.emptyHelp"))}
          action={add}
        />
      ) : (
        <>
          <SearchForm action={base} query={query} typeInPath={false} />
          <ListCount total={total} search={query.q} />
          {items.length === 0 ? (
            <EmptyState title={String(t("profiles.list.noMatch"))} />
          ) : (
            <ProfilesTable
              rows={items}
              timeZone={account.timezone}
              showType={query.type === null}
              showUsage
              sorting={{
                name: sortLink(base, query, "name"),
                type: sortLink(base, query, "type"),
                updated: sortLink(base, query, "updated"),
              }}
              editHref={(p) => `${base}/edit/${encodeURIComponent(p.id)}`}
              deleteHref={(p) => `${base}/delete/${encodeURIComponent(p.id)}`}
            />
          )}
          <ListPager base={base} query={query} next={data.next} previous={data.previous} typeInPath={false} />
        </>
      )}
    </AccountLayout>
  );
}

/** /accounts/{accountId}/profiles (edit-configurations): the account's profiles, by type, searched and sorted in the URL. */
export const accountProfilesPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const query = parseProfilesQuery(new URL(c.req.url));
    const [account, result] = await Promise.all([
      accountDetails(c, accountId),
      api(c).profiles.list({
        accountId,
        type: query.type ?? undefined,
        search: query.q,
        sort: query.sort,
        ...cursorInput(query),
        pageSize: PAGE_SIZE,
      }),
    ]);
    if (lostCursor(query, result)) return c.redirect(profilesListHref(accountProfilesHref(accountId), query), 302);
    const { items, total, next, previous } = result;
    return { account, query, items, total, next, previous };
  },
  Component: ProfilesList,
  toaster: true,
});
