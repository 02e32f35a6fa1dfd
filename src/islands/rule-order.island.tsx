import { type FormEvent, useEffect, useRef, useState } from "react";
import { Button } from "../ui/button";
import { FormAlert } from "../ui/form-alert";
import { type Messages, translate } from "./runtime/messages";

export type RuleRow = {
  id: string;
  name: string;
  priority: number;
  enabled: boolean;
  /** What the rule matches, in words (the server wrote them). */
  conditions: string;
  profiles: string[];
  editHref: string;
};

export type RuleOrderProps = {
  messages: Messages;
  accountId: string;
  /** The rule-set version this order was read at; every move names it. */
  setVersion: number;
  rows: RuleRow[];
  /** All rules of the account (the rows are one page of them). */
  total: number;
  /** The list page itself: where the move forms post without JavaScript, and where a page link goes. */
  action: string;
  page: number;
  pageSize: number;
  /** A refusal of a move posted without JavaScript, already translated. */
  error?: string;
};

type Direction = "up" | "down";

/**
 * The account's rules in priority order, each with Move up / Move down. Without JavaScript
 * every button is a small form posting to the list page. With it, a move is one call to
 * rules.reorder: the rows swap in place, the focus stays on the button pressed, and the new
 * position is announced. A move made on an order someone else changed meanwhile is refused
 * (CONFLICT) with a link that loads the current order.
 */
export default function RuleOrder(props: RuleOrderProps) {
  const { messages, accountId, total, action, page, pageSize } = props;
  const t = (key: string, values?: Record<string, string | number>) => translate(messages, key, values);
  const [rows, setRows] = useState(props.rows);
  const [setVersion, setSetVersion] = useState(props.setVersion);
  const [pending, setPending] = useState<string | null>(null);
  const [error, setError] = useState<{ text: string; reload: boolean } | null>(
    props.error ? { text: props.error, reload: false } : null,
  );
  const [announcement, setAnnouncement] = useState("");
  const focusAfter = useRef<string | null>(null);
  const table = useRef<HTMLTableElement>(null);

  useEffect(() => {
    if (!focusAfter.current) return;
    table.current?.querySelector<HTMLButtonElement>(focusAfter.current)?.focus();
    focusAfter.current = null;
  });

  async function move(event: FormEvent<HTMLFormElement>, row: RuleRow, direction: Direction) {
    event.preventDefault();
    if (pending) return;
    setPending(row.id);
    setError(null);
    try {
      const { api } = await import("./runtime/api-client");
      const result = await api.rules.reorder.mutate({ accountId, version: setVersion, move: { id: row.id, direction } });
      setSetVersion(result.setVersion);
      const position = row.priority + (direction === "up" ? -1 : 1);
      const first = rows[0]?.priority ?? 1;
      const last = rows.at(-1)?.priority ?? 1;
      if (position < first || position > last) {
        // It left this page: show the page it is on now.
        location.assign(`${action}?page=${Math.ceil(position / pageSize)}`);
        return;
      }
      const next = rows.map((r) => ({ ...r }));
      const from = next.findIndex((r) => r.id === row.id);
      const to = direction === "up" ? from - 1 : from + 1;
      const [a, b] = [next[from], next[to]];
      if (a && b) {
        [a.priority, b.priority] = [b.priority, a.priority];
        next[from] = b;
        next[to] = a;
      }
      setRows(next);
      // The same button again, or the other one when the rule reached an end of the whole list.
      const atEnd = direction === "up" ? position === 1 : position === total;
      focusAfter.current = `button[data-rule="${row.id}"][data-direction="${atEnd ? (direction === "up" ? "down" : "up") : direction}"]`;
      setAnnouncement(t("rules.list.moved", { name: row.name, position }));
    } catch (caught) {
      const { errorText } = await import("./runtime/api-client");
      const code = (caught as { data?: { code?: string } }).data?.code;
      setError({ text: errorText(caught, messages), reload: code === "CONFLICT" });
    } finally {
      setPending(null);
    }
  }

  function moveForm(row: RuleRow, direction: Direction) {
    const atEnd = direction === "up" ? row.priority === 1 : row.priority === total;
    return (
      <form method="post" action={action} onSubmit={(event) => void move(event, row, direction)}>
        <input type="hidden" name="intent" value="move" />
        <input type="hidden" name="ruleId" value={row.id} />
        <input type="hidden" name="direction" value={direction} />
        <input type="hidden" name="version" value={setVersion} />
        <input type="hidden" name="page" value={page} />
        <Button
          type="submit"
          variant="white"
          size="sm"
          disabled={atEnd}
          pending={pending === row.id}
          data-rule={row.id}
          data-direction={direction}
        >
          {t(direction === "up" ? "rules.list.moveUp" : "rules.list.moveDown")}
          <span className="sr-only"> {row.name}</span>
        </Button>
      </form>
    );
  }

  return (
    <div className="flex flex-col gap-3">
      <FormAlert
        message={error?.text}
        link={error?.reload ? { href: `${action}${page > 1 ? `?page=${page}` : ""}`, text: t("rules.list.reload") } : undefined}
      />
      <p role="status" aria-live="polite" className="sr-only">
        {announcement}
      </p>
      <div className="relative overflow-x-auto rounded-lg border border-slate-200 bg-white shadow-sm">
        <table ref={table} className="min-w-full divide-y divide-slate-200 text-sm">
          <caption className="sr-only">{t("rules.list.caption")}</caption>
          <thead className="bg-slate-50">
            <tr>
              {["priority", "name", "conditions", "profiles", "order"].map((column) => (
                <th key={column} scope="col" className="px-4 py-3 text-left font-semibold text-slate-700">
                  {t(`rules.list.${column}`)}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((row) => (
              <tr key={row.id} data-rule-row={row.id}>
                <td className="px-4 py-3 font-semibold text-slate-900 tabular-nums">{row.priority}</td>
                <td className="px-4 py-3">
                  <a href={row.editHref} className="font-medium text-brand-700 hover:underline">
                    {row.name}
                  </a>
                  {!row.enabled && (
                    <span className="ml-2 rounded bg-slate-100 px-1.5 py-0.5 text-xs font-medium text-slate-700">
                      {t("rules.list.disabled")}
                    </span>
                  )}
                </td>
                <td className="px-4 py-3 text-slate-800">{row.conditions}</td>
                <td className="px-4 py-3 text-slate-800">
                  {row.profiles.length === 0 ? (
                    <span className="text-slate-500">{t("rules.list.noProfiles")}</span>
                  ) : (
                    <ol className="list-decimal pl-4">
                      {row.profiles.map((name) => (
                        <li key={name}>{name}</li>
                      ))}
                    </ol>
                  )}
                </td>
                <td className="px-4 py-3">
                  <div className="flex gap-2">
                    {moveForm(row, "up")}
                    {moveForm(row, "down")}
                  </div>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}
