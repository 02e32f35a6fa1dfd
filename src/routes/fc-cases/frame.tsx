import type { ReactNode } from "react";
import { type FcPriority, type FcStatus, type FcTab, fcPriorities, fcStatuses, fcTabs } from "@/schema/fc-cases";
import { formatDateTime } from "@/schema/format";
import type { AccountDetails } from "@/server/current-account";
import { usePage } from "@/server/render/page-context";
import { PageHeader } from "@/ui/page-header";
import { AccountLayout } from "@/ui/shell/account-layout";
import { Tabs } from "@/ui/tabs";
import { fcTabHref } from "./paths";

/** The desk's frame: the account's sidebar, the page title, and the tabs this user may open. */
export function FcFrame({
  account,
  tab,
  title,
  description,
  actions,
  children,
}: {
  account: AccountDetails;
  tab: FcTab;
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
}) {
  const { t, user } = usePage();
  const items = fcTabs
    .filter(([, flag]) => user?.permissions[flag])
    .map(([name]) => ({ href: fcTabHref(account._id, name), label: String(t(`fc.tabs.${name}`)), current: name === tab }));
  return (
    <AccountLayout account={account}>
      <PageHeader title={title} description={description} actions={actions} />
      <Tabs label={String(t("fc.tabs.label"))} items={items} />
      <div className="mt-6 flex flex-col gap-6">{children}</div>
    </AccountLayout>
  );
}

const priorityTone: Record<FcPriority, string> = {
  low: "bg-slate-100 text-slate-800",
  medium: "bg-sky-100 text-sky-900",
  high: "bg-amber-100 text-amber-900",
  urgent: "bg-red-100 text-red-900",
};
const statusTone: Record<FcStatus, string> = {
  open: "bg-sky-100 text-sky-900",
  "in-progress": "bg-indigo-100 text-indigo-900",
  waiting: "bg-amber-100 text-amber-900",
  closed: "bg-slate-100 text-slate-800",
};

export function PriorityBadge({ priority }: { priority: FcPriority }) {
  const { t } = usePage();
  return (
    <span className={`rounded px-2 py-0.5 text-xs font-semibold ${priorityTone[priority]}`}>{t(`fc.priority.${priority}`)}</span>
  );
}

export function StatusBadge({ status }: { status: FcStatus }) {
  const { t } = usePage();
  return (
    <span data-session-status={status} className={`rounded px-2 py-0.5 text-xs font-semibold ${statusTone[status]}`}>
      {t(`fc.status.${status}`)}
    </span>
  );
}

/** A moment in the account's time zone, naming it, machine-readable in <time>. */
export function When({ at, timeZone }: { at: string; timeZone: string }) {
  const { language } = usePage();
  return <time dateTime={at}>{formatDateTime(language, at, timeZone)}</time>;
}

/**
 * A timeline entry's change ("waiting → closed", "low → high", as stored) in the reader's words:
 * each side a translated status or priority. Anything else shows as it was written.
 */
export function useChangeText(): (body: string) => string {
  const { t } = usePage();
  return (body) => {
    const sides = body.split(" → ");
    if (sides.length !== 2) return body;
    const word = (side: string) =>
      (fcStatuses as readonly string[]).includes(side)
        ? String(t(`fc.status.${side}`))
        : (fcPriorities as readonly string[]).includes(side)
          ? String(t(`fc.priority.${side}`))
          : null;
    const [before, after] = sides.map(word);
    return before && after ? `${before} → ${after}` : body;
  };
}

/** A list of radio uids typed in a form ("A-1, A-2" or one per line). */
export function uidList(text: string | undefined): string[] {
  return (text ?? "")
    .split(/[\s,;]+/)
    .map((u) => u.trim())
    .filter(Boolean);
}
