import { confirmDeploymentHref, deploymentsHref } from "@/routes/deployments/paths";
import { definePage, type PageProps } from "@/routes/types";
import { formatNumber } from "@/schema/format";
import { api } from "@/server/api/procedures-route";
import { type AccountDetails, accountDetails } from "@/server/current-account";
import type { ActivityEntry } from "@/server/data/activity-logs";
import { usePage } from "@/server/render/page-context";
import { ActivityEntryView, textOf } from "@/ui/activity/activity-entry";
import { ButtonLink } from "@/ui/button";
import { EmptyState } from "@/ui/empty-state";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";

const CHANGES_SHOWN = 100;

type Data = { account: AccountDetails; items: ActivityEntry[]; count: number };

function ReviewChanges({ data }: PageProps<Data>) {
  const { t, language } = usePage();
  const { account, items, count } = data;
  const text = textOf(t);
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.changes"))}
        description={t("changes.lead")}
        actions={
          <div className="flex flex-wrap gap-2">
            <ButtonLink href={deploymentsHref(account._id)} variant="white" size="sm">
              {t("routes.deployments")}
            </ButtonLink>
            <ButtonLink href={confirmDeploymentHref(account._id)} size="sm">
              {t("changes.deploy")}
            </ButtonLink>
          </div>
        }
      />
      {count === 0 ? (
        <EmptyState title={String(t("changes.emptyTitle"))} description={String(t("changes.empty"))} />
      ) : (
        <>
          {count > items.length && (
            <p className="mb-3 text-sm text-slate-700">
              {t("changes.newestOf", { shown: formatNumber(language, items.length), total: formatNumber(language, count) })}
            </p>
          )}
          <ol className="space-y-3" aria-label={String(t("routes.changes"))}>
            {items.map((entry) => (
              <ActivityEntryView key={entry.id} entry={entry} text={text} language={language} timeZone={account.timezone} />
            ))}
          </ol>
        </>
      )}
    </AccountLayout>
  );
}

/**
 * /accounts/{accountId}/changes: the configuration changes waiting to be deployed, with what
 * each changed (spec §2 "review changes"); for users who may create deployments (§6).
 */
export const reviewChangesPage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const [account, changes] = await Promise.all([
      accountDetails(c, accountId),
      api(c).activityLogs.listChangesToDeploy({ accountId, limit: CHANGES_SHOWN }),
    ]);
    return { account, items: changes.items, count: changes.count };
  },
  Component: ReviewChanges,
});
