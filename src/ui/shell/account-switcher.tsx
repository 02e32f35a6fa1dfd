import { usePage } from "@/server/render/page-context";

// The label above the account's name is slate-600: at least 4.5:1 also on the open switcher's slate-100.
const faceClass =
  "flex w-full max-w-64 cursor-pointer flex-col items-start rounded-md px-2 py-1 text-left text-sm text-slate-700 ring-1 ring-slate-200 hover:bg-slate-100 aria-expanded:bg-slate-100";

/**
 * The header's account switcher (spec §2): "Jump to an account" with the current account's
 * name. A link to /accounts, which the shell script (src/shell/switcher.ts) turns into a
 * button opening the search and recent accounts; the strings it needs ride along as data.
 */
export function AccountSwitcher() {
  const { t, user, currentAccount } = usePage();
  if (!user) return null;
  const jump = String(t("switcher.jump"));
  const keys = ["jump", "loading", "search", "recent", "results", "noRecent", "searching", "noMatch", "seeAll"] as const;
  const messages = {
    ...Object.fromEntries(keys.map((key) => [key, String(t(`switcher.${key}`))])),
    failed: String(t("api.unknown")),
  };
  const current = currentAccount ? { id: currentAccount.id, name: currentAccount.name } : null;
  return (
    <div
      className="relative"
      data-switcher=""
      data-user-id={user.id}
      data-current={current ? JSON.stringify(current) : undefined}
      data-messages={JSON.stringify(messages)}
    >
      <a href="/accounts" className={faceClass}>
        {current ? (
          <>
            <span className="w-full truncate text-xs leading-tight text-slate-600">{jump}</span>
            <span className="w-full truncate leading-tight font-semibold text-slate-900" title={current.name}>
              {current.name}
            </span>
          </>
        ) : (
          <span className="w-full truncate font-medium">{jump}</span>
        )}
      </a>
    </div>
  );
}
