import { formatNumber } from "@/schema/format";
import { profileTypes } from "@/schema/profiles";
import type { Total } from "@/server/data/keyset";
import { usePage } from "@/server/render/page-context";
import { Button } from "@/ui/button";
import { Field } from "@/ui/field";
import { Pager } from "@/ui/pager";
import { Tabs } from "@/ui/tabs";
import { type ProfilesQuery, profilesListHref, SEARCH_MAX_LENGTH } from "./paths";

/** Tabs by profile type; `hrefOf(null)` is "all types" when the list has it. */
export function TypeTabs({
  current,
  hrefOf,
  withAll,
}: {
  current: ProfilesQuery["type"];
  hrefOf: (type: ProfilesQuery["type"]) => string;
  withAll: boolean;
}) {
  const { t } = usePage();
  const types = withAll ? [null, ...profileTypes] : [...profileTypes];
  return (
    <div className="mb-4">
      <Tabs
        label={String(t("profiles.list.types"))}
        items={types.map((type) => ({
          href: hrefOf(type),
          label: String(t(type ? `profiles.types.${type}` : "profiles.list.allTypes")),
          current: type === current,
        }))}
      />
    </div>
  );
}

/** Search by name: a plain GET form that keeps the type (in the query or the path) and the sort. */
export function SearchForm({ action, query, typeInPath }: { action: string; query: ProfilesQuery; typeInPath: boolean }) {
  const { t } = usePage();
  return (
    <search>
      <form method="get" action={action} className="mb-4 flex flex-wrap items-end gap-3">
        <Field
          label={String(t("profiles.list.search"))}
          name="q"
          type="search"
          defaultValue={query.q}
          maxLength={SEARCH_MAX_LENGTH}
          className="min-w-56 flex-1"
        />
        {query.type && !typeInPath && <input type="hidden" name="type" value={query.type} />}
        {query.sort !== "name" && <input type="hidden" name="sort" value={query.sort} />}
        <Button type="submit" variant="white">
          {t("profiles.list.searchButton")}
        </Button>
        {query.q && (
          <a
            href={profilesListHref(action, query, { q: "" }, typeInPath)}
            className="py-2 text-sm font-medium text-brand-700 hover:underline"
          >
            {t("profiles.list.clear")}
          </a>
        )}
      </form>
    </search>
  );
}

/** How many there are (matching the search), announced politely. */
/** How many there are; past COUNT_CAP it says "1,000+" rather than count them all. */
export function ListCount({ total, search }: { total: Total; search: string }) {
  const { t, language } = usePage();
  const values = { count: total.count, total: `${formatNumber(language, total.count)}${total.more ? "+" : ""}`, search };
  return (
    <p role="status" className="mb-2 text-sm text-slate-700">
      {t(search ? "profiles.list.matching" : "profiles.list.count", values)}
    </p>
  );
}

/** Previous / next by cursor (keyset paging: no page numbers), or nothing on a single page. */
export function ListPager({
  base,
  query,
  next,
  previous,
  typeInPath,
}: {
  base: string;
  query: ProfilesQuery;
  next: string | null;
  previous: string | null;
  typeInPath: boolean;
}) {
  const { t } = usePage();
  if (!next && !previous) return null;
  return (
    <Pager
      label={String(t("profiles.list.pages"))}
      previous={{
        href: previous ? profilesListHref(base, query, { before: previous }, typeInPath) : null,
        label: String(t("profiles.list.previous")),
      }}
      next={{
        href: next ? profilesListHref(base, query, { after: next }, typeInPath) : null,
        label: String(t("profiles.list.next")),
      }}
    />
  );
}
