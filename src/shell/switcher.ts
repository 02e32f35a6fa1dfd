import { indexForKey } from "@/islands/runtime/menu-keys";
import { type RecentAccount, readRecentAccounts, recordRecentAccount } from "@/islands/runtime/recent-accounts";
import { onLeave } from "./outside";

export type SwitcherMessages = Record<
  "jump" | "loading" | "search" | "recent" | "results" | "noRecent" | "searching" | "noMatch" | "seeAll" | "failed",
  string
>;

// The search is its own small chunk, loaded when the switcher is about to be used.
const loadPanel = () =>
  import(/* @vite-ignore */ document.body.dataset.switcherPanelSrc ?? "") as Promise<typeof import("./switcher-panel")>;

function parseCurrent(json: string | undefined): RecentAccount | null {
  if (!json) return null;
  const value = JSON.parse(json) as RecentAccount;
  return typeof value?.id === "string" && typeof value.name === "string" ? value : null;
}

/**
 * The header's account switcher (spec §2). Without JavaScript it is a link to /accounts; with
 * it the link becomes a button that opens a panel: a search over the user's accounts and
 * their five recent accounts (spec §4). Visiting an account's pages records it as recent.
 */
export function enhanceSwitcher(root: HTMLElement): void {
  const link = root.querySelector("a");
  const userId = root.dataset.userId ?? "";
  const messages = JSON.parse(root.dataset.messages ?? "{}") as SwitcherMessages;
  const current = parseCurrent(root.dataset.current);
  if (current) recordRecentAccount(localStorage, userId, current);
  if (!link) return;

  const button = document.createElement("button");
  button.type = "button";
  button.className = link.className;
  button.setAttribute("aria-haspopup", "dialog");
  button.setAttribute("aria-expanded", "false");
  button.append(...link.childNodes);
  link.replaceWith(button);

  let panel: HTMLElement | null = null;
  let stopLeave: (() => void) | null = null;
  let opening = 0;

  function setClosed() {
    opening += 1;
    panel?.remove();
    panel = null;
    stopLeave?.();
    stopLeave = null;
    button.setAttribute("aria-expanded", "false");
    button.removeAttribute("aria-controls");
  }
  function close() {
    setClosed();
    button.focus();
  }
  async function open() {
    const ticket = ++opening;
    button.setAttribute("aria-expanded", "true");
    stopLeave = onLeave(root, setClosed);
    const loading = document.createElement("p");
    loading.setAttribute("role", "status");
    loading.className = "absolute left-0 z-30 mt-1 w-80 rounded-md border border-slate-200 bg-white p-3 text-sm shadow-lg";
    loading.textContent = messages.loading;
    root.append(loading);
    panel = loading;
    try {
      const { createPanel } = await loadPanel();
      if (ticket !== opening) return;
      loading.remove();
      panel = createPanel({
        messages,
        recent: readRecentAccounts(localStorage, userId),
        choose: (account) => {
          recordRecentAccount(localStorage, userId, account);
          location.assign(`/accounts/${encodeURIComponent(account.id)}`);
        },
        keys: indexForKey,
        onClose: close,
      });
      button.setAttribute("aria-controls", panel.id);
      root.append(panel);
      panel.querySelector("input")?.focus();
    } catch {
      // The chunk is gone (a new deploy): the list of all accounts still works.
      location.assign("/accounts");
    }
  }

  button.addEventListener("click", () => (panel ? setClosed() : void open()));
  // Start loading the search before the click lands.
  button.addEventListener("pointerenter", () => void loadPanel().catch(() => {}));
  button.addEventListener("focus", () => void loadPanel().catch(() => {}));
}
