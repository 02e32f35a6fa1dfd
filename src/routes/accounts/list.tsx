import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import type { OrganizationInTree } from "@/server/api/routers/organizations";
import type { Account } from "@/server/data/accounts";
import type { Total } from "@/server/data/keyset";
import { usePage } from "@/server/render/page-context";
import { Button, ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Field, SelectField } from "@/ui/field";
import { PageHeader } from "@/ui/page-header";
import { Pager } from "@/ui/pager";
import { type Column, Table } from "@/ui/table";
import { definePage, type PageProps } from "../types";
import { type ListQuery, listHref, PAGE_SIZE, parseListQuery, SEARCH_MAX_LENGTH, sortLink } from "./list-query";
import { organizationOptions } from "./organization-options";
import { UpdatedAt } from "./workspace/list-view";

type Data = {
  query: ListQuery;
  organizations: OrganizationInTree[];
  items: Account[];
  total: Total;
  next: string | null;
  previous: string | null;
  canAdd: boolean;
};

function SearchForm({ query, organizations }: Pick<Data, "query" | "organizations">) {
  const { t } = usePage();
  const filtered = query.q !== "" || query.org !== "";
  return (
    <search>
      <form method="get" action="/accounts" className="mb-4 flex flex-wrap items-end gap-3">
        <Field
          label={String(t("accounts.list.search"))}
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={SEARCH_MAX_LENGTH}
          className="min-w-56 flex-1"
        />
        {organizations.length > 1 && (
          <SelectField
            label={String(t("accounts.list.organization"))}
            name="org"
            defaultValue={query.org}
            options={[{ value: "", label: String(t("accounts.list.allOrganizations")) }, ...organizationOptions(organizations)]}
            className="min-w-56"
          />
        )}
        {query.sort !== "name" && <input type="hidden" name="sort" value={query.sort} />}
        <Button type="submit" variant="white">
          {t("accounts.list.searchButton")}
        </Button>
        {filtered && (
          <a href={listHref(query, { q: "", org: "" })} className="py-2 text-sm font-medium text-brand-700 hover:underline">
            {t("accounts.list.clear")}
          </a>
        )}
      </form>
    </search>
  );
}

function AccountsList({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { query, organizations, items, total, next, previous, canAdd } = data;
  const organizationName = new Map(organizations.map((organization) => [organization.id, organization.name]));
  // Past COUNT_CAP the count says "1,000+" rather than count every row on every request.
  const shownTotal = `${formatNumber(language, total.count)}${total.more ? "+" : ""}`;
  const addButton = canAdd ? <ButtonLink href="/accounts/add">{t("accounts.list.add")}</ButtonLink> : undefined;
  const column = (key: "name" | "level" | "updated") => {
    const link = sortLink(query, key);
    return { sortHref: link.href, sorted: link.sorted };
  };

  const columns: Column<Account>[] = [
    {
      key: "name",
      header: String(t("accounts.list.name")),
      ...column("name"),
      cell: (account) => (
        <a href={`/accounts/${account._id}`} className="font-medium text-brand-700 hover:underline">
          {account.name}
        </a>
      ),
    },
    {
      key: "organization",
      header: String(t("accounts.list.organization")),
      cell: (account) => organizationName.get(account.orgId) ?? "",
    },
    {
      key: "level",
      header: String(t("accounts.fields.level")),
      ...column("level"),
      cell: (account) => t(`accounts.levels.${account.subscriptionLevel}`),
    },
    {
      key: "updated",
      header: String(t("accounts.list.updated")),
      ...column("updated"),
      cell: (a) => <UpdatedAt value={a.updatedAt} timeZone="UTC" />,
    },
  ];

  const nothingYet = total.count === 0 && query.q === "" && query.org === "";
  return (
    <>
      {/* With nothing yet, the empty state offers the button instead. */}
      <PageHeader
        title={String(t("routes.accounts"))}
        description={t("accounts.list.lead")}
        actions={nothingYet ? undefined : addButton}
      />
      {nothingYet ? (
        <EmptyState
          title={String(t("accounts.list.emptyTitle"))}
          description={String(t(canAdd ? "accounts.list.emptyAdd" : "accounts.list.emptyAsk"))}
          action={addButton}
        />
      ) : (
        <>
          <SearchForm query={query} organizations={organizations} />
          <p role="status" className="mb-2 text-sm text-slate-700">
            {query.q
              ? t("accounts.list.matching", { count: total.count, total: shownTotal, search: query.q })
              : t("accounts.list.count", { count: total.count, total: shownTotal })}
          </p>
          <Table
            caption={String(t("routes.accounts"))}
            columns={columns}
            rows={items}
            rowKey={(account) => account._id}
            empty={
              <EmptyState title={String(t("accounts.list.noMatchTitle"))} description={String(t("accounts.list.noMatch"))} />
            }
          />
          {(next || previous) && (
            <Pager
              label={String(t("accounts.list.pages"))}
              previous={{
                href: previous ? listHref(query, { before: previous }) : null,
                label: String(t("accounts.list.previous")),
              }}
              next={{ href: next ? listHref(query, { after: next }) : null, label: String(t("accounts.list.next")) }}
            />
          )}
        </>
      )}
    </>
  );
}

/**
 * /accounts: the accounts of the caller's organization tree, one server page at a time
 * (accounts.list), searched, sorted and filtered through the URL.
 */
export const accountsListPage = definePage<Data>({
  load: async (c) => {
    const user = c.get("user");
    if (!user) return c.notFound();
    const query = parseListQuery(new URL(c.req.url));
    const caller = api(c);
    const [organizations, result] = await Promise.all([
      caller.organizations.list(),
      caller.accounts.list({
        orgId: query.org || user.orgId,
        search: query.q,
        sort: query.sort,
        after: query.after || undefined,
        before: query.before || undefined,
        pageSize: PAGE_SIZE,
      }),
    ]);
    // Nothing before a "Previous" cursor (rows were deleted meanwhile): start from the first page.
    if (result.items.length === 0 && (query.after || query.before) && result.total.count > 0) {
      return c.redirect(listHref(query), 302);
    }
    return {
      query,
      organizations,
      items: result.items,
      total: result.total,
      next: result.next,
      previous: result.previous,
      canAdd: Boolean(user.permissions["edit-accounts"]),
    };
  },
  Component: AccountsList,
});
