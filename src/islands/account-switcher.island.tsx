import { lazy, Suspense, useEffect, useId, useRef, useState } from "react";
import { type Messages, translate } from "./runtime/messages";
import { type RecentAccount, recordRecentAccount } from "./runtime/recent-accounts";

export type AccountSwitcherProps = {
  /** The account the page is inside, when there is one. */
  current: RecentAccount | null;
  /** Whose recent accounts these are (the localStorage key is per user). */
  userId: string;
  messages: Messages;
};

// The search (react-query and the tRPC client) is loaded when the panel is first wanted.
const loadPanel = () => import("./account-switcher-panel");
const Panel = lazy(() =>
  loadPanel().catch(() => {
    // The chunk is gone (a new deploy): the list of all accounts still works.
    location.assign("/accounts");
    return new Promise<never>(() => {});
  }),
);

const faceClass =
  "flex w-full max-w-64 cursor-pointer flex-col items-start rounded-md px-2 py-1 text-left text-sm text-slate-700 ring-1 ring-slate-200 hover:bg-slate-100 aria-expanded:bg-slate-100";

function Face({ current, messages }: Pick<AccountSwitcherProps, "current" | "messages">) {
  const jump = translate(messages, "switcher.jump");
  if (!current) return <span className="w-full truncate font-medium">{jump}</span>;
  return (
    <>
      <span className="w-full truncate text-xs leading-tight text-slate-500">{jump}</span>
      <span className="w-full truncate leading-tight font-semibold text-slate-900" title={current.name}>
        {current.name}
      </span>
    </>
  );
}

/**
 * The header's account switcher (spec §2): "Jump to an account", showing the current
 * account's name. Without JavaScript (and on the server, so hydration matches) it is a link
 * to /accounts; once mounted it opens a panel to search accounts and pick a recent one.
 * Visiting an account's pages records it among the recent accounts.
 */
export default function AccountSwitcher({ current, userId, messages }: AccountSwitcherProps) {
  const [mounted, setMounted] = useState(false);
  const [open, setOpen] = useState(false);
  const rootRef = useRef<HTMLDivElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  const panelId = `${useId()}panel`;

  useEffect(() => setMounted(true), []);

  useEffect(() => {
    if (current) recordRecentAccount(localStorage, userId, current);
  }, [current, userId]);

  // A click outside, or focus moving outside, closes the panel.
  useEffect(() => {
    if (!open) return;
    const onOutside = (event: Event) => {
      if (event.target instanceof Node && !rootRef.current?.contains(event.target)) setOpen(false);
    };
    document.addEventListener("pointerdown", onOutside);
    document.addEventListener("focusin", onOutside);
    return () => {
      document.removeEventListener("pointerdown", onOutside);
      document.removeEventListener("focusin", onOutside);
    };
  }, [open]);

  if (!mounted) {
    return (
      <a href="/accounts" className={faceClass}>
        <Face current={current} messages={messages} />
      </a>
    );
  }

  function close() {
    setOpen(false);
    buttonRef.current?.focus();
  }

  return (
    <div ref={rootRef} className="relative">
      <button
        ref={buttonRef}
        type="button"
        aria-haspopup="dialog"
        aria-expanded={open}
        aria-controls={open ? panelId : undefined}
        className={faceClass}
        onClick={() => setOpen(!open)}
        // Start loading the search before the click lands.
        onPointerEnter={() => void loadPanel()}
        onFocus={() => void loadPanel()}
      >
        <Face current={current} messages={messages} />
      </button>
      {open && (
        <Suspense
          fallback={
            <p
              role="status"
              className="absolute left-0 z-30 mt-1 w-80 rounded-md border border-slate-200 bg-white p-3 text-sm shadow-lg"
            >
              {translate(messages, "switcher.loading")}
            </p>
          }
        >
          <Panel id={panelId} userId={userId} messages={messages} onClose={close} />
        </Suspense>
      )}
    </div>
  );
}
