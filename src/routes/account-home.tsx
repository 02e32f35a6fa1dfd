import { isBuilt } from "../schema/features";
import type { SyncCounts } from "../schema/fleet/sync-state";
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
import { definePage, type PageProps } from "./types";

type DeviceCounts = { total: number; upToDate: number; pending: number; neverSeen: number };

type Data = {
  account: AccountDetails;
  summary: ConfiguredEntitiesSummary;
  lastActivity: ActivityEntry | null;
  devices: DeviceCounts;
  drift: SyncCounts;
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

const summarySections: [keyof ConfiguredEntitiesSummary, AccountSection][] = [
  ["sites", "sites"],
  ["locations", "locations"],
  ["profiles", "profiles"],
  ["rules", "rules"],
];

function AccountHome({ data }: PageProps<Data>) {
  const { t, language, user, currentPath } = usePage();
  const { account, summary, lastActivity, devices, drift } = data;
  const text = textOf(t);
  const permissions = user?.permissions ?? {};
  // The lists this user may open are the ones the sidebar offers (spec §6).
  const nav = accountNavItems(permissions, { id: account._id, subscriptionLevel: account.subscriptionLevel }, currentPath);
  const hrefOf = (section: AccountSection) => nav.find((item) => item.section === section)?.href ?? null;
  const base = `/accounts/${encodeURIComponent(account._id)}`;
  const devicesHref = isBuilt("devices") && permissions["view-devices-in-accounts"] ? `${base}/registry/devices` : null;
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.accountHome"))} />
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
          {isBuilt("devices") && (
            <Count label={String(t("accountHome.counts.devices"))} value={summary.devices} href={devicesHref} />
          )}
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

      <section aria-labelledby="home-devices" className="mt-8">
        <h2 id="home-devices" className="mb-3 text-lg font-semibold text-slate-900">
          {t("accountHome.devices")}
        </h2>
        <dl className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
          {(["total", "upToDate", "pending", "neverSeen"] as const).map((key) => (
            <Count key={key} label={String(t(`accountHome.deviceCounts.${key}`))} value={devices[key]} href={null} />
          ))}
        </dl>
        {user?.permissions["view-devices-in-accounts"] ? (
          <p className="mt-3 text-sm">
            <a href={`${base}/registry/devices`} className="font-medium text-brand-700 hover:underline">
              {t("accountHome.seeDevices")}
            </a>
          </p>
        ) : null}
      </section>

      {/* Deployments exist (src/schema/features.ts): how the radios stand against the configuration. */}
      {isBuilt("deployments") && (
        <section aria-labelledby="home-drift" className="mt-8">
          <h2 id="home-drift" className="mb-3 text-lg font-semibold text-slate-900">
            {t("accountHome.drift.title")}
          </h2>
          <dl className="grid gap-4 sm:grid-cols-3 lg:grid-cols-5">
            {(["inSync", "pending", "neverDeployed", "failed", "drifted"] as const).map((key) => (
              <Count key={key} label={String(t(`accountHome.drift.${key}`))} value={drift.sync[key]} href={null} />
            ))}
            <Count label={String(t("accountHome.drift.overdue"))} value={drift.contact.overdue} href={null} />
          </dl>
          <p className="mt-3 text-sm">
            <a href={`${base}/deployments`} className="font-medium text-brand-700 hover:underline">
              {t("accountHome.drift.deployments")}
            </a>
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
      caller.accounts.getConfiguredEntitiesSummary({ accountId }),
      caller.accounts.getLastConfigurationActivity({ accountId }),
      caller.devices.getConfiguredDeviceCounts({ accountId }),
    ]);
    // One procedure for both: the counts carry deploy's drift counts (one read of them).
    const { counts: drift, ...devices } = counts;
    return { account, summary, lastActivity, devices, drift };
  },
  Component: AccountHome,
});
