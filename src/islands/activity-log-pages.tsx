import { QueryClientProvider, useInfiniteQuery } from "@tanstack/react-query";
import { useEffect, useRef } from "react";
import { ActivityEntryView, type Text } from "../ui/activity/activity-entry";
import { buttonClass } from "../ui/button";
import type { ActivityLogMoreProps } from "./activity-log-more.island";
import { api, errorText, queryClient } from "./runtime/api-client";
import { translate } from "./runtime/messages";

/**
 * The entries after the server's page, fetched a page at a time from where it ended, and the
 * button for the next page; at the end, a line that says so (focused, as the button goes).
 */
function Pages({ accountId, filter, cursor, pageSize, shown, language, timeZone, messages }: ActivityLogMoreProps) {
  const text: Text = (key, values) => translate(messages, key, values);
  const query = useInfiniteQuery({
    queryKey: ["activityLogs.list", accountId, filter, cursor, pageSize],
    queryFn: ({ pageParam }) => api.activityLogs.list.query({ accountId, ...filter, cursor: pageParam, limit: pageSize }),
    initialPageParam: cursor,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const entries = query.data?.pages.flatMap((page) => page.items) ?? [];
  const finished = query.isSuccess && !query.hasNextPage;
  const endRef = useRef<HTMLParagraphElement>(null);
  const buttonRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (finished) endRef.current?.focus();
  }, [finished]);
  // The button that was clicked gave way to this one while the code loaded: keep the focus here.
  useEffect(() => {
    if (!document.activeElement || document.activeElement === document.body) buttonRef.current?.focus();
  }, []);

  const busy = query.isFetching;
  const more = () => {
    if (busy) return;
    void (query.data ? query.fetchNextPage() : query.refetch());
  };
  return (
    <>
      {entries.length > 0 && (
        <ol className="mt-3 space-y-3" aria-label={text("activityLogs.moreEntries")}>
          {entries.map((entry) => (
            <ActivityEntryView key={entry.id} entry={entry} text={text} language={language} timeZone={timeZone} />
          ))}
        </ol>
      )}
      <p role="status" className="sr-only">
        {query.isSuccess ? text("activityLogs.shown", { count: String(shown + entries.length) }) : ""}
      </p>
      {query.isError && (
        <p role="alert" className="mt-4 text-sm font-medium text-red-700">
          {errorText(query.error, messages)}
        </p>
      )}
      {finished ? (
        <p ref={endRef} tabIndex={-1} className="mt-4 text-sm text-slate-600">
          {text("activityLogs.end")}
        </p>
      ) : (
        <p className="mt-4">
          <button
            ref={buttonRef}
            type="button"
            className={buttonClass("white")}
            aria-busy={busy || undefined}
            aria-disabled={busy || undefined}
            onClick={more}
          >
            {text(busy ? "activityLogs.loading" : "activityLogs.loadMore")}
          </button>
        </p>
      )}
    </>
  );
}

export default function ActivityLogPages(props: ActivityLogMoreProps) {
  return (
    <QueryClientProvider client={queryClient}>
      <Pages {...props} />
    </QueryClientProvider>
  );
}
