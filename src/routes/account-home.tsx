import { type AccountDetails, accountDetails } from "../server/current-account";
import { usePage } from "../server/render/page-context";
import { PageHeader } from "../ui/page-header";
import { AccountLayout } from "../ui/shell/account-layout";
import { definePage, type PageProps } from "./types";

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <div className="rounded-lg border border-slate-200 bg-white p-4 shadow-sm">
      <dt className="text-sm text-slate-600">{label}</dt>
      <dd className="mt-1 font-semibold text-slate-900">{value}</dd>
    </div>
  );
}

function AccountHome({ data: account }: PageProps<AccountDetails>) {
  const { t } = usePage();
  return (
    <AccountLayout account={account}>
      <PageHeader title={String(t("routes.accountHome"))} />
      <dl className="grid gap-4 sm:grid-cols-2">
        <Fact label={String(t("accountHome.level"))} value={String(t(`accountHome.levels.${account.subscriptionLevel}`))} />
        <Fact label={String(t("accountHome.timezone"))} value={account.timezone} />
      </dl>
      {/* The counts of sites, locations, profiles, rules and devices arrive with those screens. */}
      <p className="mt-6 text-sm text-slate-600">{t("accountHome.summaryPending")}</p>
    </AccountLayout>
  );
}

/**
 * /accounts/{accountId}: the account's home. Loaded through accounts.details, so an account of
 * another tenant (or none) is the route error screen with NOT_FOUND.
 */
export const accountHomePage = definePage({
  load: (c) => accountDetails(c, c.req.param("accountId") ?? ""),
  Component: AccountHome,
});
