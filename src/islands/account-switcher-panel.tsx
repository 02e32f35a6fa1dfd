import { QueryClientProvider, useQuery } from "@tanstack/react-query";
import { type KeyboardEvent, useEffect, useRef, useState } from "react";
import { api, errorText, queryClient } from "./runtime/api-client";
import { indexForKey } from "./runtime/menu-keys";
import { type Messages, translate } from "./runtime/messages";
import { type RecentAccount, readRecentAccounts, recordRecentAccount } from "./runtime/recent-accounts";

export type AccountSwitcherPanelProps = {
  id: string;
  userId: string;
  messages: Messages;
  /** Closes the panel and gives the focus back to the switcher's button. */
  onClose: () => void;
};

/** Typing pauses this long before the search asks the server. */
const SEARCH_DELAY_MS = 200;
const RESULT_LIMIT = 20;

function useDebounced(value: string, delay: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return settled;
}

function choose(userId: string, account: RecentAccount) {
  recordRecentAccount(localStorage, userId, account);
  location.assign(`/accounts/${encodeURIComponent(account.id)}`);
}

function PanelBody({ id, userId, messages, onClose }: AccountSwitcherPanelProps) {
  const [search, setSearch] = useState("");
  const [active, setActive] = useState(-1);
  const [recent] = useState(() => readRecentAccounts(localStorage, userId));
  const inputRef = useRef<HTMLInputElement>(null);
  const typed = search.trim();
  const settled = useDebounced(typed, SEARCH_DELAY_MS);
  const results = useQuery({
    queryKey: ["accounts.publicList", settled],
    queryFn: () => api.accounts.publicList.query({ search: settled, limit: RESULT_LIMIT }),
    enabled: settled !== "",
  });

  const searching = typed !== "";
  const options: RecentAccount[] = searching ? (results.data ?? []).map((row) => ({ id: row.value, name: row.label })) : recent;
  const activeIndex = active < options.length ? active : -1;
  const optionId = (index: number) => `${id}option${index}`;

  useEffect(() => inputRef.current?.focus(), []);
  useEffect(() => {
    if (activeIndex >= 0) document.getElementById(`${id}option${activeIndex}`)?.scrollIntoView({ block: "nearest" });
  }, [activeIndex, id]);

  let status = "";
  if (searching) {
    if (settled !== typed || results.isPending) status = translate(messages, "switcher.searching");
    else if (results.isError) status = errorText(results.error, messages);
    else if (options.length === 0) status = translate(messages, "switcher.noMatch", { search: typed });
  } else if (recent.length === 0) {
    status = translate(messages, "switcher.noRecent");
  }

  function onInputKeyDown(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === "ArrowDown" || event.key === "ArrowUp") {
      event.preventDefault();
      const next = indexForKey(event.key, activeIndex, options.length);
      if (next !== null) setActive(next);
    } else if (event.key === "Enter") {
      const option = options[activeIndex];
      if (option) {
        event.preventDefault();
        choose(userId, option);
      }
    }
  }

  function onPanelKeyDown(event: KeyboardEvent<HTMLDivElement>) {
    if (event.key === "Escape") {
      event.preventDefault();
      onClose();
    }
  }

  const groupLabel = translate(messages, searching ? "switcher.results" : "switcher.recent");
  return (
    <div
      id={id}
      role="dialog"
      aria-label={translate(messages, "switcher.jump")}
      className="absolute left-0 z-30 mt-1 w-80 rounded-md border border-slate-200 bg-white p-2 shadow-lg"
      onKeyDown={onPanelKeyDown}
    >
      <label htmlFor={`${id}search`} className="block px-1 text-xs font-medium text-slate-600">
        {translate(messages, "switcher.search")}
      </label>
      <input
        ref={inputRef}
        id={`${id}search`}
        type="search"
        role="combobox"
        aria-expanded={options.length > 0}
        aria-controls={`${id}list`}
        aria-autocomplete="list"
        aria-activedescendant={activeIndex >= 0 ? optionId(activeIndex) : undefined}
        autoComplete="off"
        spellCheck={false}
        value={search}
        onChange={(event) => {
          setSearch(event.target.value);
          setActive(-1);
        }}
        onKeyDown={onInputKeyDown}
        className="mt-1 w-full rounded-md border border-slate-300 px-3 py-2 text-sm"
      />
      <p id={`${id}group`} className="mt-2 px-2 py-1 text-xs font-semibold text-slate-500 uppercase">
        {groupLabel}
      </p>
      <div id={`${id}list`} role="listbox" aria-labelledby={`${id}group`} className="max-h-72 overflow-y-auto">
        {options.map((option, index) => (
          // The input keeps the focus (aria-activedescendant); options are picked by pointer or Enter.
          // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox input handles the keys for its options
          <div
            key={option.id}
            id={optionId(index)}
            role="option"
            tabIndex={-1}
            aria-selected={index === activeIndex}
            onMouseDown={(event) => event.preventDefault()}
            onClick={() => choose(userId, option)}
            className="cursor-pointer truncate rounded px-2 py-2 text-sm text-slate-800 hover:bg-slate-100 aria-selected:bg-brand-50 aria-selected:text-brand-800"
          >
            {option.name}
          </div>
        ))}
      </div>
      <p role="status" className={status ? "px-2 py-1 text-sm text-slate-600" : "sr-only"}>
        {status}
      </p>
      <a
        href="/accounts"
        className="mt-1 block rounded border-t border-slate-100 px-2 py-2 text-sm font-medium text-brand-700 hover:bg-slate-100"
      >
        {translate(messages, "switcher.seeAll")}
      </a>
    </div>
  );
}

/** The account switcher's panel: a search combobox over accounts.publicList, recent accounts, and all accounts. */
export default function AccountSwitcherPanel(props: AccountSwitcherPanelProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <PanelBody {...props} />
    </QueryClientProvider>
  );
}
