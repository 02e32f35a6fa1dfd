import { type ReactNode, use } from "react";
import { usePage } from "@/server/render/page-context";
import { Sidebar } from "../sidebar";
import { accountNavItems } from "./account-navigation";
import { PendingChangesBanner } from "./pending-changes-banner";

/** What the layout needs of an account (accounts.details gives more). */
export type LayoutAccount = { _id: string; name: string; subscriptionLevel: "essential" | "advanced" };

/**
 * The frame of every page under /accounts/{accountId} (spec §2): the account's name as
 * context, the sidebar of the sections this user may open (the current one marked), and
 * the banner of changes not deployed yet.
 */
export function AccountLayout({ account, children }: { account: LayoutAccount; children: ReactNode }) {
  const { t, user, currentPath, pendingChanges } = usePage();
  // The banner's count holds the page until it is known: no script needed to show it (spec §4).
  const pending = pendingChanges ? use(pendingChanges(account._id)) : 0;
  const pathname = currentPath.split("?")[0] ?? "";
  const items = accountNavItems(
    user?.permissions ?? {},
    { id: account._id, subscriptionLevel: account.subscriptionLevel },
    pathname,
  ).map((item) => ({ href: item.href, label: String(t(`accountShell.nav.${item.section}`)), current: item.current }));
  return (
    <div>
      <div className="mb-5 border-b border-slate-200 pb-3">
        <p className="text-xs font-semibold text-slate-500 uppercase">{t("accountShell.context")}</p>
        <p className="text-lg font-semibold text-slate-900" data-account-name>
          {account.name}
        </p>
      </div>
      <div className="flex flex-col gap-6 md:flex-row print:block">
        <Sidebar label={String(t("accountShell.navigation"))} items={items} />
        <div className="min-w-0 flex-1">
          <PendingChangesBanner accountId={account._id} count={pending} />
          {children}
        </div>
      </div>
    </div>
  );
}
