import { isBuilt } from "../schema/features";
import { contactStates, type SyncCounts, syncStates } from "../schema/fleet/sync-state";
import { formatNumber, timeZoneLabel } from "../schema/format";
import { api } from "../server/api/procedures-route";
import { type AccountDetails, accountDetails } from "../server/current-account";
import type { ConfiguredEntitiesSummary } from "../server/data/account-summary";
import type { ActivityEntry } from "../server/data/activity-logs";
import { usePage } from "../server/render/page-context";
import { ActivityEntryView, textOf } from "../ui/activity/activity-entry";
import { PageHeader } from "../ui/page-header";
import { AccountLayout } from "../ui/shell/account-layout";
import { type AccountSection, accountNavItems } from "../ui/shell/account-navigation";
import { CountedAt } from "./devices/counted-at";
import { radiosInStateHref, registryHref } from "./devices/paths";
import { accountNotificationsHref } from "./notifications/paths";
import { definePage, type PageProps } from "./types";

type Data = {
  account: AccountDetails;
  summary: ConfiguredEntitiesSummary;
  lastActivity: ActivityEntry | null;
  /** The account's radios on both dimensions (the numbers of the report, the inventory and the API). */
  radios: SyncCounts;
  /** The account's deployments waiting for a second person's approval. */
  awaitingApproval: number;
};

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

/** A count, linked to its list when this user may open it. */
function Count({ label, value, href }: { label: string; value: number; href: string | null }) {
  const { language } = usePage();
  const number = (
    <span className={`text-2xl font-bold ${href ? "text-brand-700" : "text-slate-900"}`}>{formatNumber(language, value)}</span>
  );
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1">
        {href ? (
          <a href={href} className="hover:underline" aria-label={`${label}: ${formatNumber(language, value)}`}>
            {number}
          </a>
        ) : (
          number
        )}
      </dd>
    </div>
  );
}

/** One dimension of the radios' state: a count per state, each linked to the radios in it. */
function StateCounts({
  id,
  title,
  counts,
}: {
  id: string;
  title: string;
  counts: { state: string; label: string; value: number; href: string | null }[];
}) {
  return (
    <section aria-labelledby={id}>
      <h3 id={id} className="mb-2 font-semibold text-slate-800">
        {title}
      </h3>
      <dl className="grid gap-3 sm:grid-cols-2 xl:grid-cols-3" data-dimension={id}>
        {counts.map((count) => (
          <Count key={count.state} label={count.label} value={count.value} href={count.href} />
        ))}
      </dl>
    </section>
  );
}

const summarySections: [keyof ConfiguredEntitiesSummary, AccountSection][] = [
  ["sites", "sites"],
  ["locations", "locations"],
  ["profiles", "profiles"],
  ["rules", "rules"],
];

