import { lazy, Suspense, useEffect, useState } from "react";
import type { Language } from "../schema/languages";
import { buttonClass } from "../ui/button";
import { type Messages, translate } from "./runtime/messages";

export type ActivityLogMoreProps = {
  accountId: string;
  /** The filters of the page, as activityLogs.list takes them. */
  filter: { entityType?: string; actor?: string; from?: string; to?: string };
  /** Where the server's page ended. */
  cursor: string;
  /** The same next page as a plain link, for before the script runs (and if it cannot). */
  moreHref: string;
  pageSize: number;
  /** How many entries the server's page shows. */
  shown: number;
  language: Language;
  timeZone: string;
  messages: Messages;
};

// react-query, the tRPC client and the entry view load when the reader shows interest.
const loadPages = () => import("./activity-log-pages");

/**
 * "Load more" under the activity log. Without JavaScript (and on the server, so hydration
 * matches) it is a link to the next page. Once mounted it is a button that adds the next
 * entries in place (activityLogs.list as an infinite query), as many times as there are more.
 */
export default function ActivityLogMore(props: ActivityLogMoreProps) {
  const [mounted, setMounted] = useState(false);
  const [wanted, setWanted] = useState(false);
  const [Pages] = useState(() =>
    lazy(() =>
      loadPages().catch(() => {
        // The chunk is gone (a new deploy): the plain next page still works.
        location.assign(props.moreHref);
        return new Promise<never>(() => {});
      }),
    ),
  );
  useEffect(() => setMounted(true), []);
  const label = translate(props.messages, "activityLogs.loadMore");

  if (!mounted) {
    return (
      <p className="mt-4">
        <a href={props.moreHref} className={buttonClass("white")}>
          {label}
        </a>
      </p>
    );
  }
  if (!wanted) {
    const preload = () => void loadPages().catch(() => {});
    return (
      <p className="mt-4">
        <button
          type="button"
          className={buttonClass("white")}
          onPointerEnter={preload}
          onFocus={preload}
          onClick={() => setWanted(true)}
        >
          {label}
        </button>
      </p>
    );
  }
  const loading = (
    <p className="mt-4">
      <button type="button" className={buttonClass("white")} aria-busy="true" aria-disabled="true">
        {translate(props.messages, "activityLogs.loading")}
      </button>
    </p>
  );
  return (
    <Suspense fallback={loading}>
      <Pages {...props} />
    </Suspense>
  );
}
