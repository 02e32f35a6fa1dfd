import { definePage, type PageProps } from "@/routes/types";
import { timeZoneLabel } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import type { Archive } from "@/server/data/archives";
import { usePage } from "@/server/render/page-context";
import { ActivityEntryView, textOf } from "@/ui/activity/activity-entry";
import { accountEntityTypes, entityTypeKey } from "@/ui/activity/entity-types";
import { ArchiveList } from "@/ui/archives/archive-list";
import { Button, ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { Field, SelectField } from "@/ui/field";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { ACTOR_MAX_LENGTH, filtersQuery, isFiltered, type ParsedFilters, parseActivityFilters, procedureFilter } from "./filters";
import { MoreEntries } from "./more-entries";

export const ACTIVITY_PAGE_SIZE = 25;

type Data = {
  account: AccountDetails;
  parsed: ParsedFilters;
  items: ActivityEntry[];
  nextCursor: string | null;
  /** Months past the account's retention, moved to R2 (issue 24). */
  archives: Archive[];
};

export const activityLogsPath = (accountId: string) => `/accounts/${encodeURIComponent(accountId)}/activity-logs`;

function FilterForm({ base, parsed }: { base: string; parsed: ParsedFilters }) {
  const { t } = usePage();
  const { values, errors } = parsed;
  const error = (field: string) => (errors[field] ? String(t(errors[field])) : undefined);
  return (
    <search>
      <form method="get" action={base} className="mb-4 flex flex-wrap items-end gap-3">
        <SelectField
          label={String(t("activityLogs.filters.type"))}
          name="type"
          defaultValue={values.type}
          options={[
            { value: "", label: String(t("activityLogs.filters.allTypes")) },
            ...accountEntityTypes.map((type) => ({ value: type, label: String(t(entityTypeKey(type))) })),
          ]}
          className="min-w-44"
        />
        <Field
          label={String(t("activityLogs.filters.actor"))}
          name="actor"
          type="search"
          defaultValue={values.actor}
          maxLength={ACTOR_MAX_LENGTH}
          className="min-w-56 flex-1"
        />
        <Field
          label={String(t("activityLogs.filters.from"))}
          name="from"
          type="date"
          defaultValue={values.from}
          error={error("from")}
        />
        <Field label={String(t("activityLogs.filters.to"))} name="to" type="date" defaultValue={values.to} error={error("to")} />
        <Button type="submit" variant="white">
          {t("activityLogs.filters.apply")}
        </Button>
        {isFiltered(values) && (
          <a href={base} className="py-2 text-sm font-medium text-brand-700 hover:underline">
            {t("activityLogs.filters.clear")}
          </a>
        )}
      </form>
    </search>
  );
}

function ActivityLogs({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, parsed, items, nextCursor } = data;
  const text = textOf(t);
  const base = activityLogsPath(account._id);
  const filtered = isFiltered(parsed.applied);
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.activityLogs"))}
        description={t("activityLogs.lead")}
        actions={
          <ButtonLink variant="white" href={`${base}/export.csv${filtersQuery(parsed.applied)}`}>
            {t("activityLogs.exportCsv")}
          </ButtonLink>
        }
      />
      <FilterForm base={base} parsed={parsed} />
      <p className="mb-3 text-sm text-slate-600">
        {t("activityLogs.timesIn", { timeZone: timeZoneLabel(language, account.timezone) })}
      </p>
      {parsed.cursor && (
        <p className="mb-3 text-sm">
          {t("activityLogs.olderEntries")}{" "}
          <a href={`${base}${filtersQuery(parsed.applied)}`} className="font-medium text-brand-700 hover:underline">
            {t("activityLogs.backToNewest")}
          </a>
        </p>
      )}
      {items.length === 0 ? (
        <EmptyState
          title={String(t(filtered || parsed.cursor ? "activityLogs.noMatchTitle" : "activityLogs.emptyTitle"))}
          description={String(t(filtered || parsed.cursor ? "activityLogs.noMatch" : "activityLogs.empty"))}
        />
      ) : (
        <ol className="space-y-3" aria-label={String(t("routes.activityLogs"))} data-entries="">
          {items.map((entry) => (
            <ActivityEntryView key={entry.id} entry={entry} text={text} language={language} timeZone={account.timezone} />
          ))}
        </ol>
      )}
      {nextCursor && <MoreEntries href={`${base}${filtersQuery(parsed.applied, nextCursor)}`} shown={items.length} />}
      <ArchiveList accountId={account._id} archives={data.archives} retentionMonths={account.retentionMonths} />
    </AccountLayout>
  );
}

/**
 * /accounts/{accountId}/activity-logs: every change in the account, newest first, filtered
 * through the URL. "Load more" is a link to the next page (the cursor in the URL) and, with
 * JavaScript, adds the next entries in place. Open to every signed-in user of the account (§6).
 */
export const activityLogsPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const parsed = parseActivityFilters(new URL(c.req.url));
    const [account, page, archives] = await Promise.all([
      accountDetails(c, accountId),
      api(c).activityLogs.list({
        accountId,
        cursor: parsed.cursor || undefined,
        limit: ACTIVITY_PAGE_SIZE,
        ...procedureFilter(parsed.applied),
      }),
      api(c).archives.activity({ accountId }),
    ]);
    return { account, parsed, items: page.items, nextCursor: page.nextCursor, archives };
  },
  Component: ActivityLogs,
});