function AccountHome({ data }: PageProps<Data>) {
  const { t, language, user, currentPath } = usePage();
  const { account, summary, lastActivity, radios } = data;
  const text = textOf(t);
  const permissions = user?.permissions ?? {};
  // The lists this user may open are the ones the sidebar offers (spec §6).
  const nav = accountNavItems(permissions, { id: account._id, subscriptionLevel: account.subscriptionLevel }, currentPath);
  const hrefOf = (section: AccountSection) => nav.find((item) => item.section === section)?.href ?? null;
  const base = `/accounts/${encodeURIComponent(account._id)}`;
  const devicesHref = isBuilt("devices") && permissions["view-devices-in-accounts"] ? registryHref(account._id, "devices") : null;
  return (
    <AccountLayout account={account}>
      <PageHeader
        title={String(t("routes.accountHome"))}
        actions={
          <a href={accountNotificationsHref(account._id)} className="text-sm font-medium text-brand-700 hover:underline">
            {t("notifications.page.link")}
          </a>
        }
      />
      {data.awaitingApproval > 0 && (
        <p role="status" className="mb-4 rounded-md border border-amber-300 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          <a href={`${base}/deployments`} className="font-medium underline">
            {t("deployments.approval.listCount", { count: data.awaitingApproval })}
          </a>
        </p>
      )}
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact label={String(t("accountHome.level"))} value={String(t(`accountHome.levels.${account.subscriptionLevel}`))} />
        <Fact label={String(t("accountHome.timezone"))} value={timeZoneLabel(language, account.timezone)} />
      </dl>

      <section aria-labelledby="home-configured" className="mt-8">
        <h2 id="home-configured" className="mb-3 text-lg font-semibold text-slate-900">
          {t("accountHome.configured")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
          {summarySections.map(([key, section]) => (
            <Count key={key} label={String(t(`accountHome.counts.${key}`))} value={summary[key]} href={hrefOf(section)} />
          ))}
        </dl>
      </section>

      <section aria-labelledby="home-last-change" className="mt-8">
        <h2 id="home-last-change" className="mb-3 text-lg font-semibold text-slate-900">
          {t("accountHome.lastChange")}
        </h2>
        {lastActivity ? (
          <ul>
            <ActivityEntryView entry={lastActivity} text={text} language={language} timeZone={account.timezone} />
          </ul>
        ) : (
          <p className="text-sm text-slate-600">{t("accountHome.noChanges")}</p>
        )}
        <p className="mt-3 text-sm">
          <a href={`${base}/activity-logs`} className="font-medium text-brand-700 hover:underline">
            {t("accountHome.seeActivity")}
          </a>
        </p>
      </section>

      {isBuilt("devices") && (
        <section aria-labelledby="home-devices" className="mt-8">
          <h2 id="home-devices" className="mb-3 text-lg font-semibold text-slate-900">
            {t("accountHome.devices")}
          </h2>
          <dl className="mb-4 grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
            <Count label={String(t("accountHome.total"))} value={radios.total} href={devicesHref} />
          </dl>
          {/* Deployments exist (src/schema/features.ts): how the radios stand, on both dimensions. */}
          {isBuilt("deployments") && (
            <>
              <p className="mb-3 text-sm text-slate-600">{t("accountHome.statesLead")}</p>
              <CountedAt asOf={radios.asOf} timeZone={account.timezone} className="mb-3" />
              <div className="grid gap-6 lg:grid-cols-2">
                <StateCounts
                  id="home-sync"
                  title={String(t("fleetStates.syncTitle"))}
                  counts={syncStates.map((state) => ({
                    state,
                    label: String(t(`fleetStates.sync.${state}`)),
                    value: radios.sync[state],
                    href: devicesHref ? radiosInStateHref(account._id, { sync: state }) : null,
                  }))}
                />
                <StateCounts
                  id="home-contact"
                  title={String(t("fleetStates.contactTitle"))}
                  counts={contactStates.map((state) => ({
                    state,
                    label: String(t(`fleetStates.contact.${state}`)),
                    value: radios.contact[state],
                    href: devicesHref ? radiosInStateHref(account._id, { contact: state }) : null,
                  }))}
                />
              </div>
            </>
          )}
          <p className="mt-3 flex flex-wrap gap-x-6 gap-y-1 text-sm">
            {devicesHref ? (
              <a href={devicesHref} className="font-medium text-brand-700 hover:underline">
                {t("accountHome.seeDevices")}
              </a>
            ) : null}
            {isBuilt("deployments") ? (
              <a href={`${base}/deployments`} className="font-medium text-brand-700 hover:underline">
                {t("accountHome.seeDeployments")}
              </a>
            ) : null}
          </p>
        </section>
      )}
    </AccountLayout>
  );
}

/**
 * /accounts/{accountId}: the account's home (open to every signed-in user of it, spec §6):
 * what is configured, the last configuration change, and the devices' state. Loaded through
 * the procedures, so an account of another tenant (or none) is the error screen (NOT_FOUND).
 */
export const accountHomePage = definePage<Data>({
  load: async (c) => {
    const accountId = c.req.param("accountId") ?? "";
    const caller = api(c);
    const [account, summary, lastActivity, counts] = await Promise.all([
      accountDetails(c, accountId),
      // With it, the count of deployments waiting for approval (one read, no more round trips).
      caller.accounts.getConfiguredEntitiesSummary({ accountId }),
      caller.accounts.getLastConfigurationActivity({ accountId }),
      caller.devices.getConfiguredDeviceCounts({ accountId }),
    ]);
    return { account, summary, lastActivity, radios: counts.counts, awaitingApproval: summary.awaitingApproval };
  },
  Component: AccountHome,
});
