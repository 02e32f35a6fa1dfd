import type { indexForKey } from "@/islands/runtime/menu-keys";
import type { RecentAccount } from "@/islands/runtime/recent-accounts";
import type { SwitcherMessages } from "./switcher";

/** Typing pauses this long before the search asks the server. */
const SEARCH_DELAY_MS = 200;
const RESULT_LIMIT = 20;

/**
 * What the shell hands over: it already holds the recent accounts and the keyboard rules, so
 * this chunk shares no code with it (one request, no shared chunk).
 */
type PanelOptions = {
  messages: SwitcherMessages;
  recent: RecentAccount[];
  choose: (account: RecentAccount) => void;
  keys: typeof indexForKey;
  onClose: () => void;
};

type Reply = { result?: { data?: { value: string; label: string }[] }; error?: { message?: string } };

/** accounts.publicList over tRPC's plain GET wire format (no client library in the browser). */
async function searchAccounts(search: string, messages: SwitcherMessages): Promise<RecentAccount[] | string> {
  const input = encodeURIComponent(JSON.stringify({ search, limit: RESULT_LIMIT }));
  try {
    const response = await fetch(`/api/accounts.publicList?input=${input}`, { headers: { Accept: "application/json" } });
    const reply = (await response.json()) as Reply;
    if (reply.result?.data) return reply.result.data.map((row) => ({ id: row.value, name: row.label }));
    return reply.error?.message || messages.failed;
  } catch {
    return messages.failed;
  }
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className: string, text = ""): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  node.className = className;
  node.textContent = text;
  return node;
}

let panels = 0;

/**
 * The switcher's panel: a search combobox (the input keeps the focus, arrows move the active
 * option, Enter or a click chooses), the recent accounts until something is typed, a status
 * line, and a link to all accounts. Escape closes it.
 */
export function createPanel({ messages, recent, choose, keys, onClose }: PanelOptions): HTMLElement {
  panels += 1;
  const id = `switcher${panels}`;
  let options: RecentAccount[] = recent;
  let active = -1;
  let typed = "";
  let searchTimer: ReturnType<typeof setTimeout> | undefined;
  let asked = 0;

  const panel = element("div", "absolute left-0 z-30 mt-1 w-80 rounded-md border border-slate-200 bg-white p-2 shadow-lg");
  panel.id = `${id}panel`;
  panel.setAttribute("role", "dialog");
  panel.setAttribute("aria-label", messages.jump);
  const label = element("label", "block px-1 text-xs font-medium text-slate-700", messages.search);
  label.htmlFor = `${id}search`;
  const input = element("input", "mt-1 w-full rounded-md border border-slate-400 px-3 py-2 text-sm");
  Object.assign(input, { id: `${id}search`, type: "search", autocomplete: "off", spellcheck: false });
  input.setAttribute("role", "combobox");
  input.setAttribute("aria-controls", `${id}list`);
  input.setAttribute("aria-autocomplete", "list");
  const group = element("p", "mt-2 px-2 py-1 text-xs font-semibold text-slate-600 uppercase");
  group.id = `${id}group`;
  const list = element("div", "max-h-72 overflow-y-auto");
  list.id = `${id}list`;
  list.setAttribute("role", "listbox");
  list.setAttribute("aria-labelledby", group.id);
  const status = element("p", "sr-only");
  status.setAttribute("role", "status");
  const all = element(
    "a",
    "mt-1 block rounded border-t border-slate-100 px-2 py-2 text-sm font-medium text-brand-700 hover:bg-slate-100",
    messages.seeAll,
  );
  all.href = "/accounts";
  panel.append(label, input, group, list, status, all);

  function setStatus(text: string) {
    status.textContent = text;
    status.className = text ? "px-2 py-1 text-sm text-slate-700" : "sr-only";
  }

  function renderOptions() {
    group.textContent = typed ? messages.results : messages.recent;
    input.setAttribute("aria-expanded", String(options.length > 0));
    list.replaceChildren(
      ...options.map((option, index) => {
        const row = element(
          "div",
          "cursor-pointer truncate rounded px-2 py-2 text-sm text-slate-800 hover:bg-slate-100 aria-selected:bg-brand-50 aria-selected:text-brand-800",
          option.name,
        );
        row.id = `${id}option${index}`;
        row.setAttribute("role", "option");
        row.setAttribute("aria-selected", String(index === active));
        row.tabIndex = -1;
        // The input keeps the focus.
        row.addEventListener("mousedown", (event) => event.preventDefault());
        row.addEventListener("click", () => choose(option));
        return row;
      }),
    );
    if (active >= 0) {
      input.setAttribute("aria-activedescendant", `${id}option${active}`);
      document.getElementById(`${id}option${active}`)?.scrollIntoView({ block: "nearest" });
    } else input.removeAttribute("aria-activedescendant");
  }

  async function search(text: string) {
    const ticket = ++asked;
    const found = await searchAccounts(text, messages);
    if (ticket !== asked) return;
    if (typeof found === "string") {
      options = [];
      setStatus(found);
    } else {
      options = found;
      setStatus(found.length === 0 ? messages.noMatch.replace("{{search}}", text) : "");
    }
    renderOptions();
  }

  input.addEventListener("input", () => {
    typed = input.value.trim();
    active = -1;
    clearTimeout(searchTimer);
    asked += 1;
    if (typed) {
      options = [];
      setStatus(messages.searching);
      searchTimer = setTimeout(() => void search(typed), SEARCH_DELAY_MS);
    } else {
      options = recent;
      setStatus(recent.length === 0 ? messages.noRecent : "");
    }
    renderOptions();
  });
  input.addEventListener("keydown", (event) => {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = keys(event.key, active, options.length);
      if (next !== null) active = next;
      renderOptions();
    } else if (event.key === "Enter") {
      const option = options[active];
      if (option) {
        event.preventDefault();
        choose(option);
      }
    }
  });
  panel.addEventListener("keydown", (event) => {
    if (event.key !== "Escape") return;
    event.preventDefault();
    onClose();
  });

  setStatus(recent.length === 0 ? messages.noRecent : "");
  renderOptions();
  return panel;
}
