import type { ReactNode } from "react";
import { formatDateTime, formatNumber } from "@/schema/format";
import type { Total } from "@/server/data/keyset";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Field } from "@/ui/field";
import { Pager } from "@/ui/pager";
import { type Column, Table } from "@/ui/table";
import { queryHref, SEARCH_MAX_LENGTH, sortLink, type WorkspaceListQuery } from "./list-query";

/** When a row was last changed, in the reader's language and the account's time zone (named). */
export function UpdatedAt({ value, timeZone }: { value: string; timeZone: string }) {
  const { language } = usePage();
  return <time dateTime={value}>{formatDateTime(language, value, timeZone)}</time>;
}

/** The plain GET search form of a list; `filters` are more fields (a site picker). */
export function SearchForm({ action, query, filters }: { action: string; query: WorkspaceListQuery; filters?: ReactNode }) {
  const { t } = usePage();
  const filtered = query.q !== "" || query.site !== "";
  return (
    <search>
      <form method="get" action={action} className="mb-4 flex flex-wrap items-end gap-3">
        <Field
          label={String(t("workspace.list.search"))}
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={SEARCH_MAX_LENGTH}
          className="min-w-56 flex-1"
        />
        {filters}
        {query.sort !== "name" && <input type="hidden" name="sort" value={query.sort} />}
        <Button type="submit" variant="white">
          {t("workspace.list.searchButton")}
        </Button>
        {filtered && (
          <a
            href={queryHref(action, query, { q: "", site: "" })}
            className="py-2 text-sm font-medium text-brand-700 hover:underline"
          >
            {t("workspace.list.clear")}
          </a>
        )}
      </form>
    </search>
  );
}

/** What a list page loads: its URL state and one page of rows (named-list.ts). */
export type ListPage<Row> = {
  query: WorkspaceListQuery;
  items: Row[];
  total: Total;
  next: string | null;
  previous: string | null;
};

/** The ListPage of a list procedure's answer. */
export function listPageOf<Row>(query: WorkspaceListQuery, result: Omit<ListPage<Row>, "query">): ListPage<Row> {
  return { query, items: result.items, total: result.total, next: result.next, previous: result.previous };
}

/**
 * A server-paginated table: how many rows match (past COUNT_CAP, "1,000+"), the rows of this
 * page, and previous / next cursor links that keep the search and the sort. `keys` names the
 * list's translations: `<keys>.count` and `<keys>.matching` (plurals taking {{total}}, and
 * {{search}}), `<keys>.noMatchTitle`, `<keys>.noMatch`, `<keys>.pages`.
 */
export function PagedTable<Row>({
  base,
  page,
  columns,
  rowKey,
  caption,
  keys,
}: {
  base: string;
  page: ListPage<Row>;
  columns: Column<Row>[];
  rowKey: (row: Row) => string;
  caption: string;
  keys: "sites.list" | "locations.list";
}) {
  const { t, language } = usePage();
  const { query, total, next, previous } = page;
  const shown = `${formatNumber(language, total.count)}${total.more ? "+" : ""}`;
  return (
    <>
      <p role="status" className="mb-2 text-sm text-slate-700">
        {query.q
          ? t(`${keys}.matching`, { count: total.count, total: shown, search: query.q })
          : t(`${keys}.count`, { count: total.count, total: shown })}
      </p>
      <Table
        caption={caption}
        columns={columns}
        rows={page.items}
        rowKey={rowKey}
        empty={<EmptyState title={String(t(`${keys}.noMatchTitle`))} description={String(t(`${keys}.noMatch`))} />}
      />
      {(next || previous) && (
        <Pager
          label={String(t(`${keys}.pages`))}
          previous={{
            href: previous ? queryHref(base, query, { before: previous }) : null,
            label: String(t("workspace.list.previous")),
          }}
          next={{ href: next ? queryHref(base, query, { after: next }) : null, label: String(t("workspace.list.next")) }}
        />
      )}
    </>
  );
}

/** The first column: the row's name, linking to it, sortable. */
export function nameColumn<Row extends { name: string }>(
  header: string,
  base: string,
  query: WorkspaceListQuery,
  href: (row: Row) => string,
): Column<Row> {
  return {
    key: "name",
    header,
    ...sortLink(base, query, "name"),
    cell: (row) => (
      <a href={href(row)} className="font-medium text-brand-700 hover:underline">
        {row.name}
      </a>
    ),
  };
}

/** The last column: when the row last changed, sortable. */
export function updatedColumn<Row extends { updatedAt: string }>(
  header: string,
  base: string,
  query: WorkspaceListQuery,
  timeZone: string,
): Column<Row> {
  return {
    key: "updated",
    header,
    ...sortLink(base, query, "updated"),
    cell: (row) => <UpdatedAt value={row.updatedAt} timeZone={timeZone} />,
  };
}

/**
 * A list's body: while there is nothing yet (no row, no search), an invitation to add the
 * first; else the search form (with `filters`) and the paged table.
 */
export function ListBody<Row extends { _id: string }>({
  nothingYet,
  empty,
  base,
  page,
  columns,
  caption,
  keys,
  filters,
}: {
  nothingYet: boolean;
  empty: { title: string; description: string; action: ReactNode };
  base: string;
  page: ListPage<Row>;
  columns: Column<Row>[];
  caption: string;
  keys: "sites.list" | "locations.list";
  filters?: ReactNode;
}) {
  if (nothingYet) return <EmptyState title={empty.title} description={empty.description} action={empty.action} />;
  return (
    <>
      <SearchForm action={base} query={page.query} filters={filters} />
      <PagedTable base={base} page={page} columns={columns} rowKey={(row) => row._id} caption={caption} keys={keys} />
    </>
  );
}
